"""transformers backend (``hf`` extra): an HF model folder, or a GGUF that transformers dequantizes.

It runs the model in PyTorch (fp32 or bf16), so it is the reference against which
the llama.cpp numbers are compared, and the backend the training recipe's
checkpoints can be evaluated with before export. Grammars are not supported here;
``tool_choice`` is then enforced by forcing the call opener into the prompt.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

from botpsy.backends.base import GenerationStats, TextChunk
from botpsy.formats import detect_format
from botpsy.types import GenerationParams


class TransformersBackend:
    """A TextBackend over a transformers causal LM."""

    supports_grammar = False

    def __init__(
        self,
        model_path: str | Path,
        *,
        dtype: str = "float32",
        n_threads: int | None = None,
        gguf_file: str | None = None,
        name: str | None = None,
    ) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if n_threads:
            torch.set_num_threads(n_threads)
        path = Path(model_path)
        if path.suffix == ".gguf":  # transformers loads a GGUF from its folder + file name
            gguf_file, path = path.name, path.parent
        kwargs = {"gguf_file": gguf_file} if gguf_file else {}
        self.tokenizer = AutoTokenizer.from_pretrained(path, **kwargs)
        self.model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype), **kwargs)
        self.model.eval()
        self.name = name or path.name
        self._stats = GenerationStats()

    @property
    def last_stats(self) -> GenerationStats:
        return self._stats

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def format_hint(self) -> str | None:
        config = self.model.config
        return detect_format(getattr(self.tokenizer, "chat_template", None), getattr(config, "model_type", None), self.name)

    def generate(self, prompt: str, params: GenerationParams, grammar: str | None = None) -> Iterator[TextChunk]:
        import torch
        from transformers import TextIteratorStreamer

        inputs = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
        n_prompt = int(inputs["input_ids"].shape[1])
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=False)
        sampling = params.temperature > 0
        kwargs = dict(
            **inputs,
            max_new_tokens=params.max_tokens,
            do_sample=sampling,
            streamer=streamer,
            pad_token_id=self.tokenizer.pad_token_id or self.tokenizer.eos_token_id,
        )
        if sampling:
            kwargs.update(temperature=params.temperature, top_p=params.top_p)
        if params.stop:
            kwargs.update(stop_strings=params.stop, tokenizer=self.tokenizer)
        if params.seed is not None:
            torch.manual_seed(params.seed)
        result: dict = {}

        def run() -> None:
            with torch.inference_mode():
                result["ids"] = self.model.generate(**kwargs)

        start = time.perf_counter()
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        self._stats = stats = GenerationStats(prompt_tokens=n_prompt)
        text, stopped = "", False
        for piece in streamer:
            if stats.prompt_eval_s is None:
                stats.prompt_eval_s = time.perf_counter() - start
            if stopped:
                continue  # drain the streamer so the generation thread can finish
            cut = _before_stop(text + piece, params.stop)
            piece = cut[len(text):] if cut is not None else piece
            stopped = cut is not None
            text += piece
            if piece:
                yield TextChunk(piece)
        worker.join()
        generated = int(result["ids"].shape[1]) - n_prompt if "ids" in result else 0
        stats.completion_tokens = generated
        stats.finish_reason = "length" if generated >= params.max_tokens else "stop"


def _before_stop(text: str, stops: list[str]) -> str | None:
    """``text`` cut before the first stop string, or None when none occurs
    (transformers leaves the stop string in the output; llama.cpp does not)."""
    hits = [text.index(stop) for stop in stops if stop and stop in text]
    return text[: min(hits)] if hits else None
