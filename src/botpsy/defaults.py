"""Defaults every entry point shares, in a module that imports nothing (CLI start-up stays fast)."""

# The model the assistant runs when none is named (``botpsy ask/chat/serve``, the
# assistant evals): SmolLM2 with the recipe's shipped adapter, chosen because it beats
# plain SmolLM2 on the assistant evals (reports under docs/baselines).
ASSISTANT_MODEL = "botpsy-smol"
