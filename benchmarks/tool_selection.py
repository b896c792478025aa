"""Dynamic tool selection: prompt tokens saved, and needed tools still shown.

    .venv/bin/python benchmarks/tool_selection.py [--k K] [--format hermes]

For every user turn of every assistant scenario (``botpsy.evals.scenarios``),
the agent's selector (``Bm25ToolSelector``) picks the tools to show, given the
tools already used earlier in the conversation, as the agent does. The prompt
(system prompt + user turn + tool listing, rendered by the chat format) is
counted with the real SmolLM2 tokenizer, once with every tool and once with
the selection. Recall: the share of the tools each turn's reference solution
calls that the selection kept. Target: selected prompts <= 40% of the tokens of
full prompts at >= 99% recall; exits 1 when missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from botpsy.agent import Bm25ToolSelector, SystemPrompt
from botpsy.assistant import assistant_tools
from botpsy.backends.llamacpp import LlamaCppBackend
from botpsy.backends.model_files import default_model_path
from botpsy.evals.scenarios import Scenario, load_scenarios
from botpsy.evals.scenarios.world import EVAL_NOW, open_world
from botpsy.formats import get_format
from botpsy.types import Message, ToolSpec

TARGET_RATIO = 0.40
TARGET_RECALL = 0.99


@dataclass(frozen=True)
class TurnSelection:
    """One user turn: the tools it needs, those selected, and both prompt sizes."""

    scenario: str
    text: str
    needed: frozenset[str]
    selected: frozenset[str]
    tokens_all: int
    tokens_selected: int

    @property
    def missed(self) -> frozenset[str]:
        return self.needed - self.selected


def turn_needs(scenario: Scenario) -> list[frozenset[str]]:
    """The tools the reference solution calls in each user turn (turns end at a say step)."""
    needs, current = [], set()
    for step in scenario.solution:
        if step.say is not None:
            needs.append(frozenset(current))
            current = set()
        current |= {c.tool for c in step.calls}
    return needs


def measure(scenarios: list[Scenario], specs: list[ToolSpec], system: str, k: int | None,
            fmt_name: str, count) -> list[TurnSelection]:
    fmt = get_format(fmt_name)
    selector = Bm25ToolSelector() if k is None else Bm25ToolSelector(k=k)
    rows = []
    for scenario in scenarios:
        used: set[str] = set()
        for text, needed in zip(scenario.turns, turn_needs(scenario)):
            chosen = selector.select(text, specs, always=used)
            messages = [Message(role="system", content=system), Message(role="user", content=text)]
            rows.append(TurnSelection(
                scenario=scenario.id, text=text, needed=needed,
                selected=frozenset(s.name for s in chosen),
                tokens_all=count(fmt.render(messages, specs)),
                tokens_selected=count(fmt.render(messages, chosen))))
            used |= needed
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--k", type=int, default=None,
                        help="the selector's k (default: the agent's default selector)")
    parser.add_argument("--format", default="hermes", help="chat format used to render prompts")
    args = parser.parse_args()
    scenarios = load_scenarios()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_world(Path(tmp) / "store")
        specs = [t.spec for t in assistant_tools(store)]
        system = SystemPrompt.from_profile(store.profile, clock=lambda: EVAL_NOW)()
        store.close()
    backend = LlamaCppBackend(default_model_path(), n_ctx=4096, n_threads=2)
    rows = measure(scenarios, specs, system, args.k, args.format, backend.count_tokens)

    total_all = sum(r.tokens_all for r in rows)
    total_selected = sum(r.tokens_selected for r in rows)
    needed = sum(len(r.needed) for r in rows)
    found = sum(len(r.needed & r.selected) for r in rows)
    ratio, recall = total_selected / total_all, found / needed
    print(f"{len(rows)} turns of {len(scenarios)} scenarios, {len(specs)} tools, "
          f"k={args.k or 'default'}, "
          f"{args.format} format, SmolLM2 tokenizer")
    print(f"prompt tokens: all tools {total_all / len(rows):.0f} per turn, selected "
          f"{total_selected / len(rows):.0f} per turn -> ratio {ratio:.3f} "
          f"(target <= {TARGET_RATIO})")
    print(f"recall of needed tools: {found}/{needed} = {recall:.3f} (target >= {TARGET_RECALL}); "
          f"turns with every needed tool: {sum(not r.missed for r in rows)}/{len(rows)}")
    for r in rows:
        if r.missed:
            print(f"  missed {sorted(r.missed)} in {r.scenario}: {r.text!r} "
                  f"(selected {sorted(r.selected)})")
    ok = ratio <= TARGET_RATIO and recall >= TARGET_RECALL
    print("OK" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
