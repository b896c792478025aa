"""The exact McNemar test behind `botpsy eval compare`'s p column."""

from __future__ import annotations

from math import comb

import pytest

from botpsy.evals.significance import PairedTest, format_p, mcnemar_p


def test_p_values_match_the_binomial_tail_worked_by_hand():
    # 21 fixed, 0 broken: both tails of Bin(21, 1/2) at 0 -> 2 / 2**21
    assert mcnemar_p(21, 0) == pytest.approx(2 / 2**21)
    # 2 against 7: 2 * P(X <= 2), X ~ Bin(9, 1/2) = 2 * (1 + 9 + 36) / 512
    assert mcnemar_p(2, 7) == pytest.approx(92 / 512)
    assert mcnemar_p(7, 2) == mcnemar_p(2, 7)  # two-sided: the direction does not matter
    assert mcnemar_p(1, 3) == pytest.approx(2 * 5 / 16)
    assert mcnemar_p(3, 3) == 1.0  # an even split is capped at 1, not 2 * P(X <= 3) > 1


def test_a_larger_sample_with_the_same_share_is_more_significant():
    shares = [mcnemar_p(3 * n, n) for n in (1, 2, 4, 8)]
    assert shares == sorted(shares, reverse=True) and shares[-1] < 0.05 < shares[0]
    n = 40
    assert mcnemar_p(0, n) == pytest.approx(2 * comb(n, 0) / 2**n)


def test_no_flips_is_no_evidence_and_bad_counts_are_refused():
    assert mcnemar_p(0, 0) is None
    with pytest.raises(ValueError, match="flip counts"):
        mcnemar_p(-1, 2)


def test_paired_test_reports_p_and_verdict_in_json():
    dumped = PairedTest(fixed=21, broken=0).model_dump()
    assert dumped["significant"] is True and dumped["p_value"] < 0.001
    assert PairedTest(fixed=1, broken=3).significant is False
    assert PairedTest(fixed=0, broken=0).model_dump()["significant"] is False


def test_format_p_is_short_and_empty_without_a_test():
    assert [format_p(p) for p in (None, 0.0004, 0.0217, 0.18, 1.0)] == [
        "",
        "<0.001",
        "0.022",
        "0.18",
        "1.00",
    ]
