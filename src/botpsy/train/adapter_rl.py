"""Adapter-aware RL: the DAPO rounds train, as LoRA, the adapter that ships.

Why: the recipe fully fine-tunes, and the shipped model is a rank-r LoRA over the base,
found afterwards by truncated SVD (``botpsy.train.lora_extract``). SFT's change survives
that truncation; DAPO's does not. In one run the truncated adapter kept SFT's AST score but
lost most of the BFCL irrelevance DAPO had taught, and giving DAPO's change ranks of its
own did not help: DAPO learned its small correction on top of the *untruncated* SFT
change, and the adapter carries another model.

So, before RL (after distillation, or after the balance phase when the recipe has one), the
model is replaced by exactly what its rank-``sft_rank``
adapter gives (base weights plus the truncated change to the linear layers; norms and
embeddings stay the base's, as llama.cpp applies the adapter), and both DAPO rounds train
LoRA adapters of rank ``rl_rank`` on that model. The whole change is then of rank at most
``sft_rank + 2 * rl_rank`` per layer, and the final extraction at that rank is exact: what
RL taught is what ships.

The balance phase's change is small next to SFT's (a fraction of its relative weight change),
and one truncation of the whole change keeps its directions only when they happen to rank
among the largest: one smol run kept most of what balance taught, another lost most of it.
``balance_rank`` reserves ranks for that change (the current run: its extraction report,
docs/training/smol/extraction.json): distillation's change and balance's are truncated apart and both applied.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from botpsy.train.common import LoraSettings
from botpsy.train.export import merge_lora
from botpsy.train.lora_extract import REPORT_FILE, extract_lora

# The truncated pre-RL model DAPO starts from (the name predates the balance phase).
LOWRANK_STAGE = "distill-lowrank"
FINAL_ADAPTER = "lora"  # the exact final adapter (PEFT folder)
PARTS_FILE = "parts.json"  # how the truncation in LOWRANK_STAGE was made (checked on reuse)
RL_ROUNDS = 2


@dataclass(frozen=True)
class TruncationPart:
    """One link of the truncation chain: the change from the previous model to ``model``
    (from the base for the first), kept at ``rank`` (``rank_pattern``: own ranks by type)."""

    model: str | Path
    rank: int
    rank_pattern: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class AdapterRL:
    """Ranks and learning rate of adapter-aware RL (``botpsy train recipe --adapter-rank``)."""

    sft_rank: int = 32  # rank of the change before RL (SFT, distillation, balance)
    rl_rank: int = 4  # LoRA rank of each DAPO round
    # LoRA moves the weights far less per step than full fine-tuning at the same rate
    # (B starts at zero, A is small): the usual ~10x of the full run's 1e-5.
    learning_rate: float = 1e-4
    # q8_0 keeps the adapter small. At a rank not divisible by 32 only A is q8_0: a GGUF B
    # tensor's rows are the rank, and Q8_0 blocks need rows divisible by 32, so B stays f16
    # (the sizes each choice gives: the run's extraction report).
    adapter_dtype: str = "q8_0"
    # Own truncation ranks for some module types (``lora_extract``'s rank_pattern), e.g.
    # {"k_proj": 24, "v_proj": 24} with sft_rank 56: final ranks 64 and 32, every tensor in
    # q8_0, and a smaller file than a uniform 64.
    rank_pattern: dict[str, int] = field(default_factory=dict)
    # Ranks of the truncation kept for the balance phase's own change (0: the change before RL
    # is truncated as one); taken from sft_rank and from each rank_pattern entry.
    balance_rank: int = 0

    def __post_init__(self) -> None:
        ranks = [self.sft_rank, self.rl_rank, *self.rank_pattern.values()]
        if min(ranks) < 1:
            raise ValueError(
                f"adapter ranks must be at least 1, got sft_rank={self.sft_rank}, "
                f"rl_rank={self.rl_rank}, rank_pattern={self.rank_pattern}"
            )
        truncation = [self.sft_rank, *self.rank_pattern.values()]
        if self.balance_rank < 0 or (self.balance_rank and self.balance_rank >= min(truncation)):
            raise ValueError(
                f"balance_rank must be 0 or below every truncation rank (sft_rank "
                f"{self.sft_rank}, rank_pattern {self.rank_pattern}), got {self.balance_rank}"
            )
        if self.learning_rate <= 0:
            raise ValueError(f"learning_rate must be positive, got {self.learning_rate}")

    @property
    def final_rank(self) -> int:
        """The rank that carries the whole change exactly."""
        return self.sft_rank + RL_ROUNDS * self.rl_rank

    @property
    def final_rank_pattern(self) -> dict[str, int]:
        """The module types with their own final rank: their truncation rank plus the rounds'."""
        return {name: rank + RL_ROUNDS * self.rl_rank for name, rank in self.rank_pattern.items()}

    def describe(self, final: bool = False) -> str:
        """``56 (k_proj 24, v_proj 24)``: the truncation (or final) ranks, for report notes."""
        rank, pattern = (
            (self.final_rank, self.final_rank_pattern)
            if final
            else (self.sft_rank, self.rank_pattern)
        )
        own = ", ".join(f"{name} {r}" for name, r in pattern.items())
        return f"{rank} ({own})" if own else str(rank)

    def parts(
        self, before_rl: str | Path, balance_input: str | Path | None
    ) -> list[TruncationPart]:
        """The truncation's parts, in chain order: the change up to ``before_rl`` at
        ``sft_rank``; or, with ``balance_rank`` and a balance phase (that started from
        ``balance_input``), the change up to the balance phase at the remaining ranks, then
        the balance phase's own change at ``balance_rank``."""
        if not (self.balance_rank and balance_input):
            return [TruncationPart(before_rl, self.sft_rank, self.rank_pattern)]
        k = self.balance_rank
        earlier = {name: rank - k for name, rank in self.rank_pattern.items()}
        return [
            TruncationPart(balance_input, self.sft_rank - k, earlier),
            TruncationPart(before_rl, k, {}),
        ]

    def lora(self) -> LoraSettings:
        """Each DAPO round's LoRA: scale alpha / r = 2, no dropout (RL samples on-policy)."""
        return LoraSettings(r=self.rl_rank, alpha=2 * self.rl_rank, dropout=0.0)


def truncate_to_adapter(
    base: str | Path, parts: Sequence[TruncationPart], out_dir: str | Path
) -> Path:
    """``base`` plus each part's truncated change, applied in turn: the adapters
    (``out_dir/adapter``, then ``adapter-2``...) and the merged model (``out_dir/model``,
    returned). Ranks add up, so the sum is a LoRA of rank ``sum(part.rank)``. A folder a
    previous run finished is reused, so a resumed recipe skips this step."""
    out_dir = Path(out_dir)
    model = out_dir / "model"
    if not parts:
        raise ValueError("the truncation needs at least one part")
    wanted = _describe_parts(parts)
    if (model / "config.json").exists():
        _check_reuse(out_dir, wanted)
        return model
    previous, merged = Path(base), Path(base)
    for i, part in enumerate(parts, start=1):
        adapter = out_dir / ("adapter" if i == 1 else f"adapter-{i}")
        extract_lora(previous, part.model, adapter, rank=part.rank, rank_pattern=part.rank_pattern)
        target = model if i == len(parts) else out_dir / f"merged-{i}"
        merge_lora(merged, adapter, target)
        if merged != Path(base):
            shutil.rmtree(merged)  # an intermediate merge, only the next one's input
        previous, merged = Path(part.model), target
    (out_dir / PARTS_FILE).write_text(json.dumps(wanted, indent=2), encoding="utf-8")
    return model


def _describe_parts(parts: Sequence[TruncationPart]) -> list[dict[str, object]]:
    """What makes a truncation: each part's model (with its weights' mtime, so a retrained
    stage counts as another model), rank and ranks by type."""

    def stamp(model: Path) -> float | None:
        return max((w.stat().st_mtime for w in model.glob("*.safetensors")), default=None)

    return [
        {
            "model": str(Path(part.model).resolve()),
            "weights_mtime": stamp(Path(part.model)),
            "rank": part.rank,
            "rank_pattern": dict(part.rank_pattern),
        }
        for part in parts
    ]


def _check_reuse(out_dir: Path, wanted: list[dict[str, object]]) -> None:
    """A finished truncation is reused only when it was made the same way: another rank,
    balance rank or retrained stage would otherwise be carried on without a word."""
    record = out_dir / PARTS_FILE
    if not record.is_file():
        return  # made before truncations were recorded: nothing to compare
    found = json.loads(record.read_text(encoding="utf-8"))
    if found != wanted:
        raise ValueError(
            f"{out_dir} holds a truncation made another way ({found}); this run wants "
            f"{wanted}. Remove {out_dir} (and the DAPO stages after it) to redo it."
        )


def final_adapter(
    base: str | Path,
    tuned: str | Path,
    out_dir: str | Path,
    rank: int,
    rank_pattern: dict[str, int] | None = None,
) -> float:
    """Extract the final adapter at ``rank`` (``rank_pattern`` as in ``truncate_to_adapter``)
    and return the share of the change it carries (1.0 up to rounding when the rounds
    trained LoRA over the truncated model)."""
    report = Path(out_dir) / REPORT_FILE
    if report.exists():
        return float(json.loads(report.read_text(encoding="utf-8"))["energy"])
    return extract_lora(base, tuned, out_dir, rank=rank, rank_pattern=rank_pattern).energy
