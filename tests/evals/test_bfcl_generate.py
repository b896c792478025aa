"""The generation step with scripted models: text answers, failures, multi-turn driving."""

from __future__ import annotations

from botpsy.evals.bfcl import category, generate, score, upstream
from botpsy.evals.bfcl.results import find_result_files, read_results
from botpsy.types import Completion, ToolCall

from .chat_models import OracleChatModel, ScriptedChatModel


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
