"""Hypothesis strategies for odd input: text with lone surrogates, control characters,
invisible and right-to-left marks, NULs; JSON values built from it; raw bytes."""

from __future__ import annotations

from hypothesis import strategies as st

ODD_CHARS = ["\ud800", "\udbff", "\udc00", "\udfff", "\udcff", "\x00", "\x1b", "\x07", "\x7f",
             "\x85", "\r", "\n", "\t", "\u2028", "\u202e", "\u200b", "\ufeff", "\uffff",
             "\U0001f600", "\\", '"', "'", "<", "&", "%s", "{", "}"]
# Any code point, surrogates included (hypothesis leaves them out unless asked).
ANY_CHAR = st.characters(exclude_categories=())
ODD_TEXT = st.lists(st.sampled_from(ODD_CHARS) | ANY_CHAR, max_size=24).map("".join)
ODD_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | ODD_TEXT
)
ODD_JSON = st.recursive(
    ODD_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=4),
    max_leaves=12,
)
RAW_BYTES = st.binary(max_size=200)
