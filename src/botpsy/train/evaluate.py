"""Validation tool-call reward: greedy answers on held-out samples, graded by botpsy.rewards.

The same grader scores RL rewards and the evals, so the number reported after
each stage means the same thing everywhere. Generation is plain
``model.generate`` with left padding; answers are parsed by the training format.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from botpsy.formats import ChatFormat
from botpsy.rewards import CallErrorType, format_reward, is_text_answer, score_calls
from botpsy.train.render import DecisionPoint, decision_points
from botpsy.train.sample import TrainSample, reference_from_json

# An external scorer (e.g. BFCL non-live AST from botpsy.evals): model folder -> named scores.
ModelEvaluator = Callable[[str], dict[str, float]]


class ValScore(BaseModel):
    """Mean tool-call reward, exact-match rate and clean-format rate on validation prompts."""

    n: int
    reward: float
    exact: float
    format_ok: float
    by_kind: dict[str, float]
    errors: dict[str, int]
    key: str = ""  # which prompts and budget were scored (see ``common.validation_key``)


def grade(fmt: ChatFormat, text: str, point: DecisionPoint) -> tuple[float, bool, float, str]:
    """Reward, exact match, format reward and error type of one answer."""
    parsed = fmt.parse(text)
    refs = [reference_from_json(r) for r in json.loads(point.references)]
    fmt_score = format_reward(parsed)
    if not refs and not is_text_answer(parsed):  # BFCL would count it; training does not
        return 0.0, False, fmt_score, CallErrorType.parse_error.value if parsed.errors else "empty"
    score = score_calls(parsed.tool_calls, refs, parse_ok=fmt_score > 0)
    return score.reward, score.exact, fmt_score, score.error_type.value


def generate_texts(
    model: Any, tokenizer: Any, prompts: list[str], max_new_tokens: int, batch_size: int = 8
) -> list[str]:
    """Greedy completions of ``prompts`` (special tokens dropped, as the parser expects)."""
    import torch

    side = tokenizer.padding_side
    tokenizer.padding_side = "left"
    texts: list[str] = []
    was_training = model.training
    model.eval()
    try:
        for start in range(0, len(prompts), batch_size):
            batch = tokenizer(
                prompts[start : start + batch_size],
                return_tensors="pt",
                padding=True,
                add_special_tokens=False,
            ).to(model.device)
            with torch.no_grad():
                out = model.generate(
                    **batch,
                    max_new_tokens=max_new_tokens,
                    do_sample=False,
                    pad_token_id=tokenizer.pad_token_id,
                )
            new = out[:, batch["input_ids"].shape[1] :]
            texts += tokenizer.batch_decode(new, skip_special_tokens=True)
    finally:
        tokenizer.padding_side = side
        model.train(was_training)
    return texts


def validation_score(
    model: Any,
    tokenizer: Any,
    fmt: ChatFormat,
    samples: list[TrainSample],
    max_new_tokens: int = 96,
) -> ValScore:
    """Score the model's first assistant turn on each sample."""
    points = [p for s in samples for p in decision_points(fmt, s)]
    texts = generate_texts(model, tokenizer, [p.prompt for p in points], max_new_tokens)
    rewards, exacts, formats = [], [], []
    per_kind: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    for text, point in zip(texts, points):
        reward, exact, fmt_ok, error = grade(fmt, text, point)
        rewards.append(reward)
        exacts.append(1.0 if exact else 0.0)
        formats.append(fmt_ok)
        per_kind[point.kind].append(reward)
        errors[error] += 1
    n = max(len(points), 1)
    return ValScore(
        n=len(points),
        reward=sum(rewards) / n,
        exact=sum(exacts) / n,
        format_ok=sum(formats) / n,
        by_kind={k: sum(v) / len(v) for k, v in sorted(per_kind.items())},
        errors=dict(errors),
    )
