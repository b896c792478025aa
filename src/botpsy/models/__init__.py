"""Model files that ship inside the botpsy package (read by ``botpsy.backends.model_files``).

``botpsy-smol-lora.gguf`` is the adapter behind the ``botpsy-smol`` model spec: a
llama.cpp LoRA adapter (rank 64, K and V projections 32; every tensor q8_0; 19.2 MB)
applied at load time over SmolLM2-135M-Instruct: trained over the shipped Q4_1 GGUF, run
over its Q8_0 requantization (``botpsy.backends.model_files``: llama.cpp repacks Q8_0's CPU kernels). It comes from
adapter-aware RL (``botpsy.train.adapter_rl``), so it carries exactly what the last two
stages trained:

1. ``botpsy train recipe --preset smol --out RUN --adapter-rank 56 --adapter-rank-pattern
   k_proj=24,v_proj=24 --adapter-balance-rank 8`` fine-tunes SmolLM2 (dequantized from the
   Q4_1 GGUF into ``RUN/base``) through SFT, distillation and the balance phase, replaces
   the result by a rank-56 truncation over the base (48 ranks, K/V 16, for distillation's
   change and 8 for the balance phase's own), and trains both DAPO rounds as rank-4 LoRA on
   that; the export writes the final rank-64 change as
   ``RUN/gguf/botpsy-smollm2-135m-lora.gguf``.
2. Copy that file here as ``botpsy-smol-lora.gguf``; ``botpsy models`` then lists
   ``botpsy-smol`` as available.

Any full fine-tune can also be factored afterwards with ``botpsy train extract-lora``
(truncated SVD, ``botpsy.train.lora_extract``), as the earliest adapters were.
The run behind this file and its scores: docs/training/smol/recipe_report.md.
"""
