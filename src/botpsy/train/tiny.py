"""Tiny random models with real byte-level BPE tokenizers, built in code.

No model hub is reachable here, so the ``tiny`` preset and the trainer tests
make their own model: a tokenizer trained (``tokenizers``' BPE trainer) on the
rendered synthetic conversations, so chat markup and tool names become short
token runs, and a 2-layer Qwen3 with hidden size 32 around it. It is saved as an
ordinary HF folder, so every stage, ``accelerate launch`` and the GGUF export
treat it exactly like a real model.

``make_tiny_qwen35`` builds the release's own architecture at toy size: a
``Qwen3_5ForCausalLM`` whose layers mix Gated DeltaNet linear attention with full
attention, as Qwen3.5-0.8B's do, around SmolLM2's tokenizer (read from the shipped
GGUF), which llama.cpp's converter recognises, so it goes through every stage of the
``qwen3.5-0.8b`` preset, the GGUF export and the llama.cpp backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from botpsy.backends.model_files import default_model_path
from botpsy.formats import ChatFormat
from botpsy.train.sample import TrainSample

END_OF_TEXT, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"
CHATML_TEMPLATE = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
    "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


@dataclass(frozen=True)
class TinySpec:
    """Shape of the tiny model; the defaults train the whole recipe in about a minute on 2 cores."""

    vocab_size: int = 1024
    hidden_size: int = 32
    intermediate_size: int = 64
    num_layers: int = 2
    num_heads: int = 2
    num_kv_heads: int = 1
    head_dim: int = 16
    max_positions: int = 4096
    seed: int = 0


def training_texts(fmt: ChatFormat, samples: Iterable[TrainSample]) -> Iterable[str]:
    """Full rendered conversations: what the tokenizer must encode compactly."""
    for sample in samples:
        yield fmt.render(sample.messages, sample.tools, add_generation_prompt=False)


def build_tokenizer(texts: Iterable[str], vocab_size: int = 1024) -> Any:
    """A byte-level BPE tokenizer (GPT-2 pre-tokenizer, so llama.cpp reads it as ``gpt-2``)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[END_OF_TEXT, IM_START, IM_END],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(texts, trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token=IM_END,
        pad_token=END_OF_TEXT,
        chat_template=CHATML_TEMPLATE,
    )


def build_model(tokenizer: Any, spec: TinySpec = TinySpec()) -> Any:
    """A randomly initialised Qwen3 causal LM sized by ``spec``, matched to ``tokenizer``."""
    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(spec.seed)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=spec.hidden_size,
        intermediate_size=spec.intermediate_size,
        num_hidden_layers=spec.num_layers,
        num_attention_heads=spec.num_heads,
        num_key_value_heads=spec.num_kv_heads,
        head_dim=spec.head_dim,
        max_position_embeddings=spec.max_positions,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    return model


def make_tiny_model(
    out_dir: str | Path, fmt: ChatFormat, samples: list[TrainSample], spec: TinySpec = TinySpec()
) -> Path:
    """Train a tokenizer on ``samples`` rendered with ``fmt``, build the model, save both."""
    out_dir = Path(out_dir)
    tokenizer = build_tokenizer(training_texts(fmt, samples), spec.vocab_size)
    model = build_model(tokenizer, spec)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir


@dataclass(frozen=True)
class TinyQwen35Spec:
    """Shape of the tiny Qwen3.5: Qwen3.5-0.8B's layer pattern (three linear-attention layers,
    then one full-attention layer) at hidden size 64."""

    hidden_size: int = 64
    intermediate_size: int = 128
    layer_types: tuple[str, ...] = ("linear_attention",) * 3 + ("full_attention",)
    num_heads: int = 4
    num_kv_heads: int = 2
    head_dim: int = 16
    linear_key_heads: int = 2
    linear_value_heads: int = 4
    linear_head_dim: int = 16
    max_positions: int = 4096
    seed: int = 0


def smollm2_tokenizer() -> Any:
    """SmolLM2's tokenizer, rebuilt from the shipped GGUF (no hub download)."""
    import gguf

    from botpsy.train.gguf_import import hf_tokenizer  # lazy: gguf

    return hf_tokenizer(gguf.GGUFReader(str(default_model_path())))


def build_qwen35_model(tokenizer: Any, spec: TinyQwen35Spec = TinyQwen35Spec()) -> Any:
    """A randomly initialised ``Qwen3_5ForCausalLM`` sized by ``spec``.

    Qwen3.5 rotates a quarter of each head with interleaved multimodal RoPE; its sections
    must add up to the rotated pairs (llama.cpp checks), so they are sized to ``head_dim``.
    """
    import torch
    from transformers import GenerationConfig, Qwen3_5ForCausalLM, Qwen3_5TextConfig

    pairs = spec.head_dim // 4 // 2  # partial_rotary_factor 0.25
    sections = [pairs - pairs // 2, pairs // 2, 0]
    torch.manual_seed(spec.seed)
    config = Qwen3_5TextConfig(
        vocab_size=len(tokenizer),
        hidden_size=spec.hidden_size,
        intermediate_size=spec.intermediate_size,
        num_hidden_layers=len(spec.layer_types),
        layer_types=list(spec.layer_types),
        num_attention_heads=spec.num_heads,
        num_key_value_heads=spec.num_kv_heads,
        head_dim=spec.head_dim,
        linear_num_key_heads=spec.linear_key_heads,
        linear_num_value_heads=spec.linear_value_heads,
        linear_key_head_dim=spec.linear_head_dim,
        linear_value_head_dim=spec.linear_head_dim,
        max_position_embeddings=spec.max_positions,
        rope_parameters={
            "rope_type": "default",
            "rope_theta": 10_000_000.0,
            "partial_rotary_factor": 0.25,
            "mrope_section": sections,
            "mrope_interleaved": True,
        },
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        bos_token_id=None,
    )
    model = Qwen3_5ForCausalLM(config)
    model.generation_config = GenerationConfig(
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, bos_token_id=None
    )
    return model


def make_tiny_qwen35(
    out_dir: str | Path, spec: TinyQwen35Spec = TinyQwen35Spec(), tokenizer: Any = None
) -> Path:
    """Build the tiny Qwen3.5 around ``tokenizer`` (SmolLM2's by default) and save both."""
    out_dir = Path(out_dir)
    tokenizer = tokenizer or smollm2_tokenizer()
    build_qwen35_model(tokenizer, spec).save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    return out_dir
