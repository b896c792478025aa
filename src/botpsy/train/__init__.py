"""The training recipe: a small model learns to call *your* tools.

Four stages, as in the BotPsy release, each one config dataclass + one ``main()``:

1. ``sft``: supervised fine-tuning on tool-use conversations (assistant tokens only);
2. ``distill``: on-policy distillation (reverse KL) from three specialist teachers,
   each prompt routed to the teacher of its domain group;
3-4. ``dapo``: two DAPO rounds (clip-higher, token-level loss, soft overlong
   punishment, dynamic sampling) with the partial-credit rewards of ``botpsy.rewards``;

then ``export`` (GGUF F16 -> Q8_0 / Q4_K_M, checked in llama.cpp). Data comes from
``data`` (synthetic, from the tool ``catalog``) or ``loaders`` (OpenAI, xLAM,
Hermes files). ``recipe`` chains everything for a ``presets`` entry and writes a
report (JSON, Markdown, PNG). CLI: ``botpsy train --help`` (``cli.app``).
"""
