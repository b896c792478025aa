"""Whether two runs on the same cases really differ: the exact McNemar test.

Why: an adapter is shipped or dropped on comparisons such as "one point more AST" or "two
scenarios fewer solved", and at these sizes a few cases flip between any two close
models or versions of the agent: a greedy answer turns on near ties, so which cases a
change fixes or breaks is partly luck of the draw. On paired cases only the flips carry
information: a case right in both runs or wrong in both says nothing about which run is
better. Under "both runs are equally good" each flip is a fair coin between fixed and
broken, so the two-sided p-value is the chance of a split at least as uneven as the one
seen. Twenty-one fixed against none broken is a real change (the coin would split so
unevenly less than once in a thousand tries); one against three is not evidence of anything.

The binomial tail is summed exactly with integer arithmetic (``math.comb``): flip counts
are small, and no statistics package is needed for one distribution.
"""

from __future__ import annotations

from math import comb

from pydantic import BaseModel, computed_field

ALPHA = 0.05  # the level below which a difference is called significant


def mcnemar_p(fixed: int, broken: int) -> float | None:
    """Two-sided exact McNemar p-value for ``fixed`` and ``broken`` flips; None when nothing
    flipped (no evidence either way, rather than p = 1 claiming "the same")."""
    if fixed < 0 or broken < 0:
        raise ValueError(f"flip counts must be >= 0, got fixed={fixed}, broken={broken}")
    flips = fixed + broken
    if flips == 0:
        return None
    low = min(fixed, broken)
    tail = sum(comb(flips, k) for k in range(low + 1))
    return min(1.0, 2 * tail / 2**flips)


class PairedTest(BaseModel):
    """Flips between two runs on shared cases, and how likely such a split is by chance."""

    fixed: int  # wrong in A, right in B
    broken: int  # right in A, wrong in B

    @computed_field  # type: ignore[prop-decorator]
    @property
    def p_value(self) -> float | None:
        return mcnemar_p(self.fixed, self.broken)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def significant(self) -> bool:
        p = self.p_value
        return p is not None and p < ALPHA


def format_p(p: float | None) -> str:
    """A p-value for a table: two significant digits, '<0.001' below that, '' when none."""
    if p is None:
        return ""
    if p < 0.001:
        return "<0.001"
    return f"{p:.2g}" if p < 0.1 else f"{p:.2f}"


P_NOTE = (
    f"p: exact McNemar test on the flipped cases (fixed against broken); below {ALPHA} the "
    "difference is unlikely to be chance."
)
