"""Model files that ship inside the botpsy package (read by ``botpsy.backends.store``).

``botpsy-smol-lora.gguf`` is the adapter behind the ``botpsy-smol`` model spec: a
llama.cpp LoRA adapter (float16, rank 32, under 20 MB) applied at load time over
the shipped SmolLM2-135M-Instruct Q4_1 GGUF. It is made from a full fine-tune,
not trained as a LoRA:

1. ``botpsy train recipe --preset smol --out RUN`` fine-tunes SmolLM2 (dequantized
   from the Q4_1 GGUF into ``RUN/base``) through SFT, distillation and two DAPO
   rounds; the final model is ``RUN/dapo2/model``.
2. ``botpsy train extract-lora --base RUN/base --tuned RUN/dapo2/model --rank 32
   --out RUN/lora --gguf RUN/lora/botpsy-smol-lora.gguf`` factors each linear
   weight's change by truncated SVD (``botpsy.train.lora_extract``), prints how
   much of the change the rank keeps and what the adapter cannot carry
   (embeddings, norms), and writes the GGUF adapter.
3. Copy ``RUN/lora/botpsy-smol-lora.gguf`` here; ``botpsy models`` then lists
   ``botpsy-smol`` as available.
"""
