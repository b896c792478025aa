"""Dynamic sampling: all-equal reward groups are dropped, the pool is refilled up to a target."""

from __future__ import annotations

import pytest

from botpsy.train.dynamic import filter_prompt_pool, informative, weighted_rewards


def test_informative_flags_groups_whose_rewards_differ():
    assert informative([1, 1, 1, 1, 0, 1, 0, 0, 0.5, 0.5, 0.5, 0.5], 4) == [False, True, False]
    assert informative([0.2, 0.2 + 1e-9], 2) == [False]  # float noise is agreement
    with pytest.raises(ValueError, match="groups of 4"):
        informative([1, 2, 3], 4)


def test_weighted_rewards_combine_like_trl():
    def a(completions, **_):
        return [1.0 for _ in completions]

    def b(completion_ids, **_):
        return [float(len(ids)) for ids in completion_ids]

    assert weighted_rewards([a, b], [0.5, 2.0], {}, ["p", "p"], ["x", "y"], [[1], [1, 2]]) == [
        2.5,
        4.5,
    ]


def test_a_reward_with_no_say_on_a_row_adds_nothing_there_like_trls_nansum():
    def a(completions, **_):
        return [1.0 for _ in completions]

    def only_second(completions, **_):
        return [None, 0.5]

    assert weighted_rewards(
        [a, only_second], [1.0, 2.0], {}, ["p", "p"], ["x", "y"], [[1], [1]]
    ) == [
        1.0,
        2.0,
    ]


def _by_row(prompts, completions, kind, **_):
    """Constant reward for 'flat' prompts; a reward that depends on the sampled text otherwise."""
    return [
        1.0 if k == "flat" else (sum(map(ord, text)) % 97) / 97
        for k, text in zip(kind, completions)
    ]


def test_pool_filter_drops_all_equal_groups_and_refills(tiny_model_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    rows = [
        {
            "prompt": f"<|im_start|>user\nrequest {i}<|im_end|>\n<|im_start|>assistant\n",
            "kind": "flat" if i % 2 else "varied",
        }
        for i in range(8)
    ]
    result = filter_prompt_pool(
        model, tokenizer, rows, [_by_row], [1.0], group=4, max_new_tokens=6, seed=0
    )
    assert sorted(r["prompt"] for r in result.rows) == sorted(
        r["prompt"] for r in rows if r["kind"] == "varied"
    )
    assert (result.examined, result.dropped) == (8, 4)

    limited = filter_prompt_pool(
        model,
        tokenizer,
        rows,
        [_by_row],
        [1.0],
        group=4,
        max_new_tokens=6,
        target=2,
        batch_prompts=2,
        seed=0,
    )
    assert len(limited.rows) == 2 and all(r["kind"] == "varied" for r in limited.rows)
    assert limited.examined < len(rows)  # stopped drawing once the target was met


def test_trainer_masks_all_equal_groups_inside_a_batch(tiny_model_dir, tmp_path):
    """The in-step half: a flat group's completions leave the loss and its token count."""
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig

    from botpsy.train.dynamic import dynamic_sampling_trainer_class

    rows = [
        {"prompt": f"<|im_start|>user\nask {i}<|im_end|>\n<|im_start|>assistant\n", "kind": kind}
        for i, kind in enumerate(["flat", "varied"])
    ]
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=8, num_generations=4,
        max_completion_length=6, loss_type="dapo", use_cpu=True, bf16=False, report_to=[],
        activation_checkpointing=False,
    )  # fmt: skip
    trainer = dynamic_sampling_trainer_class()(
        model=AutoModelForCausalLM.from_pretrained(tiny_model_dir),
        reward_funcs=[_by_row],
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=AutoTokenizer.from_pretrained(tiny_model_dir),
    )
    trainer.model.train()
    batch = trainer._generate_and_score_completions([rows[0]] * 4 + [rows[1]] * 4)
    mask = batch["completion_mask"]
    assert mask[:4].sum() == 0  # the flat group is out
    assert mask[4:].sum() > 0  # the varied group stays
    assert int(batch["num_items_in_batch"]) == int(mask.sum())
    assert trainer._metrics["train"]["dynamic_sampling/kept_groups"] == [0.5]
