"""DAPO's dynamic sampling, as far as TRL allows it cleanly.

A group of rollouts whose rewards all agree has zero advantage: it adds no
gradient, yet under DAPO's token-level loss it still dilutes the batch. DAPO
drops such groups and samples more prompts until the batch is full of
informative ones. TRL has no hook to resample inside a step, so botpsy splits
the idea in two parts that need no change to TRL's loop:

1. **Refill, between rounds** (``filter_prompt_pool``): before a DAPO round, a
   cheap rollout of ``G`` samples per prompt with the current policy scores the
   prompt pool with the same reward functions; prompts whose rewards all agree
   are dropped, and drawing continues until ``target`` informative prompts are
   kept. Training then runs on prompts that carry signal for this policy.
2. **Drop, inside every step** (``DynamicSamplingGRPOTrainer``): groups that
   still come out all-equal during training (the policy moves) get their
   completion mask zeroed and the token count recomputed, so they neither
   contribute nor dilute the DAPO normalisation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

RewardFunc = Callable[..., list[float | None]]  # None: no say on that row (as in TRL)


def informative(rewards: Sequence[float], group_size: int, tol: float = 1e-6) -> list[bool]:
    """For each group of ``group_size`` consecutive rewards: do they not all agree?"""
    if group_size < 2 or len(rewards) % group_size:
        raise ValueError(
            f"{len(rewards)} rewards do not split into groups of {group_size} (need >= 2)"
        )
    groups = [rewards[i : i + group_size] for i in range(0, len(rewards), group_size)]
    return [max(g) - min(g) > tol for g in groups]


def weighted_rewards(
    funcs: Sequence[RewardFunc],
    weights: Sequence[float],
    columns: dict[str, list[Any]],
    prompts: list[str],
    completions: list[str],
    completion_ids: list[list[int]],
) -> list[float]:
    """The combined reward TRL would compute (weighted sum of every function)."""
    total = [0.0] * len(completions)
    for func, weight in zip(funcs, weights, strict=True):
        values = func(
            prompts=prompts, completions=completions, completion_ids=completion_ids, **columns
        )
        total = [
            t + weight * (v if v is not None else 0.0) for t, v in zip(total, values, strict=True)
        ]
    return total


@dataclass
class PoolFilterResult:
    """Which prompts carry signal for the current policy."""

    rows: list[dict[str, Any]]
    examined: int
    dropped: int
    mean_reward: float
    reward_by_row: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, rows: list[dict[str, Any]], examined: int, means: list[float]) -> PoolFilterResult:
        """The result of keeping ``rows`` of ``examined`` prompts whose groups' mean rewards
        were ``means``: what was dropped and the overall mean follow from those."""
        mean = sum(means) / max(len(means), 1)
        return cls(rows, examined, examined - len(rows), mean, means)


def _rollouts(
    model: Any,
    tokenizer: Any,
    prompts: list[str],
    group: int,
    max_new_tokens: int,
    temperature: float,
) -> tuple[list[str], list[list[int]]]:
    """``group`` sampled completions per prompt (texts and token ids up to the first EOS)."""
    import torch

    tokenizer.padding_side = "left"
    batch = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False).to(
        model.device
    )
    with torch.no_grad():
        out = model.generate(
            **batch,
            do_sample=True,
            temperature=temperature,
            top_p=1.0,
            top_k=0,
            num_return_sequences=group,
            max_new_tokens=max_new_tokens,
            pad_token_id=tokenizer.pad_token_id,
        )
    new = out[:, batch["input_ids"].shape[1] :].tolist()
    stops = set(
        model.generation_config.eos_token_id
        if isinstance(model.generation_config.eos_token_id, list)
        else [model.generation_config.eos_token_id, tokenizer.eos_token_id]
    )
    ids = []
    for seq in new:
        end = next((i + 1 for i, t in enumerate(seq) if t in stops), len(seq))
        ids.append(seq[:end])
    return tokenizer.batch_decode(ids, skip_special_tokens=True), ids


def filter_prompt_pool(
    model: Any,
    tokenizer: Any,
    rows: list[dict[str, Any]],
    funcs: Sequence[RewardFunc],
    weights: Sequence[float],
    group: int,
    max_new_tokens: int,
    target: int | None = None,
    batch_prompts: int = 4,
    temperature: float = 1.0,
    seed: int = 0,
) -> PoolFilterResult:
    """Keep prompts whose ``group`` rollouts do not all get the same reward, drawing
    from the shuffled pool until ``target`` are kept (or the pool is used up)."""
    import torch

    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    torch.manual_seed(seed)
    kept: list[dict[str, Any]] = []
    means: list[float] = []
    examined = 0
    was_training = model.training
    model.eval()
    try:
        for start in range(0, len(order), batch_prompts):
            if target is not None and len(kept) >= target:
                break
            chunk = [rows[i] for i in order[start : start + batch_prompts]]
            prompts = [row["prompt"] for row in chunk for _ in range(group)]
            texts, ids = _rollouts(
                model,
                tokenizer,
                [row["prompt"] for row in chunk],
                group,
                max_new_tokens,
                temperature,
            )
            columns = {
                key: [row[key] for row in chunk for _ in range(group)]
                for key in chunk[0]
                if key != "prompt"
            }
            rewards = weighted_rewards(funcs, weights, columns, prompts, texts, ids)
            for row, keep, lo in zip(
                chunk, informative(rewards, group), range(0, len(rewards), group)
            ):
                means.append(sum(rewards[lo : lo + group]) / group)
                if keep and (target is None or len(kept) < target):
                    kept.append(row)
            examined += len(chunk)
    finally:
        model.train(was_training)
    return PoolFilterResult.of(kept, examined, means)


def dynamic_sampling_trainer_class() -> type:
    """``GRPOTrainer`` that masks out all-equal reward groups inside every generation batch."""
    import torch
    from trl import GRPOTrainer

    class DynamicSamplingGRPOTrainer(GRPOTrainer):
        def _calculate_rewards(
            self, inputs: Any, prompts: Any, completions: Any, completion_ids_list: Any
        ) -> Any:
            rewards = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
            self._gathered_rewards = rewards  # (all processes' rows, functions)
            return rewards

        def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
            output = super()._generate_and_score_completions(inputs)
            if not self.model.training:
                return output
            weights = self.reward_weights.to(self._gathered_rewards.device)
            totals = (self._gathered_rewards * weights.unsqueeze(0)).nansum(dim=1).tolist()
            groups = informative(totals, self.num_generations)
            keep = torch.tensor(groups, device=self.accelerator.device).repeat_interleave(
                self.num_generations
            )
            local = keep[
                self.accelerator.process_index * len(inputs) : (self.accelerator.process_index + 1)
                * len(inputs)
            ]
            output["completion_mask"] = output["completion_mask"] * local.unsqueeze(1).to(
                output["completion_mask"].dtype
            )
            loss_mask = output["completion_mask"] * output.get("tool_mask", 1)
            output["num_items_in_batch"] = self.accelerator.gather(loss_mask.sum()).sum()
            self._metrics["train"]["dynamic_sampling/kept_groups"].append(sum(groups) / len(groups))
            return output

    return DynamicSamplingGRPOTrainer
