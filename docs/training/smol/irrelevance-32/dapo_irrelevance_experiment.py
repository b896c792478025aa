"""DAPO round 1 of the smol preset on irrelevance prompts only, from the shipped run's distilled model."""
from dataclasses import replace
from botpsy.train.presets import get_preset
from botpsy.train.dapo import main
plan = get_preset("smol", "runs/smol-prev")
cfg = replace(plan.dapo1, model="runs/smol-prev/distill/model", output_dir="runs/exp/dapo-irr",
              kinds=["irrelevance"], val_samples=0)
r = main(cfg)
print(r.model_dump_json(exclude={"train_loss"}))
