"""Tiny Llama builders and logits helpers shared by the GGUF and LoRA-extraction tests.

Both test modules compare HF models with llama.cpp on the same prompt, and both
need a Llama (2 KV heads, so the Q/K RoPE permutation of the GGUF export is
exercised) next to the tiny Qwen3 of ``conftest.tiny_model_dir``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

PROMPT = (
    "<|im_start|>user\nWhat's the weather in Paris on 2025-03-14?<|im_end|>\n"
    "<|im_start|>assistant\n"
)


def make_tiny_llama(
    tokenizer_dir: Path, out: Path, *, tied: bool, seed: int, rope_theta: float
) -> Path:
    """A random 2-layer Llama (hidden 64, 4 heads, 2 KV heads) with ``tokenizer_dir``'s tokenizer."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=64,
        intermediate_size=96,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=512,
        tie_word_embeddings=tied,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        rope_parameters={"rope_type": "default", "rope_theta": rope_theta},
    )
    LlamaForCausalLM(config).save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def prompt_ids(model_dir: Path) -> list[int]:
    """``PROMPT`` tokenized by ``model_dir``'s tokenizer, without added special tokens."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(model_dir)(PROMPT, add_special_tokens=False)["input_ids"]


def cpp_logits(path: Path, ids: list[int], lora: Path | None = None) -> np.ndarray:
    """llama.cpp's logits for every position of ``ids`` (which must be ``PROMPT``'s tokens there too)."""
    import llama_cpp

    llm = llama_cpp.Llama(
        model_path=str(path),
        lora_path=str(lora) if lora else None,
        n_ctx=256,
        logits_all=True,
        verbose=False,
    )
    try:
        assert llm.tokenize(PROMPT.encode(), add_bos=False, special=True) == ids
        llm.eval(ids)
        return np.array(llm.scores[: len(ids)])
    finally:
        llm.close()
