"""``botpsy train ...``: data, the four stages, the whole recipe, GGUF export.

Stage commands take a JSON config (the stage dataclass, e.g. written by
``recipe --preset qwen3.5-0.8b``) and/or flags that override it, so the same
command runs in-process or under ``accelerate launch -m botpsy.train.cli``.
Heavy imports live inside the commands to keep ``botpsy --help`` fast.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import asdict
from difflib import get_close_matches
from pathlib import Path
from typing import Annotated, Any

import typer

from botpsy.backends.model_files import default_model_path, is_hf_model_folder

app = typer.Typer(
    help="Train a small tool-calling model: data, SFT, distillation, DAPO, export.",
    no_args_is_help=True,
)

Config = Annotated[Path | None, typer.Option("--config", help="JSON file with the stage config")]
Model = Annotated[str | None, typer.Option("--model", help="input HF model folder")]
Out = Annotated[str | None, typer.Option("--out", help="output folder of the stage")]
Train = Annotated[
    str | None, typer.Option("--train", help="training data (OpenAI JSONL, xLAM or Hermes)")
]
Val = Annotated[str | None, typer.Option("--val", help="validation data (botpsy JSONL)")]
Steps = Annotated[int | None, typer.Option("--max-steps", help="optimizer steps (beats epochs)")]
OutDir = Annotated[Path, typer.Option("--out", help="output folder")]


def _stage_config(cls: type, config: Path | None, **flags: Any) -> Any:
    """The config from ``--config`` (if any) with the given flags laid over it. A key the
    config class does not know is refused (a misspelt "learnng_rate" used to train with
    the default), and so is a file that is not a JSON object."""
    from pydantic import TypeAdapter, ValidationError

    raw = _config_file(config) if config else {}
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - known)
    if unknown:
        hints = [f"{k!r} (did you mean {close[0]!r}?)" if (close := get_close_matches(k, known, 1))
                 else repr(k) for k in unknown]
        raise typer.BadParameter(f"{config}: unknown {cls.__name__} keys {', '.join(hints)}")
    raw.update({k: v for k, v in flags.items() if v is not None})
    try:
        return TypeAdapter(cls).validate_python(raw)
    except ValidationError as exc:
        raise typer.BadParameter(f"invalid {cls.__name__}: {exc}") from exc


def _inputs(cfg: Any) -> Any:
    """``cfg`` once its model folder and data files are there: botpsy loads models from
    disk only (a missing folder used to become a hub download that fails offline)."""
    _model_folder(cfg.model, "--model")
    for option, path in (("--train", cfg.train_file), ("--val", cfg.val_file)):
        if path and not Path(path).is_file():
            raise typer.BadParameter(f"{option} {path}: no such file")
    return cfg


def _model_folder(path: str | Path, option: str) -> None:
    if not is_hf_model_folder(path):
        raise typer.BadParameter(
            f"{option} {path}: not a local Hugging Face model folder (no config.json); "
            "`botpsy train import-gguf` makes one from a GGUF"
        )


def _config_file(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise typer.BadParameter(f"cannot read --config {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"--config {path} is not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise typer.BadParameter(f"--config {path} must hold a JSON object of settings")
    return raw


def _stage_flags(
    model: str | None, out: str | None, train: str | None, val: str | None, max_steps: int | None
) -> dict[str, Any]:
    """The options every stage command takes, under the names the stage configs give them."""
    return {
        "model": model,
        "output_dir": out,
        "train_file": train,
        "val_file": val,
        "max_steps": max_steps,
    }


def _show(result: Any) -> None:
    from pydantic import BaseModel

    if isinstance(result, BaseModel):
        typer.echo(result.model_dump_json(indent=2, exclude={"train_loss"}))
    else:
        typer.echo(json.dumps(asdict(result), indent=2, default=str))


@app.command()
def data(
    out: OutDir,
    config: Config = None,
    n: Annotated[int | None, typer.Option("--n", help="number of samples")] = None,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    val_fraction: Annotated[float | None, typer.Option("--val-fraction")] = None,
    recipes: Annotated[
        Path | None, typer.Option("--recipes", help="JSON list of your own tool recipes")
    ] = None,
    max_distractors: Annotated[int | None, typer.Option("--max-distractors")] = None,
    name_style_share: Annotated[
        float | None,
        typer.Option(
            "--name-style-share",
            min=0.0,
            max=1.0,
            help="share of samples whose tools are renamed in another API style "
            "(mail.send_email, MailClient.sendEmail; default 0.3)",
        ),
    ] = None,
    assistant_tools_share: Annotated[
        float | None,
        typer.Option(
            "--assistant-tools-share",
            min=0.0,
            max=1.0,
            help="share of the call samples under the assistant's system prompt that ask for "
            "one of its own tools, offered what its tool selector would show, as the deployed "
            "assistant does (default 0)",
        ),
    ] = None,
    source_text_share: Annotated[
        float | None,
        typer.Option(
            "--source-text-share",
            min=0.0,
            max=1.0,
            help="share of the samples outside the assistant's prompt whose tools are declared "
            'as Java or JavaScript bindings taking values as source text ("true", '
            '"new int[]{1, 2}"; default 0)',
        ),
    ] = None,
) -> None:
    """Generate synthetic tool-use conversations (train + validation + stats)."""
    from botpsy.train.data import DataConfig, generate, save  # lazy: stdnum

    cfg = _stage_config(
        DataConfig,
        config,
        n_samples=n,
        seed=seed,
        val_fraction=val_fraction,
        recipes_file=str(recipes) if recipes else None,
        max_distractors=max_distractors,
        name_style_share=name_style_share,
        assistant_tools_share=assistant_tools_share,
        source_text_share=source_text_share,
    )
    if out.exists() and not out.is_dir():
        raise typer.BadParameter(f"--out {out} is a file; give a folder")
    try:
        files = save(generate(cfg), out)
    except ValueError as exc:  # e.g. a recipes file that holds no valid recipe
        raise typer.BadParameter(str(exc)) from None
    typer.echo(files.stats.read_text(encoding="utf-8"))


@app.command()
def sft(
    config: Config = None,
    model: Model = None,
    out: Out = None,
    train: Train = None,
    val: Val = None,
    max_steps: Steps = None,
    init_adapter: Annotated[
        str | None,
        typer.Option(
            "--init-adapter",
            help="PEFT LoRA folder over --model to train further at its own ranks "
            "(e.g. a recipe's final adapter, OUT/lora)",
        ),
    ] = None,
) -> None:
    """Stage 1: supervised fine-tuning (assistant tokens only)."""
    from botpsy.train.sft import SFTStageConfig, main  # lazy: jsonschema

    flags = _stage_flags(model, out, train, val, max_steps)
    _show(main(_inputs(_stage_config(SFTStageConfig, config, **flags, init_adapter=init_adapter))))


@app.command()
def distill(
    config: Config = None,
    model: Model = None,
    out: Out = None,
    train: Train = None,
    val: Val = None,
    max_steps: Steps = None,
    teacher: Annotated[
        list[str] | None, typer.Option("--teacher", help="GROUP=MODEL_DIR, once per group")
    ] = None,
) -> None:
    """Stage 2: on-policy distillation from per-group teachers (made by SFT if none given)."""
    from botpsy.train.distill import DistillStageConfig, main  # lazy: jsonschema

    teachers = _teachers(teacher or [])
    flags = _stage_flags(model, out, train, val, max_steps)
    _show(main(_inputs(_stage_config(DistillStageConfig, config, teachers=teachers, **flags))))


@app.command()
def dapo(
    config: Config = None,
    model: Model = None,
    out: Out = None,
    train: Train = None,
    val: Val = None,
    max_steps: Steps = None,
    hard: Annotated[
        bool, typer.Option("--hard", help="only multi-step/parallel prompts (round 2)")
    ] = False,
    share: Annotated[
        list[str] | None,
        typer.Option("--share", help="KIND=FRACTION of the prompt pool, e.g. irrelevance=0.5"),
    ] = None,
    pool_target: Annotated[
        int | None,
        typer.Option(
            "--pool-target", min=1, help="informative prompts to keep (needed by --share)"
        ),
    ] = None,
) -> None:
    """Stages 3-4: one DAPO round with rule-based rewards and dynamic sampling."""
    from botpsy.train.dapo import HARD, DAPOStageConfig, main  # lazy: jsonschema

    flags = _stage_flags(model, out, train, val, max_steps)
    shares = _kind_shares(share or [])
    cfg = _stage_config(
        DAPOStageConfig,
        config,
        kinds=HARD if hard else None,
        kind_shares=shares,
        pool_target=pool_target,
        **flags,
    )
    _show(main(_inputs(cfg)))


def _user_recipes(path: Path) -> None:
    """Read the recipes once up front: a bad file fails here, not after the data stage."""
    from botpsy.train.catalog import CatalogError, load_recipes  # lazy: startup

    try:
        if not load_recipes(path):
            raise typer.BadParameter(f"--recipes {path} holds no tool recipe")
    except CatalogError as exc:
        raise typer.BadParameter(str(exc)) from None


def _teachers(items: list[str]) -> dict[str, str] | None:
    """``GROUP=MODEL_DIR`` options, each a local model folder (checked before any loading)."""
    teachers: dict[str, str] = {}
    for item in items:
        group, sep, folder = item.partition("=")
        if not sep or not group or not folder:
            raise typer.BadParameter(f"--teacher {item!r}: write GROUP=MODEL_DIR")
        _model_folder(folder, f"--teacher {group}=")
        teachers[group] = folder
    return teachers or None


def _kind_shares(items: list[str]) -> dict[str, float] | None:
    """``KIND=FRACTION`` options as a dict (None when there are none: the config's stand)."""
    shares: dict[str, float] = {}
    for item in items:
        kind, _, value = item.partition("=")
        try:
            shares[kind] = float(value)
        except ValueError:
            raise typer.BadParameter(f"--share {item!r}: expected KIND=FRACTION") from None
    return shares or None


@app.command()
def recipe(
    out: OutDir,
    preset: Annotated[str, typer.Option("--preset", help="tiny | smol | qwen3.5-0.8b")] = "tiny",
    base_model: Annotated[
        str | None, typer.Option("--base-model", help="HF folder of the base model")
    ] = None,
    recipes: Annotated[
        Path | None,
        typer.Option("--recipes", help="your own tools: a JSON list of tool recipes "
                     "(docs/training/your-tools.md), trained beside the built-in catalog"),
    ] = None,
    only_user_recipes: Annotated[
        bool, typer.Option("--only-user-recipes", help="train on the --recipes tools alone")
    ] = False,
    bfcl_limit: Annotated[
        int | None,
        typer.Option(
            "--bfcl-limit",
            min=0,
            help="Score BFCL non-live AST + irrelevance on the first N cases per category "
            "before and after each stage (0: every case); off when not given.",
        ),
    ] = None,
    bfcl_threads: Annotated[
        int | None, typer.Option("--bfcl-threads", help="llama.cpp threads for BFCL")
    ] = None,
    adapter_rank: Annotated[
        int | None,
        typer.Option(
            "--adapter-rank",
            min=1,
            help="Adapter-aware RL: truncate the change before RL to this rank, train both "
            "DAPO rounds as LoRA over it, and export the exact final adapter; off when not given.",
        ),
    ] = None,
    adapter_rl_rank: Annotated[
        int, typer.Option("--adapter-rl-rank", min=1, help="LoRA rank of each DAPO round")
    ] = 4,
    adapter_rank_pattern: Annotated[
        str,
        typer.Option(
            "--adapter-rank-pattern",
            help="Own truncation ranks for some module types, e.g. k_proj=24,v_proj=24 "
            "(with --adapter-rank 56: final ranks 64 and 32, all q8_0, 19.2 MB for SmolLM2)",
        ),
    ] = "",
    adapter_balance_rank: Annotated[
        int,
        typer.Option(
            "--adapter-balance-rank",
            min=0,
            help="Of the truncation's ranks (and each pattern rank), this many carry the balance "
            "phase's own change, truncated apart from the change before it (0: one truncation)",
        ),
    ] = 0,
    scale: Annotated[
        int,
        typer.Option(
            "--scale",
            min=1,
            help="N times the preset's data and steps in every stage (e.g. 30 for smol on a GPU)",
        ),
    ] = 1,
    smoke: Annotated[
        bool,
        typer.Option(
            "--smoke",
            help="1-2 CPU steps per stage on a few dozen conversations, in this process, then "
            "the GGUF export: checks a preset's whole path on a small model (e.g. qwen3.5-0.8b "
            "on `botpsy train tiny-qwen35`)",
        ),
    ] = False,
    bundle: Annotated[
        bool, typer.Option("--bundle", help="write the launch bundle (launch.sh) instead")
    ] = False,
    processes: Annotated[
        int, typer.Option("--processes", min=1, help="launch bundle: processes (GPUs) per stage")
    ] = 8,
    cpu: Annotated[
        bool,
        typer.Option("--cpu", help="launch bundle: CPU processes (gloo, no DeepSpeed)"),
    ] = False,
) -> None:
    """The whole recipe; re-run the same command to resume an interrupted run."""
    from dataclasses import replace

    from botpsy.train.adapter_rl import AdapterRL  # lazy: jsonschema
    from botpsy.train.launch import LaunchSettings  # lazy: stdnum
    from botpsy.train.presets import (  # lazy: stdnum
        get_preset,
        with_adapter_rl,
        with_scale,
        with_smoke_scale,
        with_user_recipes,
    )
    from botpsy.train.recipe import check_plan, main  # lazy: stdnum

    try:
        # absolute: a launch bundle's script runs from inside the run folder
        plan = get_preset(preset, str(out.absolute()), base_model)
        if smoke:
            plan = with_smoke_scale(plan)
        if bundle:
            plan = replace(plan, launch_only=True)
        if base_model and not plan.launch_only:  # a launch bundle names a folder elsewhere
            _model_folder(base_model, "--base-model")
        if only_user_recipes and not recipes:
            raise ValueError("--only-user-recipes needs --recipes")
        if recipes:
            _user_recipes(recipes)
            plan = with_user_recipes(plan, str(recipes), only_user_recipes)
        plan = with_scale(plan, scale)
        if not adapter_rank and (adapter_rank_pattern or adapter_balance_rank):
            raise ValueError(
                "--adapter-rank-pattern and --adapter-balance-rank need --adapter-rank"
            )
        if adapter_rank:
            settings = AdapterRL(
                sft_rank=adapter_rank,
                rl_rank=adapter_rl_rank,
                rank_pattern=_rank_pattern(adapter_rank_pattern, "--adapter-rank-pattern"),
                balance_rank=adapter_balance_rank,
            )
            plan = with_adapter_rl(plan, settings)
        check_plan(plan)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    evaluator = None
    if bfcl_limit is not None:
        from botpsy.train.bfcl_eval import describe  # lazy: bfcl_eval

        evaluator = _bfcl_evaluator(bfcl_limit or None, bfcl_threads)
        plan.notes.append(describe(evaluator.settings))
    report = main(plan, evaluator, LaunchSettings(processes=processes, cpu=cpu))
    typer.echo(f"{report.preset}: report in {out / 'recipe_report.md'}")
    typer.echo((out / "recipe_report.md").read_text(encoding="utf-8"))


def _bfcl_evaluator(limit: int | None, threads: int | None = None) -> Any:
    """BFCL on the first ``limit`` cases per category (None: all), through llama.cpp."""
    from botpsy.train.bfcl_eval import BfclEvaluator, BfclSettings  # lazy: bfcl_eval

    return BfclEvaluator(BfclSettings(limit=limit, threads=threads))


@app.command("score-run")
def score_run(
    run: Annotated[Path, typer.Option("--run", help="output folder of a recipe run")],
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, help="first N cases per BFCL category (default: all)"),
    ] = None,
    threads: Annotated[int | None, typer.Option("--threads", help="llama.cpp threads")] = None,
) -> None:
    """Score the base and every finished stage of a run with BFCL; rewrite its reports."""
    from botpsy.train.bfcl_eval import describe  # lazy: bfcl_eval
    from botpsy.train.llama_converters import UnsupportedModelError  # lazy: startup
    from botpsy.train.score_run import score_run as rescore  # lazy: stdnum

    evaluator = _bfcl_evaluator(limit, threads)
    try:
        rescore(run, evaluator, note=describe(evaluator.settings))
    except (FileNotFoundError, UnsupportedModelError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--run") from exc
    typer.echo((run / "recipe_report.md").read_text(encoding="utf-8"))


@app.command()
def probe(
    model: Annotated[Path, typer.Option("--model", help="HF model folder")],
    category: Annotated[
        list[str] | None,
        typer.Option("-c", "--category", help="single-turn BFCL category or collection"),
    ] = None,
    data: Annotated[
        Path | None, typer.Option("--data", help="botpsy JSONL: probe its samples, per kind")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="first N cases per category / samples")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="chat format")] = "hermes",
    out: Annotated[Path | None, typer.Option("--out", help="write the report as JSON")] = None,
) -> None:
    """P(the answer opens a tool call) per BFCL category or data kind: no decoding."""
    from botpsy.formats import get_format  # lazy: jsonschema
    from botpsy.train.probe import bfcl_prompts, data_prompts  # lazy: jsonschema
    from botpsy.train.probe import probe as run_probe  # lazy: jsonschema

    if not model.is_dir():
        raise typer.BadParameter(f"{model}: not an HF model folder", param_hint="--model")
    try:
        chat = get_format(fmt)
        prompts = bfcl_prompts(chat, category or [], limit)
        if data:
            prompts += data_prompts(chat, data, limit)
        report = run_probe(str(model), prompts, fmt)
    except (ValueError, FileNotFoundError) as exc:  # unknown categories are ValueErrors too
        raise typer.BadParameter(str(exc)) from exc
    typer.echo(report.table())
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(report.model_dump_json(indent=2), encoding="utf-8")


@app.command()
def export(
    model: Annotated[
        Path, typer.Option("--model", help="HF model folder (the base with --adapter)")
    ],
    out: OutDir,
    adapter: Annotated[Path | None, typer.Option("--adapter", help="PEFT LoRA adapter")] = None,
    quant: Annotated[list[str] | None, typer.Option("--quant", help="e.g. Q8_0, Q4_K_M")] = None,
    name: Annotated[str, typer.Option("--name")] = "botpsy",
    verify: Annotated[bool, typer.Option("--verify/--no-verify")] = True,
) -> None:
    """HF model -> GGUF F16 -> quantized GGUFs (llama.cpp's converter and quantizer), each
    loaded once in llama.cpp."""
    from botpsy.train.export import ExportConfig, ExportError, main  # lazy: startup
    from botpsy.train.llama_converters import ConverterError, UnsupportedModelError  # lazy: startup

    _model_folder(model, "--model")
    cfg = ExportConfig(
        model_dir=str(model),
        out_dir=str(out),
        name=name,
        verify=verify,
        adapter_dir=str(adapter) if adapter else None,
        quants=quant or ["Q8_0", "Q4_K_M"],
    )
    try:
        result = main(cfg)
    except (UnsupportedModelError, ConverterError, ExportError, FileNotFoundError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--model") from exc
    _show(result)


@app.command("tiny-qwen35")
def tiny_qwen35(out: OutDir) -> None:
    """A tiny random Qwen3.5 (hybrid linear/full attention, hidden 64, SmolLM2's tokenizer):
    an HF folder to try the qwen3.5-0.8b preset and every command on in minutes."""
    from botpsy.train.tiny import make_tiny_qwen35  # lazy: jsonschema

    typer.echo(str(make_tiny_qwen35(out)))


@app.command("import-gguf")
def import_gguf(
    out: OutDir,
    gguf: Annotated[
        Path | None, typer.Option("--gguf", help="GGUF file (default: the shipped model)")
    ] = None,
) -> None:
    """Dequantize a GGUF (Llama/Qwen) into an HF model folder that the stages can train."""
    from botpsy.train.gguf_import import dequantize_gguf_to_hf  # lazy: gguf

    source = gguf or default_model_path()
    try:
        typer.echo(str(dequantize_gguf_to_hf(source, out)))
    except (OSError, ValueError) as exc:  # not a GGUF, a cut file, an architecture it lacks
        raise typer.BadParameter(f"--gguf {source}: {exc}") from None


def _rank_pattern(text: str, option: str = "--rank-pattern") -> dict[str, int]:
    """``k_proj=32,v_proj=32`` -> ``{"k_proj": 32, "v_proj": 32}``, with a clear error."""
    pattern: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        module, _, value = item.partition("=")
        if not value.strip().isdigit():
            raise typer.BadParameter(f"{option} wants MODULE=RANK items, got {item!r}")
        pattern[module.strip()] = int(value)
    return pattern


@app.command("extract-lora")
def extract_lora(
    base: Annotated[Path, typer.Option("--base", help="HF folder of the base model")],
    tuned: Annotated[Path, typer.Option("--tuned", help="HF folder of its full fine-tune")],
    out: OutDir,
    rank: Annotated[
        int, typer.Option("--rank", min=1, help="LoRA rank (32: ~19.5 MB for SmolLM2)")
    ] = 32,
    gguf: Annotated[
        Path | None, typer.Option("--gguf", help="GGUF adapter file (default: OUT/adapter.gguf)")
    ] = None,
    dtype: Annotated[
        str, typer.Option("--dtype", help="GGUF adapter tensors: f16, f32 or q8_0")
    ] = "f16",
    rank_pattern: Annotated[
        str,
        typer.Option(
            "--rank-pattern", help="Own ranks for some module types, e.g. k_proj=32,v_proj=32"
        ),
    ] = "",
) -> None:
    """Full fine-tune -> LoRA adapter (PEFT folder + llama.cpp GGUF) by truncated SVD."""
    from botpsy.train.gguf_export import LORA_DTYPES, convert_lora_to_gguf  # lazy: startup
    from botpsy.train.llama_converters import ConverterError, UnsupportedModelError  # lazy: startup
    from botpsy.train.lora_extract import LoraExtractionError  # lazy: startup
    from botpsy.train.lora_extract import extract_lora as extract  # lazy: startup

    if dtype not in LORA_DTYPES:
        raise typer.BadParameter(f"--dtype must be one of {sorted(LORA_DTYPES)}")
    try:
        pattern = _rank_pattern(rank_pattern)
        result = extract(base, tuned, out, rank=rank, rank_pattern=pattern)
        path = convert_lora_to_gguf(out, base, gguf or out / "adapter.gguf", dtype=dtype)
    except (LoraExtractionError, UnsupportedModelError, ConverterError) as exc:
        raise typer.BadParameter(str(exc)) from exc
    typer.echo("\n".join(result.summary_lines()))
    typer.echo(f"PEFT adapter: {out}")
    typer.echo(f"GGUF adapter: {path} ({path.stat().st_size / 1e6:.1f} MB, {dtype})")


if __name__ == "__main__":
    app()
