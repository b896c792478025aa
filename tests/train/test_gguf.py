"""GGUF export (llama.cpp's converters) and import, checked against llama.cpp's forward pass."""

from __future__ import annotations

import numpy as np
import pytest

from botpsy.train.export import check_gguf, quantize
from botpsy.train.gguf_export import convert_hf_to_gguf, convert_lora_to_gguf
from botpsy.train.gguf_import import dequantize_gguf_to_hf
from botpsy.train.llama_converters import UnsupportedModelError

from .gguf_helpers import PROMPT, cpp_logits, make_tiny_llama, prompt_ids

pytest.importorskip("llama_cpp")


@pytest.fixture(scope="module")
def tiny_llama_dir(tiny_model_dir, tmp_path_factory):
    """A tiny Llama (untied head, 2 KV heads): exercises the Q/K RoPE permutation."""
    out = tmp_path_factory.mktemp("llama")
    return make_tiny_llama(tiny_model_dir, out, tied=False, seed=1, rope_theta=5e5)


@pytest.fixture(params=["qwen3", "llama", "qwen3.5"])
def hf_dir(request, tiny_model_dir, tiny_llama_dir):
    if request.param == "qwen3.5":  # hybrid linear/full attention, SmolLM2's tokenizer
        return request.getfixturevalue("tiny_qwen35_dir")
    return tiny_model_dir if request.param == "qwen3" else tiny_llama_dir


def _hf_logits(model, ids):
    import torch

    with torch.no_grad():
        return model(torch.tensor([ids])).logits[0].numpy()


def test_f16_gguf_matches_the_hf_model(hf_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    path = convert_hf_to_gguf(hf_dir, tmp_path / "m.gguf")
    ids = prompt_ids(hf_dir)
    hf, cpp = _hf_logits(AutoModelForCausalLM.from_pretrained(hf_dir), ids), cpp_logits(path, ids)
    assert (hf.argmax(-1) == cpp.argmax(-1)).all()
    assert np.abs(hf - cpp).max() < 1e-2


def test_lora_adapter_in_llama_cpp_matches_the_merged_model(hf_dir, tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    base = AutoModelForCausalLM.from_pretrained(hf_dir)
    peft_model = get_peft_model(
        base,
        LoraConfig(
            r=4,
            lora_alpha=8,
            init_lora_weights=False,
            target_modules=["q_proj", "k_proj", "v_proj", "down_proj"],
        ),
    )
    peft_model.save_pretrained(tmp_path / "adapter")
    merged = _hf_logits(peft_model.merge_and_unload(), prompt_ids(hf_dir))
    base_gguf = convert_hf_to_gguf(hf_dir, tmp_path / "base.gguf")
    adapter = convert_lora_to_gguf(tmp_path / "adapter", hf_dir, tmp_path / "lora.gguf")
    plain = cpp_logits(base_gguf, prompt_ids(hf_dir))
    with_lora = cpp_logits(base_gguf, prompt_ids(hf_dir), lora=adapter)
    assert np.abs(merged - plain).max() > 0.05  # the adapter matters...
    assert np.abs(merged - with_lora).max() < 1e-2  # ...and llama.cpp applies it like PEFT


def test_quantized_files_load_and_generate(tiny_model_dir, tmp_path):
    f16 = convert_hf_to_gguf(tiny_model_dir, tmp_path / "f16.gguf")
    for quant in ("Q8_0", "Q4_K_M"):
        check = check_gguf(quantize(f16, tmp_path / f"{quant}.gguf", quant), PROMPT)
        assert check.n_vocab > 0 and check.size_bytes > 0


def test_gguf_back_to_hf_round_trip(tiny_llama_dir, tmp_path):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf_path = convert_hf_to_gguf(tiny_llama_dir, tmp_path / "m.gguf")
    back = dequantize_gguf_to_hf(gguf_path, tmp_path / "hf")
    original = AutoModelForCausalLM.from_pretrained(tiny_llama_dir).state_dict()
    restored = AutoModelForCausalLM.from_pretrained(back).state_dict()
    assert original.keys() == restored.keys()
    for name, weight in original.items():
        assert torch.allclose(weight, restored[name], atol=2e-3), name  # F16 rounding only
    text = "Numbers 12345 and  spaces\ttabs, émoji 🙂 <|im_end|>"
    assert (
        AutoTokenizer.from_pretrained(back)(text)["input_ids"]
        == AutoTokenizer.from_pretrained(tiny_llama_dir)(text)["input_ids"]
    )


def test_unsupported_architecture_is_a_clear_error(tmp_path):
    """An architecture llama.cpp's converter does not register: an error naming those it does,
    and on the command line a usage error, not a traceback."""
    from typer.testing import CliRunner

    from botpsy.train.cli import app

    (tmp_path / "config.json").write_text(
        '{"architectures": ["NoSuchForCausalLM"], "model_type": "nosuch"}'
    )
    with pytest.raises(UnsupportedModelError, match="NoSuchForCausalLM.*Qwen3_5ForCausalLM"):
        convert_hf_to_gguf(tmp_path, tmp_path / "x.gguf")
    done = CliRunner().invoke(app, ["export", "--model", str(tmp_path), "--out", str(tmp_path)])
    assert done.exit_code == 2
    assert "LlamaForCausalLM" in done.output and "Traceback" not in done.output


def test_qwen35_gguf_is_llama_cpps_hybrid_architecture(tiny_qwen35_dir, tmp_path):
    import gguf

    path = convert_hf_to_gguf(tiny_qwen35_dir, tmp_path / "q.gguf", name="tiny")
    reader = gguf.GGUFReader(str(path))
    assert reader.fields["general.architecture"].contents() == "qwen35"
    assert reader.fields["tokenizer.ggml.pre"].contents() == "smollm"  # recognised, no fallback
    recurrent = reader.fields["qwen35.attention.recurrent_layers"].contents()
    assert recurrent == [True, True, True, False]


@pytest.mark.model
def test_shipped_smollm2_dequantizes_to_an_equivalent_hf_model(default_gguf, tmp_path):
    from transformers import AutoModelForCausalLM

    out = dequantize_gguf_to_hf(default_gguf, tmp_path / "smol")
    ids = prompt_ids(out)
    hf = _hf_logits(AutoModelForCausalLM.from_pretrained(out), ids)
    cpp = cpp_logits(default_gguf, ids)
    assert (
        hf.argmax(-1) == cpp.argmax(-1)
    ).mean() > 0.9  # llama.cpp runs Q4_1 kernels, HF the dequantized floats
    assert np.corrcoef(hf.ravel(), cpp.ravel())[0, 1] > 0.99
