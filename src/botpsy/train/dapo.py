"""Stages 3-4: DAPO reinforcement learning with rule-based rewards (TRL ``GRPOTrainer``).

DAPO as TRL implements it: ``loss_type="dapo"`` (token-level normalisation),
clip-higher (``epsilon=0.2``, ``epsilon_high=0.28``), no KL term (``beta=0``),
truncated completions masked out of the loss; plus, in botpsy, the soft
overlong punishment as a reward on length and dynamic sampling
(``botpsy.train.dynamic``). Rewards come from ``botpsy.rewards``: the
partial-credit tool-call reward plus a format reward.

Round 1 trains on every prompt kind; round 2 (``kinds=HARD``) on the harder
multi-step and parallel prompts, with the turns after tool outputs included.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from botpsy.formats import get_format
from botpsy.train.common import StageCommon, StageResult, StageRun, run_stage, trainer_args
from botpsy.train.dynamic import (
    PoolFilterResult,
    dynamic_sampling_trainer_class,
    filter_prompt_pool,
)
from botpsy.train.evaluate import ModelEvaluator
from botpsy.train.loaders import read_samples
from botpsy.train.render import decision_points, point_row
from botpsy.train.rl_rewards import (
    FinalAnswerReward,
    FormatReward,
    OverlongPenalty,
    ToolCallReward,
)
from botpsy.train.sample import HARD_KINDS, SampleKind

HARD = sorted(k.value for k in HARD_KINDS)


class DynamicSamplingError(RuntimeError):
    """No prompt in the pool gave rollouts with different rewards: nothing to learn from."""


@dataclass
class DAPOStageConfig(StageCommon):
    learning_rate: float = 1e-6
    kinds: list[str] | None = None  # sample kinds to train on (None: all; round 2: HARD)
    # A fixed share of pool_target per sample kind, drawn even where ``kinds`` leaves the kind
    # out, e.g. {"irrelevance": 0.25}: a uniform draw gave the no-call prompts 1-2 places of
    # 12 (none in round 2), and every on-policy stage raised the call probability on them.
    kind_shares: dict[str, float] = field(default_factory=dict)
    num_generations: int = 8  # G rollouts per prompt; batch_size must be a multiple
    max_completion_length: int = 256
    overlong_cache: int = 64  # soft overlong punishment window (tokens before the limit)
    epsilon: float = 0.2
    epsilon_high: float = 0.28  # clip-higher
    beta: float = 0.0  # no KL to a reference model, as in DAPO
    temperature: float = 1.0
    tool_weight: float = 1.0
    format_weight: float = 0.2
    # Final answers after tool output: the share of the tool's facts relayed (0: off).
    answer_weight: float = 0.5
    overlong_weight: float = 1.0
    dynamic_sampling: bool = True
    pool_target: int | None = None  # informative prompts to keep per round (None: all)
    filter_max_new_tokens: int | None = (
        None  # rollout length of the pool filter (default: max_completion_length)
    )
    all_turns: bool = True
    use_vllm: bool = False
    vllm_mode: str = "colocate"
    stage_name: str = "dapo"

    def __post_init__(self) -> None:
        super().__post_init__()
        check_kind_shares(self)


def reward_functions(cfg: DAPOStageConfig) -> tuple[list[Any], list[float]]:
    fmt = get_format(cfg.format)
    funcs: list[Any] = [
        ToolCallReward(fmt),
        FormatReward(fmt),
        OverlongPenalty(cfg.max_completion_length, cfg.overlong_cache),
    ]
    weights = [cfg.tool_weight, cfg.format_weight, cfg.overlong_weight]
    if cfg.answer_weight:
        funcs.append(FinalAnswerReward(fmt))
        weights.append(cfg.answer_weight)
    return funcs, weights


def prompt_pool(cfg: DAPOStageConfig, tokenizer: Any) -> tuple[list[dict[str, str]], int]:
    """The RL prompts, and how many were left out because their reference answer would not
    fit before the soft overlong punishment starts: a correct but long answer (three parallel
    calls) would be punished or truncated, teaching the model to drop calls."""
    samples = read_samples(cfg.train_file)
    if cfg.kinds:
        wanted = set(cfg.kinds) | set(cfg.kind_shares)
        samples = [s for s in samples if s.kind.value in wanted]
    budget = cfg.max_completion_length - cfg.overlong_cache

    def fits(answer: str) -> bool:
        return len(tokenizer(answer, add_special_tokens=False)["input_ids"]) <= budget

    fmt = get_format(cfg.format)
    points = [p for s in samples for p in decision_points(fmt, s, cfg.all_turns)]
    if not points:
        raise ValueError(f"{cfg.train_file}: no prompts of kinds {cfg.kinds}")
    rows = [point_row(p) for p in points if fits(p.answer)]
    if not rows:
        raise ValueError(
            f"no reference answer in {cfg.train_file} fits {budget} tokens "
            f"(max_completion_length - overlong_cache); raise max_completion_length"
        )
    return rows, len(points) - len(rows)


def check_kind_shares(cfg: DAPOStageConfig) -> None:
    """Shares need a pool size to divide and the pool filter to draw it; they must leave room."""
    known = {k.value for k in SampleKind}
    unknown = set(cfg.kind_shares) - known
    if unknown:
        raise ValueError(
            f"kind_shares: unknown sample kinds {sorted(unknown)}; known: {sorted(known)}"
        )
    if any(not 0 < v < 1 for v in cfg.kind_shares.values()):
        raise ValueError(f"kind_shares: each share must lie between 0 and 1, got {cfg.kind_shares}")
    if cfg.kind_shares and (cfg.pool_target is None or not cfg.dynamic_sampling):
        raise ValueError("kind_shares needs dynamic_sampling and a pool_target to divide")
    if sum(cfg.kind_shares.values()) >= 1:
        raise ValueError(f"kind_shares {cfg.kind_shares} leave no room for the other kinds")


def pool_strata(
    cfg: DAPOStageConfig, rows: list[dict[str, str]]
) -> list[tuple[list[dict[str, str]], int | None]]:
    """(rows, how many to keep) per stratum: each kind in ``kind_shares`` its share of
    ``pool_target``, then the kinds of ``kinds`` (all others when None) with the remainder;
    the remainder grows by whatever the shared kinds could not fill (see ``_filter_strata``)."""
    if not cfg.kind_shares:
        return [(rows, cfg.pool_target)]
    assert cfg.pool_target is not None  # check_kind_shares
    strata: list[tuple[list[dict[str, str]], int | None]] = [
        ([r for r in rows if r["kind"] == kind], round(share * cfg.pool_target))
        for kind, share in sorted(cfg.kind_shares.items())
    ]
    rest = [
        r
        for r in rows
        if r["kind"] not in cfg.kind_shares and (cfg.kinds is None or r["kind"] in cfg.kinds)
    ]
    return [*strata, (rest, None)]


def merge_pools(parts: list[PoolFilterResult], seed: int) -> PoolFilterResult:
    """One pool from the strata's, shuffled so that every step mixes the kinds."""
    rows = [r for p in parts for r in p.rows]
    random.Random(seed).shuffle(rows)
    means = [m for p in parts for m in p.reward_by_row]
    return PoolFilterResult.of(rows, sum(p.examined for p in parts), means)


def _filter_strata(
    cfg: DAPOStageConfig, model: Any, tokenizer: Any, rows: list[dict[str, str]]
) -> PoolFilterResult:
    funcs, weights = reward_functions(cfg)
    parts: list[PoolFilterResult] = []
    for index, (stratum, target) in enumerate(pool_strata(cfg, rows)):
        if target is None and cfg.pool_target is not None:  # the remainder stratum
            target = cfg.pool_target - sum(len(p.rows) for p in parts)
        if not stratum or target == 0:
            continue
        parts.append(
            filter_prompt_pool(
                model,
                tokenizer,
                stratum,
                funcs,
                weights,
                cfg.num_generations,
                cfg.filter_max_new_tokens or cfg.max_completion_length,
                target,
                temperature=cfg.temperature,
                seed=cfg.seed + index,
            )
        )
    if not parts:
        return PoolFilterResult.of([], 0, [])
    return parts[0] if len(parts) == 1 else merge_pools(parts, cfg.seed)


def informative_pool(
    cfg: DAPOStageConfig, model: Any, tokenizer: Any, rows: list[dict[str, str]]
) -> PoolFilterResult:
    """The pool filter, run once on the main process, shared with the others, saved for resuming."""
    from accelerate import PartialState
    from accelerate.utils import broadcast_object_list

    saved = Path(cfg.output_dir) / "pool.json"
    state = PartialState()
    result: list[Any] = [None]
    if saved.exists() and cfg.resume:
        result = [PoolFilterResult(**json.loads(saved.read_text(encoding="utf-8")))]
    elif state.is_main_process:
        result = [_filter_strata(cfg, model, tokenizer, rows)]
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(result[0].__dict__), encoding="utf-8")
    if state.num_processes > 1:
        broadcast_object_list(result)
    if not result[0].rows:
        raise DynamicSamplingError(
            f"all {result[0].examined} prompts gave {cfg.num_generations} rollouts with equal "
            "rewards; raise the "
            "temperature, train the earlier stages longer, or turn dynamic_sampling off"
        )
    return result[0]


def build_trainer(cfg: DAPOStageConfig, model: Any, tokenizer: Any, pool: dict[str, Any]) -> Any:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    if cfg.batch_size % cfg.num_generations:
        raise ValueError(
            f"batch_size {cfg.batch_size} must be a multiple of "
            f"num_generations {cfg.num_generations}"
        )
    funcs, weights = reward_functions(cfg)
    args = trainer_args(
        cfg,
        GRPOConfig,
        loss_type="dapo",
        epsilon=cfg.epsilon,
        epsilon_high=cfg.epsilon_high,
        beta=cfg.beta,
        num_generations=cfg.num_generations,
        max_completion_length=cfg.max_completion_length,
        temperature=cfg.temperature,
        mask_truncated_completions=True,
        reward_weights=weights,
        use_vllm=cfg.use_vllm,
        vllm_mode=cfg.vllm_mode,
    )
    rows, too_long = prompt_pool(cfg, tokenizer)
    pool["too_long"] = too_long
    if cfg.dynamic_sampling:  # after the config: it sets up the (distributed) accelerate state
        filtered = informative_pool(cfg, model, tokenizer, rows)
        pool.update(
            examined=filtered.examined,
            kept=len(filtered.rows),
            pool_mean_reward=filtered.mean_reward,
        )
        rows = filtered.rows
    needed = args.generation_batch_size // cfg.num_generations
    if len(rows) < needed:  # TRL would silently train zero steps
        raise DynamicSamplingError(
            f"{len(rows)} prompt(s) to train on, fewer than the {needed} one generation batch "
            "needs; raise pool_target or lower batch_size"
        )
    cls = dynamic_sampling_trainer_class() if cfg.dynamic_sampling else GRPOTrainer
    return cls(
        model=model,
        reward_funcs=funcs,
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        peft_config=cfg.lora.to_peft() if cfg.lora else None,
    )


def _reward_metrics(trainer: Any, pool: dict[str, Any]) -> dict[str, float]:
    history = trainer.state.log_history
    rewards = [float(e["reward"]) for e in history if "reward" in e]
    kept = [
        float(e["dynamic_sampling/kept_groups"])
        for e in history
        if "dynamic_sampling/kept_groups" in e
    ]
    out = {f"pool/{k}": float(v) for k, v in pool.items()}
    if kept:
        out["dynamic_sampling/kept_groups"] = sum(kept) / len(kept)
    if rewards:
        k = max(1, len(rewards) // 5)
        out["reward_first"] = sum(rewards[:k]) / k
        out["reward_last"] = sum(rewards[-k:]) / k
    return out


def main(cfg: DAPOStageConfig, evaluator: ModelEvaluator | None = None) -> StageResult:
    """Run one DAPO round; returns its report (``output_dir/stage_result.json``)."""
    pool: dict[str, Any] = {}
    run = StageRun(
        cfg.stage_name,
        lambda model, tok: build_trainer(cfg, model, tok, pool),
        lambda trainer: _reward_metrics(trainer, pool),
    )
    return run_stage(cfg, run, evaluator)
