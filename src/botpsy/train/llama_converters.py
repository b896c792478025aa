"""llama.cpp's own converters (HF model -> GGUF, PEFT LoRA -> GGUF adapter), fetched and run.

``convert_hf_to_gguf.py``, ``convert_lora_to_gguf.py``, their ``conversion/`` package and
``gguf-py`` ship in the llama-cpp-python sdist under ``vendor/llama.cpp/``. ``fetch`` takes
that sdist from the package registry (the version installed, so the converters match the
llama.cpp that loads their files) and unpacks only those into
``<venv>/share/botpsy/llama-cpp-converters/<version>`` (``BOTPSY_LLAMA_CONVERTERS``
overrides); ``./setup.sh`` runs it. No converter code lives in this repository.

botpsy runs them as subprocesses through ``llama_convert_driver.py``, which adds one
fallback: a tokenizer llama.cpp has no fingerprint for (every tokenizer trained in code,
as the tiny preset's is) gets the pre-tokenizer botpsy reads from its ``tokenizer.json``
(``pre_tokenizer_name``) instead of the converter's refusal.

Run: ``python -m botpsy.train.llama_converters fetch`` (prints where they are).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGE = "llama-cpp-python"
ENV_DIR = "BOTPSY_LLAMA_CONVERTERS"
# What the converters need from the sdist's vendor/llama.cpp/.
NEEDED = ("convert_hf_to_gguf.py", "convert_lora_to_gguf.py", "conversion/", "gguf-py/")
DRIVER = Path(__file__).with_name("llama_convert_driver.py")
# Split regexes of known pre-tokenizers, told apart by a distinctive piece.
_SPLIT_PRETOKENIZERS = ((r"\p{N}{1,3}", "llama-bpe"), (r"\p{L}+|\p{N}|", "qwen2"))


class UnsupportedModelError(ValueError):
    """A model or adapter llama.cpp's converters cannot write (architecture, tokenizer, kind)."""


class ConverterError(RuntimeError):
    """The converters are missing, or one of them failed on a supported model."""


@dataclass(frozen=True)
class Converters:
    """Where the unpacked converters are."""

    root: Path  # vendor/llama.cpp/ of the sdist, trimmed to NEEDED

    @property
    def hf_script(self) -> Path:
        return self.root / "convert_hf_to_gguf.py"

    @property
    def lora_script(self) -> Path:
        return self.root / "convert_lora_to_gguf.py"

    def architectures(self) -> list[str]:
        """The HF architectures (``config.json``'s ``architectures``) the converter registers,
        read from ``conversion/__init__.py``'s ``TEXT_MODEL_MAP`` without importing it."""
        tree = ast.parse((self.root / "conversion" / "__init__.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "TEXT_MODEL_MAP":
                return sorted(ast.literal_eval(node.value))
        raise ConverterError(f"{self.root}: no TEXT_MODEL_MAP in conversion/__init__.py")


def installed_version() -> str:
    return metadata.version(PACKAGE)


def default_dir(version: str | None = None) -> Path:
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override)
    return Path(sys.prefix) / "share" / "botpsy" / "llama-cpp-converters" / (
        version or installed_version()
    )


def find() -> Converters:
    """The unpacked converters, or a clear error saying how to get them."""
    root = default_dir()
    if not all((root / name).exists() for name in NEEDED):
        raise ConverterError(
            f"llama.cpp's converters are not at {root}: run ./setup.sh or "
            f"`python -m botpsy.train.llama_converters fetch` (needs the package registry)"
        )
    return Converters(root)


def _members(archive: tarfile.TarFile, prefix: str) -> list[tarfile.TarInfo]:
    chosen = []
    for member in archive.getmembers():
        rest = member.name[len(prefix) :] if member.name.startswith(prefix) else None
        if rest and any(rest == n or (n.endswith("/") and rest.startswith(n)) for n in NEEDED):
            member.name = rest
            chosen.append(member)
    return chosen


def fetch(version: str | None = None) -> Converters:
    """Download the llama-cpp-python sdist with pip and unpack only the converters."""
    version = version or installed_version()
    target = default_dir(version)
    if all((target / name).exists() for name in NEEDED):
        return Converters(target)
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary",
                   ":all:", f"{PACKAGE}=={version}", "-d", tmp]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        sdists = list(Path(tmp).glob("*.tar.gz"))
        if done.returncode or not sdists:
            raise ConverterError(f"pip could not download {PACKAGE}=={version}: {done.stderr[-800:]}")
        with tarfile.open(sdists[0]) as archive:
            prefix = f"{sdists[0].name.removesuffix('.tar.gz')}/vendor/llama.cpp/"
            members = _members(archive, prefix)
            staging = target.with_name(f"{target.name}.part-{os.getpid()}")
            archive.extractall(staging, members=members, filter="data")
    shutil.rmtree(target, ignore_errors=True)  # an incomplete copy from an interrupted fetch
    staging.replace(target)
    return find()


def pre_tokenizer_name(tokenizer_json: dict[str, Any]) -> str | None:
    """llama.cpp's name for the pre-tokenizer of an HF ``tokenizer.json``, read from its
    structure (None when it is none of the byte-level kinds told apart here)."""
    pre = tokenizer_json.get("pre_tokenizer") or {}
    parts = pre.get("pretokenizers", [pre]) if pre.get("type") == "Sequence" else [pre]
    kinds = [p.get("type") for p in parts]
    if kinds == ["ByteLevel"] and parts[0].get("use_regex", True):
        return "gpt-2"
    if kinds == ["Digits", "ByteLevel"] and parts[0].get("individual_digits"):
        return "smollm"
    if kinds == ["Split", "ByteLevel"]:
        regex = str((parts[0].get("pattern") or {}).get("Regex", ""))
        for piece, name in _SPLIT_PRETOKENIZERS:
            if piece in regex:
                return name
    return None


def _fallback_pre(model_dir: Path) -> str:
    path = model_dir / "tokenizer.json"
    if not path.is_file():
        return ""
    return pre_tokenizer_name(json.loads(path.read_text(encoding="utf-8"))) or ""


def run_converter(
    script: Path, args: list[str], model_dir: Path, what: str, mtp: bool = True
) -> None:
    """Run ``script`` through the driver; ``mtp=False`` says the weights hold no
    multi-token-prediction layers (then converted as with ``--no-mtp`` where that applies)."""
    env = {**os.environ, "BOTPSY_GGUF_PRE": _fallback_pre(model_dir)}
    env["BOTPSY_NO_MTP"] = "" if mtp else "1"
    env.pop("NO_LOCAL_GGUF", None)  # the sdist's own gguf-py, matching its converters
    done = subprocess.run(
        [sys.executable, str(DRIVER), str(script), *args],
        capture_output=True, text=True, env=env, check=False,
    )
    if done.returncode:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-12:])
        raise ConverterError(f"llama.cpp's {script.name} failed on {what}:\n{tail}")


if __name__ == "__main__":
    if sys.argv[1:] != ["fetch"]:
        sys.exit("usage: python -m botpsy.train.llama_converters fetch")
    print(fetch().root)
