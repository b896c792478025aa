"""Load the scenario files (``evals/data/scenarios/*.yaml``): validated, unique ids.

One YAML file per domain, each a list of scenarios (see ``schema.Scenario``).
A bad file or entry raises ``ScenarioFileError`` naming the file, the entry and
the field, so a typo in the data is found at load time, not as a failed run.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from botpsy.evals.scenarios.schema import Scenario, Split

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
SCENARIO_DIR = DATA_DIR / "scenarios"


class ScenarioFileError(ValueError):
    """A scenario file that cannot be read or holds an invalid scenario."""


def read_yaml_list(path: Path) -> list:
    """The top-level list of a YAML file."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ScenarioFileError(f"{path}: cannot read YAML: {exc}") from exc
    if not isinstance(data, list):
        raise ScenarioFileError(f"{path}: expected a list of entries at the top level")
    return data


def load_file(path: Path) -> list[Scenario]:
    found = []
    for index, item in enumerate(read_yaml_list(path)):
        name = item.get("id", "?") if isinstance(item, dict) else "?"
        try:
            found.append(Scenario.model_validate(item))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or '(entry)'}: {e['msg']}"
                                 for e in exc.errors())
            raise ScenarioFileError(f"{path.name} entry {index} ({name}): {problems}") from exc
    return found


def load_scenarios(paths: list[Path] | None = None, split: Split | str | None = None,
                   limit: int | None = None, every: int = 1) -> list[Scenario]:
    """Every scenario of the given files (default: the packaged ones), optionally
    one split only, every ``every``-th (a smaller sample that still spans every
    domain: the files are grouped by domain) and the first ``limit``."""
    if every < 1:
        raise ValueError(f"every must be >= 1, got {every}")
    files = paths if paths is not None else sorted(SCENARIO_DIR.glob("*.yaml"))
    if not files:
        raise ScenarioFileError(f"no scenario files found in {SCENARIO_DIR}")
    scenarios = [s for path in files for s in load_file(path)]
    seen: set[str] = set()
    for s in scenarios:
        if s.id in seen:
            raise ScenarioFileError(f"scenario id {s.id!r} is used twice")
        seen.add(s.id)
    if split is not None:
        scenarios = [s for s in scenarios if s.split is Split(split)]
    scenarios = scenarios[::every]
    return scenarios[:limit] if limit is not None else scenarios
