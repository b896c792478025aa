"""How likely a model is to open a tool call: the decision behind irrelevance.

BFCL's irrelevance score counts answers: on the 10 cases a recipe run scores per
category, a model moves in steps of 10 points, and a model that calls on every
case scores 0% whether it was sure or nearly undecided. The probe measures the
decision itself: the probability that the answer begins with the format's call
opener, teacher-forced in one forward pass per prompt, without decoding. It
showed where the smol model stood (after SFT: 0.91 on BFCL irrelevance against
0.99 on simple_python, 0.69 even on synthetic irrelevance samples) and which
data change moves it, before a 100-minute recipe run.

    botpsy train probe --model runs/smol/sft/model -c irrelevance -c simple_python --limit 20
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from pydantic import BaseModel

from botpsy.formats import ChatFormat, get_format
from botpsy.train.common import load_model
from botpsy.train.loaders import read_samples
from botpsy.train.render import decision_points
from botpsy.types import Message, ToolCall


@dataclass(frozen=True)
class ProbePrompt:
    """A prompt ending where the assistant answers, and the group it is reported under."""

    group: str
    id: str
    prompt: str


class GroupProbe(BaseModel):
    """Call probabilities of one group of prompts."""

    group: str
    n: int
    mean: float
    below_half: int  # prompts where a text answer is the likelier start
    values: list[float]


class ProbeReport(BaseModel):
    model: str
    format: str
    opener_tokens: int
    groups: list[GroupProbe]

    def table(self) -> str:
        """A Markdown table, one row per group."""
        lines = [
            "| prompts | n | mean P(call) | P(call) < 0.5 |",
            "|---|---|---|---|",
        ]
        lines += [f"| {g.group} | {g.n} | {g.mean:.3f} | {g.below_half} |" for g in self.groups]
        return "\n".join(lines)


def opener_ids(fmt: ChatFormat, tokenizer: Any) -> list[int]:
    """The tokens a trained call starts with: the format's opener as it is tokenized at the
    start of a rendered call turn (a tokenizer may merge the opener's last piece with what
    follows it, so the opener alone is not always the right answer)."""
    opener = fmt.call_prefix()
    if not opener:
        raise ValueError(f"format {fmt.name!r} has no call opener to probe")
    alone = tokenizer(opener, add_special_tokens=False)["input_ids"]
    turn = Message(role="assistant", content="", tool_calls=[ToolCall(name="probe", arguments={})])
    rendered = tokenizer(fmt.render_assistant(turn), add_special_tokens=False)["input_ids"]
    common = 0
    while common < min(len(alone), len(rendered)) and alone[common] == rendered[common]:
        common += 1
    if common == 0:
        raise ValueError(f"format {fmt.name!r}: a rendered call does not start with {opener!r}")
    return alone[:common]


def call_probability(model: Any, tokenizer: Any, prompt: str, opener: list[int]) -> float:
    """P(the answer to ``prompt`` starts with the ``opener`` tokens), in one forward pass."""
    import torch

    prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([prompt_ids + opener])
    with torch.no_grad():
        logits = model(ids).logits[0, len(prompt_ids) - 1 : -1]
    logprobs = logits.float().log_softmax(-1)
    picked = logprobs[torch.arange(len(opener)), torch.tensor(opener)]
    return math.exp(float(picked.sum()))


def bfcl_prompts(fmt: ChatFormat, categories: list[str], limit: int | None) -> list[ProbePrompt]:
    """The first ``limit`` cases of single-turn BFCL categories, rendered as the model sees
    them in ``botpsy eval bfcl`` (FC mode)."""
    from botpsy.evals.bfcl.categories import CategoryKind, resolve  # lazy: bfcl_eval

    single_turn = (CategoryKind.ast, CategoryKind.relevance, CategoryKind.irrelevance)
    from botpsy.evals.bfcl.convert import to_messages, tool_specs  # lazy: bfcl_eval
    from botpsy.evals.bfcl.dataset import load_cases  # lazy: bfcl_eval

    prompts = []
    for category in resolve(categories):
        if category.kind not in single_turn:
            raise ValueError(f"{category.name}: the probe takes single-turn categories only")
        for case in load_cases(category, limit=limit):
            messages = to_messages(case.turns[0])
            text = fmt.render(messages, tool_specs(case.functions), add_generation_prompt=True)
            prompts.append(ProbePrompt(category.name, case.id, text))
    return prompts


def data_prompts(fmt: ChatFormat, path: str | Path, limit: int | None) -> list[ProbePrompt]:
    """The first decision of each sample in a data file, grouped by sample kind."""
    prompts = []
    for sample in read_samples(path)[:limit]:
        point = decision_points(fmt, sample)[0]
        prompts.append(ProbePrompt(f"data:{sample.kind.value}", sample.id, point.prompt))
    return prompts


def _group(name: str, values: list[float]) -> GroupProbe:
    return GroupProbe(
        group=name,
        n=len(values),
        mean=round(fmean(values), 4),
        below_half=sum(v < 0.5 for v in values),
        values=[round(v, 4) for v in values],
    )


def probe(model_dir: str, prompts: list[ProbePrompt], format_name: str = "hermes") -> ProbeReport:
    """Call probabilities of ``prompts`` under the HF model in ``model_dir``, per group."""
    if not prompts:
        raise ValueError("no prompts to probe: give BFCL categories or a data file")
    fmt = get_format(format_name)
    model, tokenizer = load_model(model_dir)
    model.eval()
    opener = opener_ids(fmt, tokenizer)
    values: dict[str, list[float]] = {}
    for item in prompts:
        p = call_probability(model, tokenizer, item.prompt, opener)
        values.setdefault(item.group, []).append(p)
    groups = [_group(name, vals) for name, vals in values.items()]
    return ProbeReport(
        model=model_dir, format=format_name, opener_tokens=len(opener), groups=groups
    )
