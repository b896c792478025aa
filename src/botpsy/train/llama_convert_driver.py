"""Run one of llama.cpp's converter scripts with botpsy's pre-tokenizer fallback.

Started as a file (``python llama_convert_driver.py SCRIPT ARGS...``) by
``botpsy.train.llama_converters.run_converter``, never imported by botpsy: the
converters must see the ``gguf-py`` that ships beside them, not the venv's ``gguf``.

llama.cpp names a BPE pre-tokenizer by hashing how the tokenizer splits a fixed text,
so a tokenizer trained in code (its own vocabulary) is refused however standard its
pre-tokenizer. When that happens and ``BOTPSY_GGUF_PRE`` names the pre-tokenizer
botpsy read from ``tokenizer.json``, that name is used instead. And a checkpoint whose
weights hold no multi-token-prediction layers (``BOTPSY_NO_MTP``) converts as with
``--no-mtp`` where the model class takes that flag.
"""

from __future__ import annotations

import logging
import os
import runpy
import sys
from pathlib import Path

# Started as a file, Python put this folder first on the path: its modules (data, cli,
# report...) must not shadow what the converters import.
_HERE = os.path.realpath(os.path.dirname(__file__))
sys.path = [p for p in sys.path if os.path.realpath(p or ".") != _HERE]


def _patch_pre_tokenizer() -> None:
    from conversion.base import TextModel

    original = TextModel.get_vocab_base_pre

    def get_vocab_base_pre(self, tokenizer) -> str:
        try:
            return original(self, tokenizer)
        except NotImplementedError:
            fallback = os.environ.get("BOTPSY_GGUF_PRE")
            if not fallback:
                raise
            logging.getLogger("botpsy").warning(
                "pre-tokenizer not fingerprinted by llama.cpp; tokenizer.json says %r", fallback
            )
            return fallback

    TextModel.get_vocab_base_pre = get_vocab_base_pre


def _patch_no_mtp() -> None:
    """``--no-mtp`` wherever the model class takes it, when ``BOTPSY_NO_MTP`` says the
    weights hold no MTP layers (the converter otherwise expects them and stops)."""
    import conversion

    original = conversion.get_model_class

    def get_model_class(name: str, mmproj: bool = False):
        cls = original(name, mmproj)
        if os.environ.get("BOTPSY_NO_MTP") and getattr(cls, "supports_mtp_export", False):
            cls.no_mtp = True
        return cls

    conversion.get_model_class = get_model_class


def main(argv: list[str]) -> None:
    script = Path(argv[1]).resolve()
    sys.path[:0] = [str(script.parent), str(script.parent / "gguf-py")]
    _patch_pre_tokenizer()
    _patch_no_mtp()
    sys.argv = [str(script), *argv[2:]]
    runpy.run_path(str(script), run_name="__main__")


if __name__ == "__main__":
    main(sys.argv)
