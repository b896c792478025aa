"""The generation step with scripted models: text answers, failures, multi-turn driving."""

from __future__ import annotations

import json

import pytest

from botpsy.backends.chat import FormattedChatModel
from botpsy.evals.bfcl import category, generate, score, upstream
from botpsy.evals.bfcl.generate import RunMismatchError
from botpsy.evals.bfcl.results import find_result_files, read_manifest, read_results
from botpsy.formats import get_format
from botpsy.types import Completion, GenerationParams, ToolCall

from .chat_models import BudgetBackend, OracleChatModel, ScriptedChatModel


class _Recorder(OracleChatModel):
    """The oracle, remembering the messages and tool names of every request."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.requests = []

    def complete(self, messages, tools=None, params=None):
        self.requests.append((list(messages), [t.name for t in tools or []]))
        return super().complete(messages, tools, params)


class _AlwaysCalls:
    """A model stuck in a loop: it lists the directory forever."""

    name = "looper"

    def __init__(self):
        self.calls = 0

    def complete(self, messages, tools=None, params=None):
        self.calls += 1
        return Completion(tool_calls=[ToolCall(name="ls", arguments={})], raw="ls()")

    def stream(self, messages, tools=None, params=None):
        yield from ()


def test_text_answers_and_failed_calls_are_scored_with_their_category(tmp_path):
    model = ScriptedChatModel(
        [
            Completion(content="I would rather not.", raw="I would rather not."),
            Completion(tool_calls=[ToolCall(name="math.factorial", arguments={})]),
        ]
    )
    generate(model, ["simple_python"], tmp_path, limit=3, progress=False)  # the 3rd call raises
    report = score(tmp_path / "results" / "scripted", tmp_path, progress=False)
    errors = report.categories["simple_python"].error_types
    assert errors == {
        "ast_decoder:decoder_failed": 1,
        "simple_function_checker:missing_required": 1,
        "inference_error": 1,
    }
    assert report.categories["simple_python"].inference_errors == 1
    path = find_result_files(tmp_path / "results" / "scripted")["simple_python"]
    failed = read_results(path)["simple_python_2"]
    assert failed.inference_error == "RuntimeError: script exhausted"


def test_resume_asks_failed_cases_again(tmp_path):
    generate(ScriptedChatModel([]), ["irrelevance"], tmp_path, limit=2, progress=False)
    again = ScriptedChatModel([Completion(content="no"), Completion(content="no")])
    summary = generate(again, ["irrelevance"], tmp_path, limit=2, progress=False)
    assert summary.categories[0].generated == 2 and summary.categories[0].failed == 0
    report = score(summary.model_dir, tmp_path, progress=False)
    assert report.categories["irrelevance"].accuracy == 1.0


def test_multi_turn_feeds_tool_results_back_and_adds_held_out_functions(tmp_path):
    model = _Recorder([category("multi_turn_miss_func")])
    generate(model, ["multi_turn_miss_func"], tmp_path, limit=1, progress=False)
    after_call = next(messages for messages, _ in model.requests if messages[-1].role == "tool")
    call_ids = {c.id for m in after_call if m.role == "assistant" for c in m.tool_calls}
    assert after_call[-1].tool_call_id in call_ids
    held_out_turn = [
        (m, tools)
        for m, tools in model.requests
        if m[-1].content == upstream.ADDITIONAL_FUNCTION_PROMPT
    ]
    assert held_out_turn and len(held_out_turn[0][1]) > len(model.requests[0][1])


def test_endless_calls_are_force_terminated_after_bfcl_step_limit(tmp_path):
    model = _AlwaysCalls()
    generate(model, ["multi_turn_base"], tmp_path, limit=1, progress=False)
    assert model.calls == upstream.MAXIMUM_STEP_LIMIT + 1
    report = score(tmp_path / "results" / "looper", tmp_path, progress=False)
    assert report.categories["multi_turn_base"].error_types == {"multi_turn:force_terminated": 1}


def test_a_model_failing_mid_conversation_keeps_the_turns_so_far(tmp_path):
    model = ScriptedChatModel([Completion(content="Let me think.", raw="Let me think.")])
    generate(model, ["multi_turn_base"], tmp_path, limit=1, progress=False)
    path = find_result_files(tmp_path / "results" / "scripted")["multi_turn_base"]
    record = read_results(path)["multi_turn_base_0"]
    assert record.inference_error == "RuntimeError: script exhausted"
    assert record.result == [["Let me think."], []]  # turn 1 answered, turn 2 failed
    report = score(tmp_path / "results" / "scripted", tmp_path, progress=False)
    assert report.categories["multi_turn_base"].error_types == {"inference_error": 1}


class _ChoiceRecorder(OracleChatModel):
    """The oracle, remembering the role of the last message and the tool choice of each request."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.choices = []

    def complete(self, messages, tools=None, params=None):
        self.choices.append((messages[-1].role, params.tool_choice))
        return super().complete(messages, tools, params)


def _hermes_call(name, **arguments):
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def test_required_tool_choice_decodes_under_the_call_grammar_and_is_reported(tmp_path):
    backend = BudgetBackend(_hermes_call("calculate_triangle_area", base=10, height=5))
    model = FormattedChatModel(backend, get_format("hermes"), name="forced")
    generate(
        model,
        ["simple_python", "irrelevance"],
        tmp_path,
        limit=1,
        tool_choice="required",
        progress=False,
    )
    grammars = backend.grammars
    assert len(grammars) == 2 and all(g and g.startswith("root ::=") for g in grammars)
    assert "calculate_triangle_area" in grammars[0]  # the case's own tool, its schema
    assert read_manifest(tmp_path / "results" / "forced").tool_choice == "required"
    report = score(tmp_path / "results" / "forced", tmp_path, progress=False)
    assert report.tool_choice == "required" and report.categories["simple_python"].correct == 1
    # A forced call can never be right in irrelevance: run and scored as it is.
    assert report.categories["irrelevance"].error_types == {"irrelevance_error:decoder_success": 1}
    assert "(fc mode, tool choice required)" in (tmp_path / "scores/forced/report.md").read_text()


def test_multi_turn_forces_only_the_first_step_of_each_turn(tmp_path):
    model = _ChoiceRecorder([category("multi_turn_base")])
    generate(model, ["multi_turn_base"], tmp_path, limit=1, tool_choice="required", progress=False)
    assert set(model.choices) == {("user", "required"), ("tool", "auto")}
    assert score(tmp_path / "results" / "oracle", tmp_path, progress=False).overall.overall > 0


def test_a_bad_tool_choice_or_a_mismatched_resume_is_refused_and_keeps_the_results(tmp_path):
    with pytest.raises(ValueError, match="tool_choice must be one of"):
        generate(ScriptedChatModel([]), ["irrelevance"], tmp_path, tool_choice="none")
    first = ScriptedChatModel([Completion(content="no")])
    summary = generate(first, ["irrelevance"], tmp_path, limit=1, progress=False)
    path = find_result_files(summary.model_dir)["irrelevance"]
    before = path.read_text()
    with pytest.raises(RunMismatchError, match="tool_choice 'auto', not 'required'"):
        generate(ScriptedChatModel([]), ["irrelevance"], tmp_path, tool_choice="required")
    assert path.read_text() == before


class _ConcurrentOracle(OracleChatModel):
    """The oracle, declaring that threads may call it at once, and counting how many did."""

    concurrency = 4

    def __init__(self, *args, **kwargs):
        import threading

        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()
        self.active = self.most = 0

    def complete(self, messages, tools=None, params=None):
        import time

        with self._lock:
            self.active += 1
            self.most = max(self.most, self.active)
        time.sleep(0.01)  # long enough for the other threads to come in
        try:
            return super().complete(messages, tools, params)
        finally:
            with self._lock:
                self.active -= 1


def test_parallel_cases_write_the_same_files_as_one_at_a_time(tmp_path):
    categories = ["simple_python", "multi_turn_base"]
    model = _ConcurrentOracle([category(c) for c in categories])
    one = generate(model, categories, tmp_path / "one", limit=6, progress=False)
    assert model.most == 1
    four = generate(model, categories, tmp_path / "four", limit=6, progress=False, parallel=4)
    assert model.most == 4
    for path_one, path_four in zip(
        find_result_files(one.model_dir).values(), find_result_files(four.model_dir).values()
    ):
        sequential, parallel = read_results(path_one), read_results(path_four)
        assert list(parallel) == list(sequential)  # sorted by id as BFCL writes them
        assert [r.result for r in parallel.values()] == [r.result for r in sequential.values()]
    report = score(four.model_dir, tmp_path / "four", progress=False)
    assert report.categories["simple_python"].accuracy == 1.0


def test_more_parallel_cases_than_the_model_serves_is_refused(tmp_path):
    with pytest.raises(ValueError, match="serves 1 request"):
        generate(ScriptedChatModel([]), ["irrelevance"], tmp_path, limit=2, progress=False, parallel=2)
    assert not (tmp_path / "results").exists()


def test_a_resumed_run_with_nothing_left_keeps_its_totals(tmp_path):
    first = ScriptedChatModel([Completion(content="no"), Completion(content="no")])
    generate(first, ["irrelevance"], tmp_path, limit=2, progress=False)
    summary = generate(ScriptedChatModel([]), ["irrelevance"], tmp_path, limit=2, progress=False)
    assert summary.categories[0].resumed == 2
    assert read_manifest(summary.model_dir).generated == 2


def test_a_resume_refuses_another_model_of_the_same_name_or_other_settings(tmp_path):
    """Result folders are named after the model: a retrained ``botpsy-smol`` (another
    source) or other generation settings must not resume this run's answers."""
    first = ScriptedChatModel([Completion(content="no")])
    first.source = "gguf hermes base.gguf:1:aaaa lora.gguf:2:bbbb"
    generate(first, ["irrelevance"], tmp_path, limit=1, progress=False)
    retrained = ScriptedChatModel([])
    retrained.source = "gguf hermes base.gguf:1:aaaa lora.gguf:2:cccc"
    with pytest.raises(RunMismatchError, match="made with model 'gguf hermes base.gguf"):
        generate(retrained, ["irrelevance"], tmp_path, limit=1, progress=False)
    same = ScriptedChatModel([Completion(content="no")])
    same.source = first.source
    with pytest.raises(RunMismatchError, match="made with max_tokens 512, not 64"):
        generate(same, ["irrelevance"], tmp_path, limit=2, progress=False,
                 params=GenerationParams(max_tokens=64))
    summary = generate(same, ["irrelevance"], tmp_path, limit=2, progress=False)
    manifest = read_manifest(summary.model_dir)
    assert manifest.model_source == first.source and manifest.limit == 2
    generate(same, ["irrelevance"], tmp_path, limit=1, progress=False)  # nothing to ask
    assert read_manifest(summary.model_dir).limit == 2  # the files still hold 2 cases
