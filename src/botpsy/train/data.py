"""Synthetic training data: generate, deduplicate, split, save.

``generate(DataConfig(...))`` makes a seeded, deduplicated set of tool-use
conversations across the ten assistant domains and every sample kind, split
into train and validation with every kind in both. Nothing here reads BFCL (or
any benchmark) data, so evaluations on BFCL stay clean.

Run ``botpsy train data --out data/`` to write ``train.jsonl``,
``validation.jsonl`` and ``stats.json``.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from botpsy.train.catalog import load_recipes
from botpsy.train.catalog_builtin import builtin_recipes
from botpsy.train.naming import check_share
from botpsy.train.phrasing import ASSISTANT_PROMPT_SHARE
from botpsy.train.sample import SampleKind, TrainSample, domain_group, reference_to_json
from botpsy.train.source_text import is_source_text
from botpsy.train.synth import Synthesizer

DEFAULT_KIND_WEIGHTS: dict[str, float] = {
    "single": 0.12,
    "multiple": 0.18,
    "parallel": 0.12,
    "parallel_multiple": 0.1,
    # Most of them near misses (see synth.NEAR_MISS_SHARE): the case small models fail. Raising
    # the share does not teach the decision: a smol run at 0.32 left the SFT model's call
    # probability on BFCL irrelevance at 0.90 (0.91 at 0.22) and its final model 7 AST points
    # lower (docs/training/smol/irrelevance-32), so the mix stays at 0.22.
    "irrelevance": 0.22,
    "multi_turn": 0.18,
    "decline": 0.08,
}


@dataclass
class DataConfig:
    """What data to make: how much, from which seed and recipes, how it is split."""

    n_samples: int = 2000
    seed: int = 0
    val_fraction: float = 0.1
    kind_weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_KIND_WEIGHTS))
    recipes_file: str | None = None  # extra user tool recipes (JSON list of ToolRecipe)
    only_user_recipes: bool = False  # train on the user's tools alone
    max_distractors: int | None = (
        None  # cap on extra tools per sample (short prompts for tiny models)
    )
    # Share of samples whose tools are renamed in another API style (``mail.send_email``,
    # ``MailClient.sendEmail``): teaches copying the offered name (botpsy.train.naming).
    name_style_share: float = 0.3
    # Share of the call samples under the assistant's system prompt that ask for one of its
    # own tools; when nonzero, those samples offer what its tool selector would show, as the
    # deployed assistant does (botpsy.train.synth, botpsy.agent.selection).
    assistant_tools_share: float = 0.0
    # Share of the samples under the on-device assistant's system prompt (the rest get a
    # generic one or none, as BFCL's cases do).
    assistant_prompt_share: float = ASSISTANT_PROMPT_SHARE
    # Share of the samples outside the assistant's prompt whose tools are declared as Java or
    # JavaScript bindings that take every value as source text ("true", "new int[]{1, 2}";
    # botpsy.train.source_text).
    source_text_share: float = 0.0

    def __post_init__(self) -> None:
        if self.n_samples < 1:
            raise ValueError(f"n_samples must be >= 1, got {self.n_samples}")
        if not 0 <= self.val_fraction < 1:
            raise ValueError(f"val_fraction must be in [0, 1), got {self.val_fraction}")
        if self.max_distractors is not None and self.max_distractors < 0:
            raise ValueError(f"max_distractors must be >= 0, got {self.max_distractors}")
        if self.recipes_file and not Path(self.recipes_file).is_file():
            raise ValueError(f"recipes_file {self.recipes_file}: no such file")
        check_share(self.name_style_share)  # a bad --config fails here, before any work
        check_share(self.assistant_tools_share, "assistant_tools_share")
        check_share(self.assistant_prompt_share, "assistant_prompt_share")
        check_share(self.source_text_share, "source_text_share")


class DataStats(BaseModel):
    """Counts that show the data is diverse and balanced."""

    train: int
    validation: int
    duplicates_dropped: int
    by_kind: dict[str, int]
    by_domain: dict[str, int]
    by_group: dict[str, int]
    tools: int  # distinct tool names offered, restyled ones included
    restyled: int = 0  # samples whose tools carry another naming style (botpsy.train.naming)
    source_text: int = 0  # samples rewritten as source-text bindings (botpsy.train.source_text)


@dataclass
class SyntheticData:
    train: list[TrainSample]
    validation: list[TrainSample]
    stats: DataStats


def dedup_key(sample: TrainSample) -> str:
    """Two samples are duplicates when they ask the same thing with the same tools and answer."""
    payload = {
        "requests": [m.content for m in sample.messages if m.role == "user"],
        "tools": sorted(t.name for t in sample.tools),
        "refs": [reference_to_json(r) for r in sample.reference_calls],
        "answers": [m.content for m in sample.messages if m.role == "assistant"],
    }
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=list).encode()).hexdigest()


def _kinds(weights: dict[str, float]) -> tuple[list[SampleKind], list[float]]:
    unknown = set(weights) - {k.value for k in SampleKind}
    if unknown:
        raise ValueError(
            f"unknown sample kinds {sorted(unknown)}; known: {[k.value for k in SampleKind]}"
        )
    kinds = [SampleKind(k) for k, w in weights.items() if w > 0]
    if not kinds:
        raise ValueError("kind_weights gives no kind a positive weight")
    return kinds, [weights[k.value] for k in kinds]


def _recipes(cfg: DataConfig) -> list:
    extra = load_recipes(Path(cfg.recipes_file)) if cfg.recipes_file else []
    if cfg.only_user_recipes:
        if not extra:
            raise ValueError("only_user_recipes needs a recipes_file with tool recipes")
        return extra
    return builtin_recipes() + extra


def generate(cfg: DataConfig) -> SyntheticData:
    """Seeded, deduplicated samples split into train and validation."""
    if cfg.n_samples < 2:
        raise ValueError("n_samples must be at least 2 (one train, one validation)")
    synth = Synthesizer(
        _recipes(cfg),
        seed=cfg.seed,
        max_distractors=cfg.max_distractors,
        name_style_share=cfg.name_style_share,
        assistant_tools_share=cfg.assistant_tools_share,
        assistant_prompt_share=cfg.assistant_prompt_share,
        source_text_share=cfg.source_text_share,
    )
    kinds, weights = _kinds(cfg.kind_weights)
    # Reserve each kind's share up front so small sets still hold every kind.
    plan = [k for k in kinds] + synth.rng.choices(
        kinds, weights, k=max(cfg.n_samples - len(kinds), 0)
    )
    seen: dict[str, TrainSample] = {}
    dropped = 0
    for kind in plan:
        for _ in range(20):  # retry a duplicate a few times before giving up on that slot
            sample = synth.make(kind)
            key = dedup_key(sample)
            if key not in seen:
                seen[key] = sample.model_copy(update={"id": f"{kind.value}-{key[:12]}"})
                break
            dropped += 1
    samples = list(seen.values())
    train, validation = split(samples, cfg.val_fraction, cfg.seed)
    catalog = {r.spec.name for r in synth.recipes}
    return SyntheticData(train, validation, _stats(train, validation, dropped, catalog))


def split(
    samples: list[TrainSample], val_fraction: float, seed: int = 0
) -> tuple[list[TrainSample], list[TrainSample]]:
    """Train/validation split stratified by kind: every kind with 2+ samples lands in both."""
    if not 0 < val_fraction < 1:
        raise ValueError(f"val_fraction must be in (0, 1), got {val_fraction}")
    rng = random.Random(seed)
    train: list[TrainSample] = []
    validation: list[TrainSample] = []
    by_kind: dict[SampleKind, list[TrainSample]] = {}
    for sample in samples:
        by_kind.setdefault(sample.kind, []).append(sample)
    for kind in sorted(by_kind, key=lambda k: k.value):
        group = by_kind[kind]
        rng.shuffle(group)
        n_val = (
            min(max(1, math.ceil(val_fraction * len(group))), len(group) - 1)
            if len(group) > 1
            else 0
        )
        validation += group[:n_val]
        train += group[n_val:]
    rng.shuffle(train)
    rng.shuffle(validation)
    return train, validation


def _stats(
    train: list[TrainSample], validation: list[TrainSample], dropped: int, catalog: set[str]
) -> DataStats:
    both = train + validation
    return DataStats(
        train=len(train),
        validation=len(validation),
        duplicates_dropped=dropped,
        by_kind=dict(Counter(s.kind.value for s in both)),
        by_domain=dict(Counter(s.domain for s in both)),
        by_group=dict(Counter(domain_group(s.domain) for s in both)),
        tools=len({t.name for s in both for t in s.tools}),
        restyled=sum(any(t.name not in catalog for t in s.tools) for s in both),
        source_text=sum(is_source_text(s) for s in both),
    )


def write_jsonl(samples: list[TrainSample], path: Path) -> Path:
    """Samples as OpenAI-style JSON lines."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for sample in samples:
            handle.write(json.dumps(sample.to_record(), ensure_ascii=False, default=list) + "\n")
    return path


@dataclass(frozen=True)
class DataFiles:
    """Where a saved data set lives."""

    train: Path
    validation: Path
    stats: Path


def save(data: SyntheticData, out_dir: Path) -> DataFiles:
    out_dir = Path(out_dir)
    files = DataFiles(out_dir / "train.jsonl", out_dir / "validation.jsonl", out_dir / "stats.json")
    write_jsonl(data.train, files.train)
    write_jsonl(data.validation, files.validation)
    files.stats.write_text(data.stats.model_dump_json(indent=2), encoding="utf-8")
    return files
