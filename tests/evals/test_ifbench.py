"""IFBench end to end on its first prompts with a scripted model: IFBench's checkers
score the answers, botpsy's stats give the looping rate, the files resume and re-score."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from botpsy.backends.chat import FormattedChatModel
from botpsy.backends.scripted import ScriptedBackend
from botpsy.evals.ifbench import (
    generate_answers,
    load_prompts,
    run_ifbench,
    score_ifbench,
    unscorable_instructions,
)
from botpsy.formats import get_format
from botpsy.types import GenerationParams

# The first three prompts each ask for five keywords, used 1, 2, 3, 5 and 7 times.
FOLLOWS = "kaleidoscope " + "nebula " * 2 + "whisper " * 3 + "labyrinth " * 5 + "paradox " * 7
LOOPS = "the gossamer thread " * 30
# one "river" too many in its first line: wrong strictly, right once IFBench's loose
# scoring drops that line
LOOSE_ONLY = "A river runs here.\n" + "door " + "bread " * 2 + "blue " * 3 + "lamp " * 5 + "river " * 7
NLTK_CHECKERS = {"ratio:stop_words", "words:start_verb", "format:title_case",
                 "words:words_position"}


def _model(*answers: str) -> FormattedChatModel:
    return FormattedChatModel(ScriptedBackend(list(answers)), get_format("hermes"), name="scripted")


def test_three_prompts_scored_by_ifbench_strict_and_loose(tmp_path):
    summary = run_ifbench(_model(FOLLOWS, LOOPS, LOOSE_ONLY), tmp_path, limit=3, progress=False)
    assert (summary.prompts, summary.prompts_total, summary.complete) == (3, 294, False)
    assert summary.strict.prompt_level == pytest.approx(1 / 3)
    assert summary.loose.prompt_level == pytest.approx(2 / 3)
    assert summary.strict.instruction_level == pytest.approx(1 / 3)
    assert summary.stats.looping_rate == pytest.approx(1 / 3)
    lines = [json.loads(x) for x in (tmp_path / "responses.jsonl").read_text().splitlines()]
    assert [set(x) for x in lines] == [{"prompt", "response"}] * 3  # IFBench's own format
    assert lines[0]["response"] == FOLLOWS.strip()
    # resumed: nothing is asked again (the script is exhausted), the score is the same
    again = run_ifbench(_model(), tmp_path, limit=3, progress=False)
    assert again.strict == summary.strict
    assert score_ifbench(tmp_path).loose == summary.loose


def test_checkers_that_need_nltk_data_are_named_and_left_out(tmp_path):
    prompts = load_prompts()
    bad = unscorable_instructions(prompts)
    assert bad <= NLTK_CHECKERS  # what no registry ships: punkt_tab, stop words, tagger
    chosen = [p for p in prompts if str(p.key) in {"0", "133"}]  # 133: sub-bullets + stop words
    generate_answers(_model(FOLLOWS, "* a\n  * b"), chosen, tmp_path,
                     GenerationParams(max_tokens=16), progress=False)
    summary = score_ifbench(tmp_path)
    if "ratio:stop_words" in bad:
        assert summary.unscorable_instructions == {"ratio:stop_words": 1}
        assert (summary.prompts_scored, summary.instructions_scored) == (1, 2)
    else:  # a machine with NLTK's data scores everything
        assert summary.prompts_scored == 2


def test_cli_rescore_and_missing_answers(tmp_path):
    from botpsy.cli import app

    run_ifbench(_model(FOLLOWS), tmp_path, limit=1, progress=False)
    result = CliRunner().invoke(app, ["eval", "ifbench", "--rescore", "--out", str(tmp_path)])
    assert result.exit_code == 0 and "strict 100.0%" in result.output
    missing = CliRunner().invoke(app, ["eval", "ifbench", "--rescore", "--out",
                                       str(tmp_path / "none")])
    assert missing.exit_code == 2 and "no IFBench answers" in missing.output


@pytest.mark.slow
@pytest.mark.model
def test_smollm2_on_all_of_ifbench(tmp_path):
    """Every prompt through the embedded SmolLM2 (hours on two cores): the full figures."""
    summary = run_ifbench("smollm2", tmp_path, max_tokens=1024, progress=False)
    assert summary.complete and summary.prompts == 294
    assert summary.instructions_scored + sum(summary.unscorable_instructions.values()) == 335
    assert 0.0 <= summary.stats.looping_rate <= 1.0
