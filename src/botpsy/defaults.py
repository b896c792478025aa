"""Defaults every entry point shares, in a module that imports nothing (CLI start-up stays fast)."""

# The model the assistant runs when none is named (``botpsy ask/chat/serve``, the
# assistant evals): plain SmolLM2 until a trained adapter beats it on the scenarios.
ASSISTANT_MODEL = "smollm2"
