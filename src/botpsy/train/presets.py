"""Recipe presets: the same stages (SFT, distillation, balance, DAPO twice, export) sized
for a test model, the shipped model and a GPU run.

- ``tiny``: a random 2-layer Qwen3 (hidden 32) with a tokenizer trained in code;
  the whole recipe small enough for tests, CI and smoke runs.
- ``smol``: SmolLM2-135M-Instruct, dequantized from the shipped Q4_1 GGUF; bf16
  autocast; every stage checkpoints and resumes; sized for one sitting on 2 CPU cores
  (the run's time is in its report, docs/training/smol/recipe_report.md).
- ``qwen3.5-0.8b``: the release's setting (Qwen3.5-0.8B, qwen35 format) for
  several GPUs: DeepSpeed through ``accelerate``, vLLM for RL rollouts. It needs
  the HF model folder (no hub access here) and is written out as a launch bundle
  (configs + ``launch.sh``), not run in-process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from botpsy.backends.model_files import default_model_path
from botpsy.train.adapter_rl import FINAL_ADAPTER, LOWRANK_STAGE, AdapterRL
from botpsy.train.common import LoraSettings, StageCommon
from botpsy.train.dapo import HARD, DAPOStageConfig
from botpsy.train.data import DataConfig
from botpsy.train.distill import DistillStageConfig, TeacherSettings
from botpsy.train.export import ExportConfig
from botpsy.train.sft import SFTStageConfig
from botpsy.train.tiny import TinySpec

BALANCE_STAGE = "balance"
# The balance phase: a few SFT steps before RL on fresh conversations, half of them with no
# fitting tool, the rest calls of every kind. SFT on the whole mix leaves the decision to call
# unsettled (BFCL irrelevance swung widely over runs of the same recipe), and more no-call
# samples in that mix did not settle it. A few steps on this mix taught the SFT model to
# leave the tools alone where none fits, without losing its calls; but distillation after
# it, from teachers trained on the main mix, undid that, so the phase comes after
# distillation, right before RL (the training guide, docs/training/README.md).
BALANCE_KIND_WEIGHTS: dict[str, float] = {
    "single": 0.12,
    "multiple": 0.14,
    "parallel": 0.1,
    "parallel_multiple": 0.08,
    "irrelevance": 0.5,
    "multi_turn": 0.06,
}
# The balance data's share of conversations under the on-device assistant's prompt (twice the
# main mix's), each offering the tools the assistant's selector would show for its request
# where those hold the right ones: the first balance model made no call in 35 of the 74
# assistant scenarios (docs/training/smol/balance).
ASSISTANT_BALANCE: dict[str, float] = {"assistant_prompt_share": 0.5, "assistant_tools_share": 1.0}
# Share of the balance conversations outside the assistant's prompt whose tools are Java or
# JavaScript bindings taking every value as source text (botpsy.train.source_text): the
# adapter before it wrote true and 3 for string parameters in 8 of the first 40 BFCL Java and
# JavaScript cases. In the balance data, not SFT's, so that a run can resume SFT and
# distillation and change this alone (docs/training/smol/source-text).
BALANCE_SOURCE_TEXT_SHARE = 0.4


@dataclass
class RecipePlan:
    """Every stage's config, chained through fixed folders (``<out>/<stage>/model``)."""

    preset: str
    out_dir: str
    base_model: str
    base_source: str  # "tiny", "gguf:<path>" (dequantize) or "given"
    data: DataConfig
    sft: SFTStageConfig
    distill: DistillStageConfig
    dapo1: DAPOStageConfig
    dapo2: DAPOStageConfig
    export: ExportConfig | None = None
    tiny: TinySpec | None = None
    launch_only: bool = False  # write configs + launch script instead of running
    adapter_rl: AdapterRL | None = None  # DAPO as LoRA over the truncated model (adapter_rl)
    # Each stage in a fresh process (botpsy.train.isolate): one long process was killed for
    # memory in DAPO round 2. Off for tiny: a spawned child's imports cost more than its run.
    stage_processes: bool = False
    # An SFT phase on a balanced call/no-call mix before RL (its own data, see with_balance).
    balance: SFTStageConfig | None = None
    balance_data: DataConfig | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def stages(self) -> list[StageCommon]:
        """The stage configs in training order."""
        balance: list[StageCommon] = [self.balance] if self.balance else []
        return [self.sft, self.distill, *balance, self.dapo1, self.dapo2]

    @property
    def before_rl(self) -> str:
        """The model RL starts from (or, with adapter-aware RL, whose change is truncated)."""
        return str(Path((self.balance or self.distill).output_dir) / "model")


@dataclass(frozen=True)
class Paths:
    out: Path

    def file(self, name: str) -> str:
        return str(self.out / "data" / name)

    def stage(self, name: str) -> str:
        return str(self.out / name)

    def model(self, name: str) -> str:
        return str(self.out / name / "model")


def with_balance(plan: RecipePlan, data: DataConfig, **sft: object) -> RecipePlan:
    """``plan`` with the balance phase: SFT's config at half its learning rate, with ``sft``
    overrides, trained from the distilled model on ``data`` (kinds from
    ``BALANCE_KIND_WEIGHTS``) saved under ``<out>/data/balance``; DAPO round 1 starts from
    its model."""
    if plan.adapter_rl:
        raise ValueError("add the balance phase before adapter-aware RL (with_adapter_rl)")
    p = Paths(Path(plan.out_dir))
    balance = replace(
        plan.sft,
        model=p.model("distill"),
        output_dir=p.stage(BALANCE_STAGE),
        train_file=p.file(f"{BALANCE_STAGE}/train.jsonl"),
        stage_name=BALANCE_STAGE,
        **{"learning_rate": plan.sft.learning_rate / 2, **sft},
    )
    data = replace(data, kind_weights=dict(BALANCE_KIND_WEIGHTS))
    dapo1 = replace(plan.dapo1, model=p.model(BALANCE_STAGE))
    return replace(plan, balance=balance, balance_data=data, dapo1=dapo1)


def _chain(
    p: Paths, base: str, fmt: str, common: dict, sft: dict, distill: dict, dapo: dict, dapo2: dict
) -> tuple[SFTStageConfig, DistillStageConfig, DAPOStageConfig, DAPOStageConfig]:
    files = {
        "train_file": p.file("train.jsonl"),
        "val_file": p.file("validation.jsonl"),
        "format": fmt,
    }
    return (
        SFTStageConfig(model=base, output_dir=p.stage("sft"), **files, **common, **sft),
        DistillStageConfig(
            model=p.model("sft"), output_dir=p.stage("distill"), **files, **common, **distill
        ),
        DAPOStageConfig(
            model=p.model("distill"),
            output_dir=p.stage("dapo1"),
            stage_name="dapo1",
            **files,
            **common,
            **dapo,
        ),
        DAPOStageConfig(
            model=p.model("dapo1"),
            output_dir=p.stage("dapo2"),
            stage_name="dapo2",
            kinds=HARD,
            **files,
            **common,
            **{**dapo, **dapo2},
        ),
    )


def tiny(out_dir: str, base_model: str | None = None) -> RecipePlan:
    p = Paths(Path(out_dir))
    common = {
        "val_samples": 8,
        "val_max_new_tokens": 40,
        "save_steps": 1000,
        "seed": 0,
        "threads": 1,
    }
    teacher = TeacherSettings(max_steps=12, learning_rate=3e-3, batch_size=4)
    rl = {
        "max_steps": 3,
        "learning_rate": 1e-4,
        "batch_size": 8,
        "num_generations": 4,
        "max_completion_length": 32,
        "overlong_cache": 8,
        "pool_target": 6,
        "kind_shares": {"irrelevance": 0.34},  # 2 of 6
    }
    sft, distill, dapo1, dapo2 = _chain(
        p,
        base_model or str(p.out / "base"),
        "hermes",
        common,
        sft={"max_steps": 60, "learning_rate": 5e-3, "batch_size": 8},
        distill={
            "max_steps": 4,
            "learning_rate": 1e-3,
            "batch_size": 4,
            "max_completion_length": 24,
            "teacher": teacher,
        },
        dapo=rl,
        dapo2={},
    )
    plan = RecipePlan(
        preset="tiny",
        out_dir=out_dir,
        base_model=sft.model,
        base_source="given" if base_model else "tiny",
        data=DataConfig(n_samples=240, seed=0, val_fraction=0.1, max_distractors=1),
        sft=sft,
        distill=distill,
        dapo1=dapo1,
        dapo2=dapo2,
        tiny=TinySpec(),
        export=ExportConfig(
            model_dir=p.model("dapo2"), out_dir=str(p.out / "gguf"), name="botpsy-tiny"
        ),
    )
    # The balance phase on data of a seed of its own.
    balance_data = DataConfig(n_samples=60, seed=7, val_fraction=0.1, max_distractors=1)
    return with_balance(plan, balance_data, max_steps=8)


def smol(out_dir: str, base_model: str | None = None) -> RecipePlan:
    p = Paths(Path(out_dir))
    common = {
        "bf16": True,
        "val_samples": 16,
        "val_max_new_tokens": 192,  # room for three parallel calls (see max_completion_length)
        "save_steps": 20,
        "seed": 0,
    }
    rl = {
        "max_steps": 6,
        "learning_rate": 1e-5,  # a smaller rate left the weights practically unchanged
        "batch_size": 8,
        "num_generations": 4,
        # Room for the longest reference answers: a shorter limit truncated parallel calls
        # and punished them as overlong, so DAPO taught dropping parallel calls.
        "max_completion_length": 192,
        "overlong_cache": 32,
        "pool_target": 12,  # 6 steps x 2 prompts: each informative prompt used once
        "filter_max_new_tokens": 192,
        # Half of round 1's prompts (and 2 of round 2's 12) have no suitable tool: drawn
        # uniformly they got few places and BFCL irrelevance did not move; with these shares
        # it rises over SFT and both rounds. A larger share in round 2 raised it further but
        # left some of the assistant's own requests uncalled.
        "kind_shares": {"irrelevance": 0.5},
    }
    sft, distill, dapo1, dapo2 = _chain(
        p,
        base_model or str(p.out / "base"),
        "hermes",
        common,
        sft={
            "max_steps": 96,  # 96 x 8 conversations: about one pass over the training split
            "learning_rate": 1e-4,
            "batch_size": 4,
            "grad_accum": 2,
            "max_length": 1024,
        },
        distill={
            "max_steps": 4,
            "learning_rate": 1e-5,
            "batch_size": 4,
            "max_completion_length": 64,
            "teacher": TeacherSettings(max_steps=6, learning_rate=5e-5, batch_size=4),
        },
        dapo=rl,
        dapo2={"kind_shares": {"irrelevance": 0.17}},  # 2 of 12
    )
    plan = RecipePlan(
        preset="smol",
        out_dir=out_dir,
        base_model=sft.model,
        base_source="given" if base_model else f"gguf:{default_model_path()}",
        stage_processes=True,
        # Under the assistant's prompt (40% of the conversations, not 25%), call samples ask
        # for its own tools: with other tools there, add_reminder was rarely a target, and the
        # shipped adapter answered every "remind me" with list_reminders.
        data=DataConfig(
            n_samples=900,
            seed=0,
            val_fraction=0.05,
            max_distractors=3,
            assistant_prompt_share=0.4,
            assistant_tools_share=1.0,
        ),
        sft=sft,
        distill=distill,
        dapo1=dapo1,
        dapo2=dapo2,
        export=ExportConfig(
            model_dir=p.model("dapo2"), out_dir=str(p.out / "gguf"), name="botpsy-smollm2-135m"
        ),
        notes=[
            (
                "Sized for one sitting on 2 CPU cores, BFCL scoring included (the stages' "
                "times are in the run's recipe_report.md): SFT 96 steps, three teachers x 6 "
                "steps, distillation 4 steps, balance 16 "
                "steps, DAPO 2 x 6 steps. The later stages are smoke-scale here: raise max_steps (and n_samples) "
                "where more compute is at hand"
            )
        ],
    )
    # 16 steps of 8 fresh conversations (~128 of the 244) at half SFT's learning rate (the
    # seed gives conversations none of SFT's share). Half of
    # them under the assistant's prompt, offering what its tool selector would show where it
    # can (ASSISTANT_BALANCE): the first balance model declined the assistant's own requests.
    # A share of the rest declares its tools as Java/JavaScript bindings taking source text
    # (BALANCE_SOURCE_TEXT_SHARE).
    balance_data = DataConfig(
        n_samples=260,
        seed=7,
        val_fraction=0.05,
        max_distractors=3,
        source_text_share=BALANCE_SOURCE_TEXT_SHARE,
        **ASSISTANT_BALANCE,
    )
    return with_balance(plan, balance_data, max_steps=16)


def qwen35_08b(out_dir: str, base_model: str | None = None) -> RecipePlan:
    if not base_model:
        raise ValueError(
            "the qwen3.5-0.8b preset needs --base-model: a local HF folder of Qwen3.5-0.8B"
        )
    p = Paths(Path(out_dir))
    common = {
        "bf16": True,
        "gradient_checkpointing": True,
        "val_samples": 256,
        "val_max_new_tokens": 512,
        "save_steps": 200,
        "seed": 0,
    }
    rl = {
        "max_steps": 400,
        "learning_rate": 1e-6,
        "batch_size": 16,
        "num_generations": 8,
        "max_completion_length": 1024,
        "overlong_cache": 256,
        "pool_target": 4096,
        "use_vllm": True,
        "vllm_mode": "colocate",
        "filter_max_new_tokens": 512,
    }
    sft, distill, dapo1, dapo2 = _chain(
        p,
        base_model,
        "qwen35",
        common,
        sft={
            "epochs": 2.0,
            "learning_rate": 1e-5,
            "batch_size": 8,
            "grad_accum": 4,
            "max_length": 8192,
        },
        distill={
            "max_steps": 1000,
            "learning_rate": 5e-6,
            "batch_size": 8,
            "max_completion_length": 1024,
            "teacher": TeacherSettings(
                max_steps=2000, learning_rate=1e-5, batch_size=8, lora=LoraSettings(r=64, alpha=128)
            ),
        },
        dapo=rl,
        dapo2={"max_steps": 200},
    )
    plan = RecipePlan(
        preset="qwen3.5-0.8b",
        out_dir=out_dir,
        base_model=base_model,
        base_source="given",
        data=DataConfig(n_samples=60000, seed=0, val_fraction=0.02),
        sft=sft,
        distill=distill,
        dapo1=dapo1,
        dapo2=dapo2,
        export=ExportConfig(
            model_dir=p.model("dapo2"), out_dir=str(p.out / "gguf"), name="botpsy-qwen3.5-0.8b"
        ),
        launch_only=True,
        notes=[
            (
                "Give the three specialist teachers (e.g. Qwen3.5-4B fine-tunes) in distill.teachers; "
                "without them the recipe makes same-size teachers with the SFT code."
            ),
            (
                "The last step exports the final model with llama.cpp's own converter "
                "(Qwen3.5's hybrid qwen35 GGUF) and quantizer"
            ),
        ],
    )
    balance_data = DataConfig(n_samples=4000, seed=7, val_fraction=0.02, **ASSISTANT_BALANCE)
    return with_balance(plan, balance_data, max_steps=200)


PRESETS: dict[str, Callable[[str, str | None], RecipePlan]] = {
    "tiny": tiny,
    "smol": smol,
    "qwen3.5-0.8b": qwen35_08b,
}


def with_user_recipes(plan: RecipePlan, recipes_file: str, only: bool = False) -> RecipePlan:
    """``plan`` trained on the user's own tools (a JSON list of ``ToolRecipe``, see
    docs/training/your-tools.md) as well as the catalog's, or (``only``) on them alone:
    in the main data and in the balance phase's."""
    data = replace(plan.data, recipes_file=recipes_file, only_user_recipes=only)
    balance_data = plan.balance_data and replace(
        plan.balance_data, recipes_file=recipes_file, only_user_recipes=only
    )
    note = f"Tool recipes from {recipes_file}" + (" alone" if only else " beside the catalog's")
    return replace(plan, data=data, balance_data=balance_data, notes=[*plan.notes, note])


def _scaled_stage(stage: StageCommon, factor: int) -> StageCommon:
    steps = {} if stage.max_steps == -1 else {"max_steps": stage.max_steps * factor}
    extra: dict[str, object] = {}
    if isinstance(stage, DistillStageConfig):
        extra["teacher"] = replace(stage.teacher, max_steps=stage.teacher.max_steps * factor)
    if isinstance(stage, DAPOStageConfig) and stage.pool_target is not None:
        extra["pool_target"] = stage.pool_target * factor
    return replace(stage, save_steps=stage.save_steps * factor, **steps, **extra)


def with_scale(plan: RecipePlan, factor: int) -> RecipePlan:
    """``plan`` with ``factor`` times the data and the steps of every stage (teachers', and
    the prompts each DAPO round keeps, too), the same learning rates and batches.

    Why: the presets are sized to what their machine does in one sitting; the smol
    preset's later stages are smoke-scale on 2 CPU cores (4-16 steps), and on the full
    BFCL set its result needs more steps than that (the README's limits). ``--scale 30``
    runs the same recipe where a GPU makes 30x the work an hour's job. Checkpoints keep
    their spacing in stage progress (``save_steps`` scales too)."""
    if factor < 1:
        raise ValueError(f"scale must be >= 1, got {factor}")
    if factor == 1:
        return plan
    balance_data = plan.balance_data and replace(
        plan.balance_data, n_samples=plan.balance_data.n_samples * factor
    )
    return replace(
        plan,
        data=replace(plan.data, n_samples=plan.data.n_samples * factor),
        balance_data=balance_data,
        sft=_scaled_stage(plan.sft, factor),
        distill=_scaled_stage(plan.distill, factor),
        balance=plan.balance and _scaled_stage(plan.balance, factor),
        dapo1=_scaled_stage(plan.dapo1, factor),
        dapo2=_scaled_stage(plan.dapo2, factor),
        notes=[*plan.notes, f"Scaled x{factor}: data, steps and checkpoint spacing of every stage"],
    )


def with_adapter_rl(plan: RecipePlan, settings: AdapterRL) -> RecipePlan:
    """``plan`` with adapter-aware RL: both DAPO rounds train LoRA over the rank-truncated
    distillation model, and the export writes the exact final adapter over the base."""
    if plan.launch_only:
        raise ValueError(f"preset {plan.preset!r} runs elsewhere; adapter RL runs in-process")
    if settings.balance_rank and not plan.balance:
        raise ValueError(f"preset {plan.preset!r} has no balance phase to keep ranks for")
    p = Paths(Path(plan.out_dir))
    rl = {"lora": settings.lora(), "learning_rate": settings.learning_rate}
    export = plan.export or ExportConfig(model_dir="", out_dir=str(p.out / "gguf"))
    return replace(
        plan,
        adapter_rl=settings,
        dapo1=replace(plan.dapo1, model=p.model(LOWRANK_STAGE), **rl),
        dapo2=replace(plan.dapo2, **rl),
        export=replace(
            export,
            model_dir=plan.base_model,
            adapter_dir=p.stage(FINAL_ADAPTER),
            adapter_dtype=settings.adapter_dtype,
        ),
        notes=[
            *plan.notes,
            (
                f"Adapter-aware RL: DAPO trains rank-{settings.rl_rank} LoRA (lr "
                f"{settings.learning_rate:g}) over the rank-{settings.describe()} truncation of "
                f"the change before RL{_balance_share(settings)}; the final adapter has rank "
                f"{settings.describe(final=True)}"
            ),
        ],
    )


def _balance_share(settings: AdapterRL) -> str:
    if not settings.balance_rank:
        return ""
    return f" ({settings.balance_rank} of the ranks truncate the balance phase's own change)"


# What every stage keeps at smoke scale: a couple of optimiser steps of two conversations,
# in float32 on the CPU, no validation generations, no checkpoints along the way.
_SMOKE_STAGE = {"batch_size": 2, "grad_accum": 1, "bf16": False, "gradient_checkpointing": False,
                "val_samples": 0, "save_steps": 1000, "threads": 1, "epochs": 1.0}
_SMOKE_RL = {"max_steps": 1, "num_generations": 2, "max_completion_length": 48,
             "overlong_cache": 8, "use_vllm": False, "dynamic_sampling": False,
             "pool_target": None, "kind_shares": {}, "filter_max_new_tokens": None}


def with_smoke_scale(plan: RecipePlan) -> RecipePlan:
    """``plan`` cut to 1-2 CPU steps per stage on a few dozen conversations, run in this
    process, then exported to Q8_0: the path a preset's stages take (its formats, teachers'
    LoRA, losses, the export), checked in minutes on a tiny model, as the tests check the
    ``qwen3.5-0.8b`` preset on a tiny Qwen3.5.

    DAPO keeps every prompt (no dynamic sampling): an untrained model's rollouts rarely
    differ in reward, and the pool filter would rightly find none worth training on. vLLM
    rollouts are GPU-only, so they are off."""
    p = Paths(Path(plan.out_dir))
    sft = replace(plan.sft, **_SMOKE_STAGE, max_steps=2, max_length=512)
    teacher = replace(plan.distill.teacher, max_steps=1, batch_size=2)
    distill = replace(plan.distill, **_SMOKE_STAGE, max_steps=1, max_completion_length=16,
                      teacher=teacher)
    balance = plan.balance and replace(plan.balance, **_SMOKE_STAGE, max_steps=1, max_length=512)
    dapo1, dapo2 = (replace(s, **_SMOKE_STAGE, **_SMOKE_RL) for s in (plan.dapo1, plan.dapo2))
    name = plan.export.name if plan.export else f"botpsy-{plan.preset}"
    export = ExportConfig(model_dir=p.model("dapo2"), out_dir=str(p.out / "gguf"), name=name,
                          quants=["Q8_0"], threads=1)
    return replace(
        plan,
        data=replace(plan.data, n_samples=40, val_fraction=0.1),
        balance_data=plan.balance_data and replace(plan.balance_data, n_samples=20),
        sft=sft, distill=distill, balance=balance, dapo1=dapo1, dapo2=dapo2, export=export,
        launch_only=False,
        stage_processes=False,
        notes=[*plan.notes, "Smoke scale: 1-2 CPU steps per stage, no dynamic sampling, no vLLM"],
    )


def get_preset(name: str, out_dir: str, base_model: str | None = None) -> RecipePlan:
    try:
        factory = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None
    return factory(out_dir, base_model)
