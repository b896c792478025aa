"""Model files that ship inside the botpsy package (read by ``botpsy.backends.store``).

``botpsy-smol-lora.gguf`` is the adapter behind the ``botpsy-smol`` model spec: a
llama.cpp LoRA adapter (rank 40: A in q8_0, B in f16; 18.8 MB) applied at load time
over the shipped SmolLM2-135M-Instruct Q4_1 GGUF. It comes from adapter-aware RL
(``botpsy.train.adapter_rl``), so it carries exactly what the last two stages trained:

1. ``botpsy train recipe --preset smol --out RUN --adapter-rank 32`` fine-tunes
   SmolLM2 (dequantized from the Q4_1 GGUF into ``RUN/base``) through SFT and
   distillation, replaces the result by its rank-32 truncation over the base, and
   trains both DAPO rounds as rank-4 LoRA on that; the export writes the final rank-40
   change as ``RUN/gguf/botpsy-smollm2-135m-lora.gguf``.
2. Copy that file here as ``botpsy-smol-lora.gguf``; ``botpsy models`` then lists
   ``botpsy-smol`` as available.

Any full fine-tune can also be factored afterwards with ``botpsy train extract-lora``
(truncated SVD, ``botpsy.train.lora_extract``), as the adapters before this one were.
The run behind this file, its BFCL and scenario scores: docs/training/smol/assistant-context.
"""
