"""The one door to bfcl-eval: its data, AST checker, multi-turn checker and executable APIs.

Why this module exists: ``bfcl_eval.constants.model_config`` imports the client
SDK of every model provider BFCL supports (anthropic, cohere, google-genai,
mistral, ...). None of them are needed to *score* calls, and botpsy installs
bfcl-eval with ``--no-deps``. The checker only reads two things from that module:
``MODEL_CONFIG_MAPPING[name].underscore_to_dot`` (whether a model rewrote dots
in function names) and, in the leaderboard writer, display metadata. So before
anything from bfcl_eval is imported we put a small stand-in module under that
name in ``sys.modules``. If the real module was imported already (a full
bfcl-eval install), it is kept and only our checker model name is added to it.

bfcl-eval also creates ``result/``, ``score/`` and ``.file_locks/`` under
``BFCL_PROJECT_ROOT`` at import time (by default next to site-packages); we
point that at botpsy's cache directory so a read-only install keeps working.

Everything else in botpsy imports bfcl-eval through the names exported here.
"""

from __future__ import annotations

import os
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

_MODEL_CONFIG = "bfcl_eval.constants.model_config"

# The model name botpsy passes to BFCL's checkers. It never rewrites dots in
# function names (our formats keep names as given), so underscore_to_dot=False.
CHECKER_MODEL = "botpsy"


@dataclass
class ModelConfig:
    """Same fields as bfcl-eval's ModelConfig, without the handler classes behind it."""

    model_name: str
    display_name: str
    url: str = ""
    org: str = "botpsy"
    license: str = ""
    model_handler: Any = None
    input_price: float | None = None
    output_price: float | None = None
    is_fc_model: bool = True
    underscore_to_dot: bool = False


class _AnyModelConfig(dict):
    """A MODEL_CONFIG_MAPPING that knows every name: our models are not in BFCL's list."""

    def __missing__(self, name: str) -> ModelConfig:
        config = ModelConfig(model_name=name, display_name=name)
        self[name] = config
        return config


def _install_model_config_stand_in() -> None:
    existing = sys.modules.get(_MODEL_CONFIG)
    if existing is not None:  # the real thing, with every SDK: keep it
        real_config = type(next(iter(existing.MODEL_CONFIG_MAPPING.values())))
        existing.MODEL_CONFIG_MAPPING.setdefault(
            CHECKER_MODEL,
            real_config(
                model_name=CHECKER_MODEL,
                display_name=CHECKER_MODEL,
                url="",
                org="botpsy",
                license="",
                model_handler=None,
                underscore_to_dot=False,
            ),
        )
        return
    stand_in = types.ModuleType(_MODEL_CONFIG)
    stand_in.__doc__ = (
        "botpsy stand-in: model metadata without provider SDKs (see botpsy.evals.bfcl.upstream)."
    )
    stand_in.ModelConfig = ModelConfig
    stand_in.MODEL_CONFIG_MAPPING = _AnyModelConfig()
    sys.modules[_MODEL_CONFIG] = stand_in


def _bfcl_project_root() -> Path:
    root = Path(os.environ.get("BOTPSY_CACHE") or user_cache_dir("botpsy")) / "bfcl"
    root.mkdir(parents=True, exist_ok=True)
    return root


os.environ.setdefault("BFCL_PROJECT_ROOT", str(_bfcl_project_root()))
_install_model_config_stand_in()

# Imported only after the stand-in is in place (the order matters).
from bfcl_eval import utils as bfcl_utils
from bfcl_eval.constants import (
    category_mapping,
    default_prompts,
)
from bfcl_eval.constants.enums import Language, ReturnFormat
from bfcl_eval.constants.type_mappings import (
    JAVA_TYPE_CONVERSION,
    JS_TYPE_CONVERSION,
)
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
from bfcl_eval.eval_checker.ast_eval.type_convertor.java_type_converter import (
    java_type_converter,
)
from bfcl_eval.eval_checker.ast_eval.type_convertor.js_type_converter import (
    js_type_converter,
)
from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import (
    multi_turn_checker,
)
from bfcl_eval.model_handler.utils import (
    convert_to_function_call,
    default_decode_ast_prompting,
    default_decode_execute_prompting,
)

VERSION_PREFIX: str = category_mapping.VERSION_PREFIX
MAXIMUM_STEP_LIMIT: int = default_prompts.MAXIMUM_STEP_LIMIT
ADDITIONAL_FUNCTION_PROMPT: str = default_prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC

execute_multi_turn_func_call = multi_turn_utils.execute_multi_turn_func_call
is_empty_execute_response = multi_turn_utils.is_empty_execute_response
is_function_calling_format_output = bfcl_utils.is_function_calling_format_output
is_empty_output = bfcl_utils.is_empty_output
load_dataset_entry = bfcl_utils.load_dataset_entry
load_ground_truth_entry = bfcl_utils.load_ground_truth_entry
get_directory_structure_by_category = bfcl_utils.get_directory_structure_by_category


def forget_instances(model_name: str, test_entry_id: str, class_names: list[str]) -> None:
    """Drop the API instances bfcl-eval cached for one conversation.

    ``execute_multi_turn_func_call`` keeps each simulated API (file system,
    trading bot...) as a module global named after model and test id, so that a
    conversation keeps its state across turns. Running the same id twice in one
    process (a resumed run, a re-score) would silently start from the old state;
    we remove those globals before and after each conversation.
    """
    namespace = vars(multi_turn_utils)
    for class_name in class_names:
        instance = re.sub(r"[-./:]", "_", f"{model_name}_{test_entry_id}_{class_name}_instance")
        namespace.pop(instance, None)


__all__ = [
    "ADDITIONAL_FUNCTION_PROMPT",
    "CHECKER_MODEL",
    "JAVA_TYPE_CONVERSION",
    "JS_TYPE_CONVERSION",
    "MAXIMUM_STEP_LIMIT",
    "VERSION_PREFIX",
    "Language",
    "ReturnFormat",
    "ast_checker",
    "category_mapping",
    "convert_to_function_call",
    "default_decode_ast_prompting",
    "default_decode_execute_prompting",
    "execute_multi_turn_func_call",
    "forget_instances",
    "get_directory_structure_by_category",
    "is_empty_execute_response",
    "is_empty_output",
    "is_function_calling_format_output",
    "java_type_converter",
    "js_type_converter",
    "load_dataset_entry",
    "load_ground_truth_entry",
    "multi_turn_checker",
]
