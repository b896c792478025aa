"""The door to bfcl-eval: checker imported without provider SDKs, state kept per conversation."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from botpsy.evals.bfcl import upstream


def test_checker_imports_without_any_model_provider_sdk():
    code = (
        "import sys; import botpsy.evals.bfcl.score, botpsy.evals.bfcl.generate;"
        "sdks = ('anthropic', 'cohere', 'mistralai', 'google.genai', 'boto3', 'openai', 'writerai',"
        " 'qwen_agent', 'sentence_transformers');"
        "print([m for m in sys.modules if m.split('.')[0] in {s.split('.')[0] for s in sdks}])"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


def test_stand_in_knows_every_model_name_without_dot_rewriting():
    mapping = sys.modules["bfcl_eval.constants.model_config"].MODEL_CONFIG_MAPPING
    assert mapping["any/model"].underscore_to_dot is False
    assert mapping[upstream.CHECKER_MODEL].underscore_to_dot is False


def test_bfcl_working_folders_are_not_created_in_site_packages():
    import bfcl_eval
    from bfcl_eval.constants import eval_config

    site_packages = Path(bfcl_eval.__file__).parents[1]
    assert eval_config.PROJECT_ROOT == Path(os.environ["BFCL_PROJECT_ROOT"])
    assert eval_config.PROJECT_ROOT != site_packages


def test_forget_instances_resets_a_conversation_state():
    config = {"GorillaFileSystem": {"root": {"w": {"type": "directory", "contents": {}}}}}
    classes = ["GorillaFileSystem"]

    def run(calls):
        return upstream.execute_multi_turn_func_call(calls, config, classes, "t", "case_1")[0]

    upstream.forget_instances("t", "case_1", classes)
    assert run(["mkdir(dir_name='a')"]) == ["None"]
    assert "File exists" in run(["mkdir(dir_name='a')"])[0]  # the state persists...
    upstream.forget_instances("t", "case_1", classes)
    assert run(["mkdir(dir_name='a')"]) == ["None"]  # ...until forgotten
    upstream.forget_instances("t", "case_1", classes)
