"""Defaults every entry point shares, in a module that imports nothing (CLI start-up stays fast)."""

# The model the assistant runs when none is named (``botpsy ask/chat/serve``, the
# assistant evals): SmolLM2 with the recipe's shipped adapter, which beats plain SmolLM2
# on the 74 scenarios, both in single_call mode: 8 solved against 2, 12.8% against 3.4%
# milestone credit, one minefield hit each (docs/assistant/default-model).
ASSISTANT_MODEL = "botpsy-smol"
