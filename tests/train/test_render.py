"""Rendering and masking: the model learns assistant turns only, never tool output."""

from __future__ import annotations

import json

import pytest

from botpsy.formats import get_format
from botpsy.train.render import decision_points, segments, sft_rows
from botpsy.train.sample import SampleKind


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model_dir)


def _multi_turn(small_data):
    return next(s for s in small_data.train if s.kind == SampleKind.multi_turn)


def test_segments_rebuild_the_rendered_conversation(small_data):
    fmt = get_format("hermes")
    sample = _multi_turn(small_data)
    [parts] = segments(fmt, sample)
    full = fmt.render(sample.messages, sample.tools, add_generation_prompt=False)
    assert full.startswith("".join(p.text for p in parts))
    targets = [p.text for p in parts if p.trainable]
    assert targets == [fmt.render_assistant(m) for m in sample.messages if m.role == "assistant"]


def test_mask_covers_assistant_targets_and_no_tool_output(small_data, tokenizer):
    fmt = get_format("hermes")
    sample = _multi_turn(small_data)
    [row] = sft_rows(fmt, tokenizer, [sample])
    ids, mask = row["input_ids"], row["assistant_masks"]
    learned = tokenizer.decode([t for t, m in zip(ids, mask) if m])
    context = tokenizer.decode([t for t, m in zip(ids, mask) if not m])
    targets = "".join(fmt.render_assistant(m) for m in sample.messages if m.role == "assistant")
    assert learned == targets
    for tool_message in (m for m in sample.messages if m.role == "tool"):
        assert tool_message.content in context
        assert tool_message.content not in learned


def test_trl_labels_ignore_tool_output(small_data, tokenizer, tiny_model_dir, data_files, tmp_path):
    """What SFTTrainer actually trains on: labels are -100 on every tool-output token."""
    from transformers import AutoModelForCausalLM

    from botpsy.train.sft import SFTStageConfig, build_trainer

    cfg = SFTStageConfig(
        model=str(tiny_model_dir), output_dir=str(tmp_path), train_file=str(data_files.train)
    )
    trainer = build_trainer(cfg, AutoModelForCausalLM.from_pretrained(tiny_model_dir), tokenizer)
    fmt = get_format("hermes")
    checked = 0
    for row in trainer.train_dataset:
        labels = [t for t in row["labels"] if t != -100]
        learned = tokenizer.decode(labels)
        if "<tool_response>" in tokenizer.decode(row["input_ids"]):
            assert "<tool_response>" not in learned and "untrusted data" not in learned
            checked += 1
        assert learned.endswith(fmt.stop_sequences()[0])
    assert checked > 5


def test_decision_points_grade_every_turn(small_data):
    fmt = get_format("hermes")
    sample = _multi_turn(small_data)
    first, *later = decision_points(fmt, sample, all_turns=True)
    assert json.loads(first.references)[0]["name"] == sample.reference_calls[0].name
    assert first.prompt.endswith("<|im_start|>assistant\n") and first.group == sample.group
    assert (
        later and json.loads(later[0].references) == []
    )  # the answer after the tool output makes no call


def test_a_final_answer_point_carries_the_tool_facts_it_must_relay():
    from botpsy.train.sample import TrainSample
    from botpsy.types import Message, ToolCall

    weather = '{"city": "Bogota", "condition": "light rain", "temperature": 20, "id": 7}'
    sample = TrainSample(
        id="s",
        messages=[
            Message(role="user", content="Weather in Bogota?"),
            Message(
                role="assistant",
                tool_calls=[ToolCall(name="get_weather", arguments={"city": "Bogota"})],
            ),
            Message(role="tool", content=weather),
            Message(role="assistant", content="Bogota: light rain, 20 degrees."),
        ],
        kind=SampleKind.multi_turn,
    )
    call, answer = decision_points(get_format("hermes"), sample, all_turns=True)
    assert (json.loads(call.facts), call.reference_chars) == ([], 0)  # a call is due there
    # The id is in the output but not in the reference answer: not a fact.
    assert json.loads(answer.facts) == ["Bogota", "light rain", "20"]
    assert answer.reference_chars == len("Bogota: light rain, 20 degrees.")


def test_the_generated_answers_relay_tool_output(small_data):
    fmt = get_format("hermes")
    points = [
        point
        for s in small_data.train
        if s.kind == SampleKind.multi_turn
        for point in decision_points(fmt, s, all_turns=True)[1:]
    ]
    assert sum(bool(json.loads(p.facts)) for p in points) >= 5


def test_validation_counts_no_empty_or_broken_answer_as_a_decline(small_data):
    from botpsy.train.evaluate import grade

    fmt = get_format("hermes")
    _, later = decision_points(fmt, _multi_turn(small_data), all_turns=True)[:2]
    broken = '<tool_call>\n{"name": "get_weather", "arguments": {"city": '
    assert grade(fmt, "", later)[:2] == (0.0, False)
    assert grade(fmt, broken, later)[1:4:2] == (False, "parse_error")
    assert grade(fmt, "It is 21 degrees.", later)[:2] == (1.0, True)
