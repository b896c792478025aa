"""The classifier's training rows: generated ordinary requests cover every tool, and
no training row is a request of a measurement set (the frozen test set, the scenario
turns, the held-out requests, the everyday requests)."""

from __future__ import annotations

from collections import Counter

from botpsy.evals.safety_set import (
    NONE,
    TEST_SET_FILE,
    Split,
    everyday_requests,
    load_full_set,
    load_safety_set,
    measurement_requests,
    normal_text,
    training_rows,
)
from botpsy.evals.safety_set_negatives import (
    LANGUAGES,
    demo_values,
    ordinary_requests,
    tools_without_templates,
)
from botpsy.safety.policy import classify


def test_the_frozen_test_set_is_large_mostly_not_english_and_covers_every_kind():
    rows = load_safety_set(TEST_SET_FILE, split=Split.test)
    assert len(rows) >= 120
    assert sum(i.lang != "en" for i in rows) >= 0.6 * len(rows)
    for lang in LANGUAGES:
        own = [i for i in rows if i.lang == lang]
        assert {i.label for i in own} == {"money", "personal_data", "health", NONE}
        assert {i.lookalike for i in own if i.label == NONE} == {"money", "personal_data",
                                                                 "health", None}
    assert [i for i in load_full_set() if i.split is Split.test] == rows


def test_no_training_row_is_a_test_row_or_a_measured_request():
    trained = {normal_text(i.text) for i in training_rows()}
    test_rows = [i.text for i in load_safety_set(TEST_SET_FILE, split=Split.test)]
    measured = measurement_requests()
    assert len(measured) > 200 and everyday_requests()  # the checkout's benchmark is read
    assert [t for t in test_rows + measured if normal_text(t) in trained] == []
    assert {i.split for i in training_rows()} == {Split.tuned}


def test_generated_requests_cover_every_tool_and_language_and_trip_no_rule():
    assert tools_without_templates() == []
    rows = ordinary_requests()
    langs = Counter(i.lang for i in rows)
    assert set(langs) == set(LANGUAGES) and min(langs.values()) >= 40
    assert {i.label for i in rows} == {NONE}
    assert [i.text for i in rows if classify(i.text)] == []
    assert "{" not in "".join(i.text for i in rows)  # every slot filled


def test_demo_values_leave_out_flagged_and_borderline_items():
    values = demo_values()
    assert "personal/passwords.txt" not in values.file
    assert "Pay the electricity bill" not in values.rem
    assert "Renew passport" not in values.rem
    assert values.who and all(" " not in name for name in values.who)


def test_ordinary_declines_lists_what_a_policy_declines():
    from botpsy.evals.safety_set import ordinary_declines
    from botpsy.safety import SafetyConfig, ScopePolicy

    report = ordinary_declines(ScopePolicy())
    assert report.route == "rules" and report.requests > 200
    assert "Remind me to pay the rent on Friday at 10am" in report.declined  # money, by convention
    assert ordinary_declines(ScopePolicy(SafetyConfig(blocked_domains=[]))).declined == []
