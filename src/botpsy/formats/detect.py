"""Which chat format a model speaks, from its chat template, architecture or name.

Evidence is weighed from the most to the least specific: the GGUF/HF
architecture (``qwen35``), then the tool-call syntax its chat template teaches
(``<function=`` XML, ``<tool_call>`` JSON, a ``[func(arg=...)]`` pythonic
instruction), then the model name, then the generic ChatML markers. Anything
unrecognised gets ``hermes``, the most widely trained ChatML tool format.
"""

from __future__ import annotations

import re

DEFAULT_FORMAT = "hermes"
_QWEN35_ARCHITECTURES = {"qwen35", "qwen35moe", "qwen3_5", "qwen3_5_text", "qwen3_5_moe"}
# Llama 3.2-style instructions: "[func_name1(params_name1=params_value1, ...)]"
_PYTHONIC_TEMPLATE = re.compile(r"\[\s*func(?:tion)?_?name\w*\s*\(\s*\w+\s*=|\[\s*\w+\(\s*\w+\s*=")
_QWEN35_NAME = re.compile(r"qwen[-_ ]?3[._]5", re.IGNORECASE)


def _from_template(template: str) -> str | None:
    if "<function=" in template:
        return "qwen35"
    if "<tool_call>" in template:
        return "hermes"
    if _PYTHONIC_TEMPLATE.search(template):
        return "pythonic"
    return None


def detect_format(
    chat_template: str | None,
    architecture: str | None = None,
    model_name: str | None = None,
) -> str:
    """The name of the format (see ``FORMATS``) that fits the model's metadata."""
    if architecture and architecture.lower() in _QWEN35_ARCHITECTURES:
        return "qwen35"
    found = _from_template(chat_template) if chat_template else None
    if found:
        return found
    if model_name and _QWEN35_NAME.search(model_name):
        return "qwen35"
    return DEFAULT_FORMAT
