"""Format registry and detection from (hand-written, shortened) chat template snippets."""

from __future__ import annotations

import pytest

from botpsy.formats import FORMATS, ChatFormat, ConstrainedChatFormat, detect_format, get_format

XML_TEMPLATE = """{%- if tools %}{{- '<|im_start|>system\\n# Tools\\n<tools>' }}
{%- for tool in tools %}{{- '\\n' + tool | tojson }}{%- endfor %}
{{- '\\n</tools>\\nCall a tool like this:\\n<tool_call>\\n<function=example>\\n<parameter=x>\\n1\\n</parameter>\\n</function>\\n</tool_call><|im_end|>\\n' }}
{%- endif %}"""
JSON_TOOL_CALL_TEMPLATE = """{%- if tools %}{{- '<|im_start|>system\\nTools:\\n<tools>' }}{%- for t in tools %}{{ t | tojson }}{%- endfor %}
{{- '</tools>\\nReply with <tool_call>\\n{"name": <name>, "arguments": <args>}\\n</tool_call><|im_end|>\\n' }}{%- endif %}
{%- for m in messages %}{%- if m.role == 'tool' %}{{- '<|im_start|>user\\n<tool_response>\\n' + m.content + '\\n</tool_response><|im_end|>\\n' }}{%- endif %}{%- endfor %}"""
PLAIN_CHATML_TEMPLATE = """{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"""
PYTHONIC_TEMPLATE = """{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' }}{%- if tools %}
{{- 'To use tools, reply only with calls written as [tool_a(arg1=value1, arg2=value2), tool_b(arg=value)]\\n' }}
{%- for t in tools %}{{ t | tojson(indent=2) }}{%- endfor %}{%- endif %}{{- '<|eot_id|>' }}"""
LLAMA_JSON_TEMPLATE = """{{- '<|start_header_id|>user<|end_header_id|>\\n\\n' }}{%- if tools %}
{{- 'Answer with a JSON object {"name": function name, "parameters": dictionary of arguments}.' }}{%- endif %}"""


@pytest.mark.parametrize(
    ("template", "architecture", "model_name", "expected"),
    [
        (XML_TEMPLATE, None, None, "qwen35"),
        (JSON_TOOL_CALL_TEMPLATE, "qwen2", None, "hermes"),
        (PLAIN_CHATML_TEMPLATE, "llama", "SmolLM2-135M-Instruct", "hermes"),
        (PYTHONIC_TEMPLATE, "llama", "Llama-3.2-1B-Instruct", "pythonic"),
        (LLAMA_JSON_TEMPLATE, "llama", None, "hermes"),
        (None, "qwen35", None, "qwen35"),
        (JSON_TOOL_CALL_TEMPLATE, "qwen35", None, "qwen35"),  # the architecture is the surer sign
        (None, "qwen3_5_text", None, "qwen35"),  # transformers' model_type
        (None, None, "Qwen3.5-0.8B-Instruct", "qwen35"),
        (PLAIN_CHATML_TEMPLATE, None, "qwen3.5-2b-q4_k_m", "qwen35"),
        (None, None, None, "hermes"),
        ("", "qwen3", "Qwen3-0.6B", "hermes"),
    ],
)
def test_detect_format(template, architecture, model_name, expected):
    assert detect_format(template, architecture, model_name) == expected


def test_unknown_format_lists_the_known_ones():
    with pytest.raises(ValueError, match="hermes, pythonic, qwen35"):
        get_format("chatgpt")


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_registry_gives_formats_that_follow_the_protocols(name):
    fmt = get_format(name)
    assert fmt.name == name
    assert isinstance(fmt, ChatFormat) and isinstance(fmt, ConstrainedChatFormat)
    assert detect_format(None) in FORMATS
