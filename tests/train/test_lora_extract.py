"""Full fine-tune -> LoRA by SVD: exact at the true rank, honest below it, and applied by llama.cpp.

The "fine-tune" is made by hand: every target linear weight gets a known
rank-``TRUE_RANK`` change and one norm weight is scaled, so the test knows
exactly what an adapter can and cannot carry.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from safetensors.torch import load_file
from typer.testing import CliRunner

from botpsy.train.gguf_export import convert_hf_to_gguf, convert_lora_to_gguf
from botpsy.train.lora_extract import DEFAULT_TARGETS, LoraExtractionError, extract_lora

from .gguf_helpers import cpp_logits, make_tiny_llama, prompt_ids

TRUE_RANK = 3
NORM = "model.layers.1.post_attention_layernorm.weight"
NORM_SCALE = 1.01  # relative change 0.01, which the report must show


@pytest.fixture(scope="module")
def tied_llama_dir(tiny_model_dir, tmp_path_factory):
    """A tiny Llama with tied embeddings and 2 KV heads, shaped like SmolLM2 (RoPE permutation)."""
    out = tmp_path_factory.mktemp("tied_llama")
    return make_tiny_llama(tiny_model_dir, out, tied=True, seed=2, rope_theta=1e4)


def _load(model_dir):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()


def make_tuned(base_dir, out_dir, seed=0):
    """Base + a random rank-TRUE_RANK change on every target linear + one scaled norm."""
    from transformers import AutoTokenizer

    model = _load(base_dir)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if param.ndim == 2 and name.split(".")[-2] in DEFAULT_TARGETS:
                left = torch.randn(param.shape[0], TRUE_RANK, generator=gen) * 0.08
                right = torch.randn(TRUE_RANK, param.shape[1], generator=gen) * 0.08
                param += left @ right
        model.get_parameter(NORM).mul_(NORM_SCALE)
    model.save_pretrained(out_dir)
    AutoTokenizer.from_pretrained(base_dir).save_pretrained(out_dir)
    return out_dir


@pytest.fixture(scope="module", params=["qwen3", "llama"])
def pair(request, tiny_model_dir, tied_llama_dir, tmp_path_factory):
    """(base, tuned) folders for a Qwen3 and a tied Llama."""
    base = tiny_model_dir if request.param == "qwen3" else tied_llama_dir
    return base, make_tuned(base, tmp_path_factory.mktemp(f"tuned_{request.param}"))


def _deltas(base_dir, tuned_dir):
    base, tuned = _load(base_dir).state_dict(), _load(tuned_dir).state_dict()
    return {k: (tuned[k] - base[k]).double() for k in base}


def _logits(model, ids):
    with torch.no_grad():
        return model(torch.tensor([ids])).logits[0]


def test_true_rank_recovers_the_delta_exactly(pair, tmp_path):
    base, tuned = pair
    result = extract_lora(base, tuned, tmp_path, rank=TRUE_RANK + 1)
    deltas = _deltas(base, tuned)
    factors = load_file(tmp_path / "adapter_model.safetensors")
    assert len(result.modules) == 7 * 2 and len(factors) == 2 * len(result.modules)
    for module in result.modules:
        key = f"base_model.model.{module.name.removesuffix('.weight')}"
        lora_a, lora_b = factors[f"{key}.lora_A.weight"], factors[f"{key}.lora_B.weight"]
        assert lora_a.shape == (TRUE_RANK + 1, module.shape[1])
        assert lora_b.shape == (module.shape[0], TRUE_RANK + 1)
        error = (lora_b.double() @ lora_a.double() - deltas[module.name]).abs().max()
        assert error < 1e-5, module.name
        assert module.captured == pytest.approx(1.0, abs=1e-6)
    assert result.energy == pytest.approx(1.0, abs=1e-6)
    config = json.loads((tmp_path / "adapter_config.json").read_text())
    assert config["r"] == config["lora_alpha"] == TRUE_RANK + 1
    assert set(config["target_modules"]) == set(DEFAULT_TARGETS)
    assert config["base_model_name_or_path"] == str(base)


def test_report_names_what_the_adapter_cannot_carry(pair, tmp_path):
    base, tuned = pair
    result = extract_lora(base, tuned, tmp_path, rank=TRUE_RANK)
    first, *rest = result.not_carried
    assert first.name == NORM and first.relative_change == pytest.approx(NORM_SCALE - 1, rel=1e-3)
    assert all(c.relative_change == 0 for c in rest)
    names = {c.name for c in result.not_carried}
    assert "model.embed_tokens.weight" in names and "model.norm.weight" in names
    assert not names & {m.name for m in result.modules}
    saved = json.loads((tmp_path / "extraction.json").read_text())
    assert saved["not_carried"][0]["name"] == NORM


def test_peft_merge_reproduces_the_tuned_model_up_to_the_reported_loss(pair, tmp_path):
    """PEFT loads the adapter; merged logits equal the tuned model's once the reported
    uncarried weights are put back to base, and differ from them only by that."""
    from peft import PeftModel

    base, tuned = pair
    result = extract_lora(base, tuned, tmp_path, rank=TRUE_RANK)
    merged = PeftModel.from_pretrained(_load(base), tmp_path).merge_and_unload()
    tuned_model, base_state = _load(tuned), _load(base).state_dict()
    ids = prompt_ids(base)
    full = _logits(tuned_model, ids)
    with torch.no_grad():
        for change in result.not_carried:
            tuned_model.get_parameter(change.name).copy_(base_state[change.name])
    carried = _logits(tuned_model, ids)
    got = _logits(merged, ids)
    assert (got - carried).abs().max() < 1e-4
    assert (got - full).abs().max() > 1e-4  # the norm change is real and not in the adapter
    assert (got - _logits(_load(base), ids)).abs().max() > 100 * (got - carried).abs().max()


def test_smaller_rank_keeps_less_and_says_how_much(pair, tmp_path):
    base, tuned = pair
    result = extract_lora(base, tuned, tmp_path, rank=1)
    deltas = _deltas(base, tuned)
    assert 0.3 < result.energy < 0.99
    factors = load_file(tmp_path / "adapter_model.safetensors")
    for module in result.modules:
        singular = np.linalg.svd(deltas[module.name].numpy(), compute_uv=False)
        expected = singular[0] / np.sqrt((singular**2).sum())
        assert module.captured == pytest.approx(expected, rel=1e-6)
        key = f"base_model.model.{module.name.removesuffix('.weight')}"
        approx = factors[f"{key}.lora_B.weight"].double() @ factors[f"{key}.lora_A.weight"].double()
        residual = (deltas[module.name] - approx).norm() / deltas[module.name].norm()
        assert float(residual) == pytest.approx(np.sqrt(1 - expected**2), rel=1e-4)
    lines = "\n".join(result.summary_lines())
    assert f"captured energy {result.energy:.4f}" in lines and NORM in lines


def test_mismatched_or_bad_inputs_fail_clearly(tiny_model_dir, tied_llama_dir, tmp_path):
    with pytest.raises(LoraExtractionError, match="config differs in model_type"):
        extract_lora(tiny_model_dir, tied_llama_dir, tmp_path / "a")
    with pytest.raises(LoraExtractionError, match="no config.json"):
        extract_lora(tiny_model_dir, tmp_path, tmp_path / "b")
    with pytest.raises(LoraExtractionError, match=r"\['qkv_proj'\] match no linear weight"):
        extract_lora(tiny_model_dir, tiny_model_dir, tmp_path / "c", target_modules=["qkv_proj"])
    with pytest.raises(LoraExtractionError, match="embeddings are not linear"):
        extract_lora(
            tiny_model_dir, tiny_model_dir, tmp_path / "e", target_modules=["embed_tokens"]
        )
    with pytest.raises(LoraExtractionError, match="ranks must be at least 1"):
        extract_lora(tiny_model_dir, tiny_model_dir, tmp_path / "d", rank=0)
    with pytest.raises(LoraExtractionError, match=r"not targets: \['gate'\]"):
        extract_lora(tiny_model_dir, tiny_model_dir, tmp_path / "f", rank_pattern={"gate": 2})


def test_different_weights_fail_clearly(tiny_model_dir, tmp_path):
    """Same config, but a tensor is missing from the tuned folder."""
    import shutil

    from safetensors.torch import save_file

    tuned = tmp_path / "tuned"
    shutil.copytree(tiny_model_dir, tuned)
    (weights,) = tuned.glob("*.safetensors")
    state = load_file(weights)
    del state["model.norm.weight"]
    save_file(state, weights, metadata={"format": "pt"})
    with pytest.raises(LoraExtractionError, match="missing in tuned: \\['model.norm.weight'\\]"):
        extract_lora(tiny_model_dir, tuned, tmp_path / "out")


def test_gguf_adapter_moves_llama_cpp_to_the_tuned_model(pair, tmp_path):
    """The f16 GGUF adapter over the base GGUF lands next to the tuned GGUF in llama.cpp."""
    pytest.importorskip("llama_cpp")
    base, tuned = pair
    extract_lora(base, tuned, tmp_path / "peft", rank=TRUE_RANK)
    f16 = convert_lora_to_gguf(tmp_path / "peft", base, tmp_path / "lora16.gguf")
    f32 = convert_lora_to_gguf(tmp_path / "peft", base, tmp_path / "lora32.gguf", dtype="f32")
    assert f16.stat().st_size < 0.75 * f32.stat().st_size
    ids = prompt_ids(base)
    base_gguf = convert_hf_to_gguf(base, tmp_path / "base.gguf")
    target = cpp_logits(convert_hf_to_gguf(tuned, tmp_path / "tuned.gguf"), ids)
    plain = cpp_logits(base_gguf, ids)
    adapted = cpp_logits(base_gguf, ids, lora=f16)
    assert np.abs(plain - target).max() > 0.05  # the fine-tune matters...
    assert np.abs(adapted - target).max() < 0.1 * np.abs(plain - target).max()  # ...and is carried
    assert (adapted.argmax(-1) == target.argmax(-1)).mean() >= (
        plain.argmax(-1) == target.argmax(-1)
    ).mean()


def test_rank_pattern_gives_module_types_their_own_rank(pair, tmp_path):
    """K and V at the true rank, the rest at 1: PEFT and llama.cpp both apply each at scale 1."""
    from peft import PeftModel

    base, tuned = pair
    pattern = {"k_proj": TRUE_RANK, "v_proj": TRUE_RANK}
    result = extract_lora(base, tuned, tmp_path / "peft", rank=1, rank_pattern=pattern)
    for module in result.modules:
        exact = module.name.split(".")[-2] in pattern
        assert (module.captured == pytest.approx(1.0, abs=1e-6)) == exact, module.name
    assert "rank 1, k_proj 3, v_proj 3" in result.summary_lines()[0]
    ids = prompt_ids(base)
    merged = _logits(
        PeftModel.from_pretrained(_load(base), tmp_path / "peft").merge_and_unload(), ids
    )
    base_gguf = convert_hf_to_gguf(base, tmp_path / "base.gguf")
    adapter = convert_lora_to_gguf(tmp_path / "peft", base, tmp_path / "lora.gguf", dtype="f32")
    adapted = cpp_logits(base_gguf, ids, lora=adapter)
    plain = cpp_logits(base_gguf, ids)
    assert np.abs(merged.numpy() - plain).max() > 0.05
    assert np.abs(merged.numpy() - adapted).max() < 1e-2


def test_q8_0_adapter_is_smaller_and_still_applies_the_change(pair, tmp_path):
    """Rows that divide into 32-value blocks are Q8_0, the rest stay f16 (rank 3 rows)."""
    import gguf

    base, tuned = pair
    extract_lora(base, tuned, tmp_path / "peft", rank=TRUE_RANK)
    f16 = convert_lora_to_gguf(tmp_path / "peft", base, tmp_path / "f16.gguf")
    q8 = convert_lora_to_gguf(tmp_path / "peft", base, tmp_path / "q8.gguf", dtype="q8_0")
    kinds = {t.name: t.tensor_type.name for t in gguf.GGUFReader(q8).tensors}
    assert {k for n, k in kinds.items() if n.endswith("lora_a")} == {"Q8_0"}
    assert {k for n, k in kinds.items() if n.endswith("lora_b")} == {"F16"}

    def data_bytes(path):
        return sum(int(t.n_bytes) for t in gguf.GGUFReader(path).tensors)

    assert data_bytes(q8) < 0.8 * data_bytes(f16)
    ids = prompt_ids(base)
    base_gguf = convert_hf_to_gguf(base, tmp_path / "base.gguf")
    by_f16 = cpp_logits(base_gguf, ids, lora=f16)
    by_q8 = cpp_logits(base_gguf, ids, lora=q8)
    change = np.abs(by_f16 - cpp_logits(base_gguf, ids)).max()
    assert np.abs(by_q8 - by_f16).max() < 0.05 * change


def test_lora_dtype_is_checked(pair, tmp_path):
    base, tuned = pair
    extract_lora(base, tuned, tmp_path, rank=1)
    with pytest.raises(ValueError, match="adapter dtype"):
        convert_lora_to_gguf(tmp_path, base, tmp_path / "x.gguf", dtype="q4")


def test_extract_lora_command(pair, tmp_path):
    from botpsy.train.cli import app

    base, tuned = pair
    out = tmp_path / "lora"
    result = CliRunner().invoke(
        app,
        [
            "extract-lora",
            "--base",
            str(base),
            "--tuned",
            str(tuned),
            "--rank",
            "2",
            "--rank-pattern",
            "k_proj=1, v_proj=1",
            "--dtype",
            "q8_0",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "rank 2, k_proj 1, v_proj 1: captured energy" in result.output
    assert NORM in result.output and "q8_0" in result.output
    assert (out / "adapter.gguf").read_bytes()[:4] == b"GGUF"
    assert f"GGUF adapter: {out / 'adapter.gguf'}" in result.output
    bad = CliRunner().invoke(
        app, ["extract-lora", "--base", str(base), "--tuned", str(tmp_path), "--out", str(out)]
    )
    flat = "".join(bad.output.replace("│", "").split())  # typer wraps errors in a box
    assert bad.exit_code == 2 and "noconfig.json" in flat
    args = ["extract-lora", "--base", str(base), "--tuned", str(tuned), "--out", str(out)]
    bad = CliRunner().invoke(app, [*args, "--rank-pattern", "k_proj:4"])
    assert bad.exit_code == 2 and "MODULE=RANK" in "".join(bad.output.replace("│", "").split())
