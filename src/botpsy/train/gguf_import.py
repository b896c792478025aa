"""GGUF (any llama.cpp quantization) -> HF model folder, so a shipped GGUF can be trained.

The default model ships only as SmolLM2-135M-Instruct Q4_1 GGUF; the ``smol``
preset fine-tunes it by dequantizing every tensor (``gguf.quants.dequantize``)
into float32 weights of an HF ``LlamaForCausalLM`` and rebuilding its byte-level
BPE tokenizer and chat template from the GGUF metadata. The weights carry the
Q4_1 rounding, which is the model users actually run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gguf
import numpy as np

from botpsy.train.gguf_arch import (
    GGUF_TO_MODEL_TYPE,
    HParams,
    UnsupportedModelError,
    arch_for_model_type,
    gguf_name,
    hf_tensor_names,
    unpermute_qk,
)


def _field(reader: gguf.GGUFReader, key: str, default: Any = None) -> Any:
    field = reader.fields.get(key)
    return field.contents() if field is not None else default


def read_hparams(reader: gguf.GGUFReader) -> tuple[str, HParams]:
    """The HF model type and hyperparameters recorded in a GGUF file."""
    arch = _field(reader, "general.architecture")
    if arch not in GGUF_TO_MODEL_TYPE:
        raise UnsupportedModelError(
            f"GGUF architecture {arch!r} is not supported ({', '.join(GGUF_TO_MODEL_TYPE)})"
        )
    names = {t.name for t in reader.tensors}
    hidden = int(_field(reader, f"{arch}.embedding_length"))
    heads = int(_field(reader, f"{arch}.attention.head_count"))
    tokens = _field(reader, "tokenizer.ggml.tokens")
    hp = HParams(
        n_layers=int(_field(reader, f"{arch}.block_count")),
        hidden=hidden,
        intermediate=int(_field(reader, f"{arch}.feed_forward_length")),
        n_head=heads,
        n_head_kv=int(_field(reader, f"{arch}.attention.head_count_kv", heads)),
        head_dim=int(_field(reader, f"{arch}.attention.key_length", hidden // heads)),
        vocab_size=int(_field(reader, f"{arch}.vocab_size", len(tokens))),
        context=int(_field(reader, f"{arch}.context_length")),
        rope_theta=float(_field(reader, f"{arch}.rope.freq_base", 10000.0)),
        rms_eps=float(_field(reader, f"{arch}.attention.layer_norm_rms_epsilon")),
        tied="output.weight" not in names,
    )
    return GGUF_TO_MODEL_TYPE[arch], hp


def hf_config(model_type: str, hp: HParams, reader: gguf.GGUFReader) -> Any:
    """The transformers config of the model in a GGUF file."""
    from transformers import AutoConfig

    ids = {k: _field(reader, f"tokenizer.ggml.{k}_token_id") for k in ("bos", "eos", "padding")}
    return AutoConfig.for_model(
        model_type,
        vocab_size=hp.vocab_size,
        hidden_size=hp.hidden,
        intermediate_size=hp.intermediate,
        num_hidden_layers=hp.n_layers,
        num_attention_heads=hp.n_head,
        num_key_value_heads=hp.n_head_kv,
        head_dim=hp.head_dim,
        max_position_embeddings=hp.context,
        rms_norm_eps=hp.rms_eps,
        rope_parameters={"rope_type": "default", "rope_theta": hp.rope_theta},
        tie_word_embeddings=hp.tied,
        bos_token_id=ids["bos"],
        eos_token_id=ids["eos"],
        pad_token_id=ids["padding"],
        architectures=[arch_for_model_type(model_type).hf_class],
    )


def dequantized_state(
    reader: gguf.GGUFReader, model_type: str, hp: HParams
) -> dict[str, np.ndarray]:
    """HF-named float32 weights from a GGUF file, Q/K rows un-permuted for Llama."""
    info = arch_for_model_type(model_type)
    tensors = {t.name: t for t in reader.tensors}
    state = {}
    for hf_name in hf_tensor_names(info, hp.n_layers, hp.tied):
        tensor = tensors.get(gguf_name(info, hp.n_layers, hf_name))
        if tensor is None:
            raise UnsupportedModelError(f"GGUF has no tensor for {hf_name!r}")
        array = gguf.quants.dequantize(tensor.data, tensor.tensor_type).astype(np.float32)
        array = array.reshape(tuple(reversed([int(n) for n in tensor.shape])))
        if info.permute_qk and hf_name.endswith("q_proj.weight"):
            array = unpermute_qk(array, hp.n_head)
        elif info.permute_qk and hf_name.endswith("k_proj.weight"):
            array = unpermute_qk(array, hp.n_head_kv)
        state[hf_name] = array
    return state


def _pre_tokenizer(name: str) -> Any:
    from tokenizers import Regex, pre_tokenizers

    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    if name in ("gpt-2", "gpt2"):
        return byte_level
    if name == "smollm":
        return pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True), byte_level])
    if name == "qwen2":
        pattern = (
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
            r"|\s*[\r\n]+|\s+(?!\S)|\s+"
        )
        return pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    raise UnsupportedModelError(
        f"GGUF pre-tokenizer {name!r} has no HF equivalent here (gpt-2, smollm, qwen2)"
    )


def hf_tokenizer(reader: gguf.GGUFReader) -> Any:
    """A ``PreTrainedTokenizerFast`` equivalent to the GGUF's byte-level BPE tokenizer."""
    from tokenizers import AddedToken, Tokenizer, decoders, models
    from transformers import PreTrainedTokenizerFast

    if _field(reader, "tokenizer.ggml.model") != "gpt2":
        raise UnsupportedModelError(
            "only byte-level BPE (tokenizer.ggml.model = gpt2) GGUF tokenizers are supported"
        )
    tokens = list(_field(reader, "tokenizer.ggml.tokens"))
    types = list(_field(reader, "tokenizer.ggml.token_type"))
    merges = [tuple(m.split(" ", 1)) for m in _field(reader, "tokenizer.ggml.merges")]
    tokenizer = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))
    tokenizer.pre_tokenizer = _pre_tokenizer(str(_field(reader, "tokenizer.ggml.pre", "gpt-2")))
    tokenizer.decoder = decoders.ByteLevel()
    control = [t for t, kind in zip(tokens, types) if kind == gguf.TokenType.CONTROL]
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in control])

    def token(key: str) -> str | None:
        index = _field(reader, f"tokenizer.ggml.{key}_token_id")
        return tokens[index] if index is not None else None

    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        bos_token=token("bos"),
        eos_token=token("eos"),
        unk_token=token("unknown"),
        pad_token=token("padding") or token("eos"),
        chat_template=_field(reader, "tokenizer.chat_template"),
    )


def dequantize_gguf_to_hf(gguf_path: str | Path, out_dir: str | Path) -> Path:
    """Write an HF model folder (float32 safetensors, config, tokenizer) from a GGUF file."""
    import torch
    from transformers import AutoModelForCausalLM

    reader = gguf.GGUFReader(str(gguf_path))
    model_type, hp = read_hparams(reader)
    config = hf_config(model_type, hp, reader)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    state = {k: torch.from_numpy(v) for k, v in dequantized_state(reader, model_type, hp).items()}
    model.load_state_dict(state, strict=not hp.tied, assign=True)
    if hp.tied:
        model.tie_weights()
    out_dir = Path(out_dir)
    model.save_pretrained(out_dir)
    hf_tokenizer(reader).save_pretrained(out_dir)
    return out_dir
