"""One grader, two uses: the tool-call metric of the evals and the reward of RL.

``score_calls`` compares the calls a model made with reference calls written in
BFCL's style (each argument lists its acceptable values; ``""`` in the list means
the argument may be left out) and returns a typed ``CallScore``:

- partial credit in the manner of ToolRL (arXiv 2504.13958) and the BotPsy
  release: how well the tool *names* match (multiset Jaccard), how well the
  *argument names* match (Jaccard-like overlap per matched call) and how many
  *argument values* are right (per key of the reference). Parallel calls are
  matched without regard to order, by an optimal assignment between predicted
  and reference calls of the same name, so permuting calls never costs reward
  (argument credit is divided by the larger of the two call counts, so extra
  calls dilute it and spraying calls does not pay);
- ``exact``: every call matched with a BFCL-acceptable value (BFCL's semantics:
  strings compared after BFCL's normalisation, an int accepted for a float,
  optional arguments may be left out, lists and dicts compared recursively);
- ``error_type``: the first failure found, in BFCL's order (format, count,
  name, missing, unexpected, type, value), so failures can be counted by kind;
- ``reward``: a weighted mean of the parts (``RewardWeights``; weight 0 = the
  part is computed and logged but does not move the reward).

An empty reference means no call is expected (BFCL's irrelevance): making no
call scores 1, making any call scores 0.

Everything here is a pure function of its inputs, so the evaluation metric and
the training reward cannot drift apart.

>>> ref = [ReferenceCall("get_weather", {"city": ["Paris", "paris, fr"], "unit": ["", "celsius"]})]
>>> score_calls([ToolCall(name="get_weather", arguments={"city": "PARIS"})], ref).exact
True
>>> s = score_calls([ToolCall(name="get_weather", arguments={"city": "Rome"})], ref)
>>> (s.exact, s.error_type.value, s.name, s.arg_names, s.arg_values)
(False, 'value_error', 1.0, 1.0, 0.0)
>>> tool_call_reward([], [])  # nothing expected, nothing called
1.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from botpsy.types import ParseResult, ToolCall

# BFCL treats these parameter types as floats: an int value is accepted for them.
FLOAT_TYPES = frozenset({"float", "number", "double"})

# Declared types whose values BFCL compares as (normalised) strings.
STRING_TYPES = frozenset({"string", "String", "str", "any", "Any", "char"})

# Characters BFCL drops before comparing strings ("April 1, 2024" == "april 1 2024").
_STRING_NOISE = str.maketrans("", "", " ,./-_*^")

# Above this many calls of one name, the exact assignment search gives way to a greedy one.
_MAX_EXACT_ASSIGNMENT = 10


class CallErrorType(str, Enum):
    """Why predicted calls differ from the reference (the first failure found)."""

    ok = "ok"
    parse_error = "parse_error"  # the model output was not well-formed call syntax
    no_call = "no_call"  # calls were expected, none was made
    irrelevance_call = "irrelevance_call"  # no call was expected, some were made
    wrong_count = "wrong_count"  # a different number of calls than the reference
    wrong_func_name = "wrong_func_name"  # a reference call has no predicted call of its name
    missing_required = "missing_required"  # an argument the reference needs was left out
    unexpected_param = "unexpected_param"  # an argument the reference does not know
    type_error = "type_error"  # a value of the wrong type (str for int, float for int...)
    value_error = "value_error"  # the right type, not an acceptable value


@dataclass(frozen=True)
class ReferenceCall:
    """One expected call, BFCL-style.

    ``arguments`` maps each parameter to its acceptable values; ``""`` among them
    means the parameter may be omitted. ``required`` (optional) names parameters
    the schema requires: they may not be omitted even when ``""`` is listed.
    ``schemas`` (optional) holds each parameter's declared schema (BFCL or JSON
    schema, e.g. ``{"type": "array", "items": {"type": "float"}}``): a declared
    float accepts a float where the reference happens to list an int.
    """

    name: str
    arguments: dict[str, list[Any]] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    schemas: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def needed(self) -> set[str]:
        """Parameters that must be present."""
        return {k for k, values in self.arguments.items() if "" not in values} | set(self.required)


@dataclass(frozen=True)
class RewardWeights:
    """Weights of the parts of the reward; 0 means "compute and log only".

    The reward is the weighted mean of the parts, so it stays in [0, 1].
    """

    format: float = 0.0
    name: float = 1.0
    arg_names: float = 1.0
    arg_values: float = 1.0
    exact: float = 0.0

    def __post_init__(self) -> None:
        parts = (self.format, self.name, self.arg_names, self.arg_values, self.exact)
        if any(w < 0 for w in parts) or sum(parts) <= 0:
            raise ValueError(f"reward weights must be >= 0 with a positive sum, got {self}")


@dataclass(frozen=True)
class CallScore:
    """The grade of one prediction: parts in [0, 1], exact match, reward, first failure."""

    format_ok: bool
    name: float
    arg_names: float
    arg_values: float
    exact: bool
    reward: float
    error_type: CallErrorType
    detail: str = ""


@dataclass(frozen=True)
class _PairScore:
    """One predicted call graded against one reference call of the same name."""

    arg_names: float
    arg_values: float
    error_type: CallErrorType
    detail: str

    @property
    def exact(self) -> bool:
        return self.error_type is CallErrorType.ok

    @property
    def merit(self) -> float:
        # Lexicographic in effect: pairing a call at all, then exact pairs, then partial credit
        # (partial credit is at most 2 per pair, and groups hold at most a few dozen pairs).
        return 1e4 + (1e2 if self.exact else 0.0) + self.arg_names + self.arg_values


def normalize_string(text: str) -> str:
    """BFCL's string normalisation: no spaces or ``,./-_*^``, lower case, ' as "."""
    return text.translate(_STRING_NOISE).lower().replace("'", '"')


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _declared(schema: Mapping[str, Any] | None) -> str | None:
    """The declared type name; of a union like ``["string", "null"]`` (an optional argument
    of a typed Python function) the one non-null type, else None: unknown, graded leniently."""
    declared = schema.get("type") if isinstance(schema, Mapping) else None
    if isinstance(declared, list):
        kinds = [kind for kind in declared if kind != "null"]
        return kinds[0] if len(kinds) == 1 and isinstance(kinds[0], str) else None
    return declared if isinstance(declared, str) else None


def _item_schema(schema: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    items = schema.get("items") if isinstance(schema, Mapping) else None
    return items if isinstance(items, Mapping) else None


def _numbers_match(value: Any, expected: Any, *, widen: bool, declared: str | None) -> bool:
    if not _is_number(value):
        return False
    if type(value) is not type(expected):
        # int for float is allowed; float for int only where the schema says float.
        int_for_float = isinstance(value, int) and isinstance(expected, float) and widen
        float_for_int = isinstance(value, float) and declared in FLOAT_TYPES
        if not (int_for_float or float_for_int):
            return False
    return float(value) == float(expected)


def value_matches(
    value: Any, expected: Any, schema: Mapping[str, Any] | None = None, *, top: bool = True
) -> bool:
    """Whether ``value`` equals one acceptable ``expected`` value under BFCL's rules.

    Strings are normalised; numbers must agree in kind, except that an int is
    accepted for a float at the top level (BFCL converts it; inside lists BFCL's
    nested type check does not) and a float is accepted where ``schema``
    declares a float; booleans never equal numbers; lists compare element by
    element; a string answer for a parameter declared non-string (a variable
    name, e.g. ``ResultSet.TYPE_FORWARD_ONLY``) must match verbatim; a dict in
    a reference maps each key to its own list of acceptable values, with ``""``
    marking keys that may be left out.
    """
    if isinstance(expected, bool) or isinstance(value, bool):
        return type(value) is type(expected) and value == expected
    if _is_number(expected):
        return _numbers_match(value, expected, widen=top, declared=_declared(schema))
    if isinstance(expected, str):
        if top and _declared(schema) not in STRING_TYPES | {None}:
            # A string answer for a non-string parameter is a variable name: BFCL wants it verbatim.
            return value == expected
        return isinstance(value, str) and normalize_string(value) == normalize_string(expected)
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(expected)
            and all(
                value_matches(v, e, _item_schema(schema), top=False)
                for v, e in zip(value, expected)
            )
        )
    if isinstance(expected, dict):
        return isinstance(value, dict) and _dict_matches(value, expected)
    return value == expected


def _dict_matches(value: dict, expected: dict) -> bool:
    for key, item in value.items():
        if key not in expected or not any(
            _dict_item_matches(item, alt) for alt in _alternatives(expected[key])
        ):
            return False
    return all("" in _alternatives(alts) for key, alts in expected.items() if key not in value)


def _dict_item_matches(item: Any, alternative: Any) -> bool:
    # BFCL compares dict entries with ==, where 5 == 5.0; keep that, minus bool == int.
    if _is_number(item) and _is_number(alternative):
        return float(item) == float(alternative)
    return value_matches(item, alternative, top=False)


def _alternatives(values: Any) -> list[Any]:
    return values if isinstance(values, list) else [values]


def _same_kind(value: Any, expected: Any, declared: str | None) -> bool:
    """Whether a mismatch is about the value rather than its type."""
    if isinstance(expected, bool) or isinstance(value, bool):
        return type(value) is type(expected)
    if _is_number(expected):
        return _is_number(value) and (
            type(value) is type(expected) or isinstance(expected, float) or declared in FLOAT_TYPES
        )
    if isinstance(expected, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(expected))


def _check_value(
    value: Any, acceptable: list[Any], schema: Mapping[str, Any] | None
) -> CallErrorType:
    declared = _declared(schema)
    options = [option for option in acceptable if option != ""]
    # "" marks an omittable argument; as a *value* it only passes for string parameters.
    if all(isinstance(option, str) for option in options) and "" in acceptable:
        options.append("")
    if any(value_matches(value, option, schema) for option in options):
        return CallErrorType.ok
    if any(_same_kind(value, option, declared) for option in options or acceptable):
        return CallErrorType.value_error
    return CallErrorType.type_error


def _score_pair(call: ToolCall, ref: ReferenceCall) -> _PairScore:
    """Argument-name and argument-value credit of a call against a same-name reference."""
    given = call.arguments
    needed = ref.needed()
    known = [k for k in given if k in ref.arguments]
    checks = {k: _check_value(given[k], ref.arguments[k], ref.schemas.get(k)) for k in known}
    union = needed | set(given)
    arg_names = len(known) / len(union) if union else 1.0
    judged = needed | set(known)
    correct = sum(1 for k in known if checks[k] is CallErrorType.ok)
    arg_values = correct / len(judged) if judged else 1.0
    error, detail = _first_pair_error(call, ref, checks)
    return _PairScore(arg_names, arg_values, error, detail)


def _first_pair_error(
    call: ToolCall, ref: ReferenceCall, checks: dict[str, CallErrorType]
) -> tuple[CallErrorType, str]:
    """BFCL's order: schema-required missing, then each given argument, then the rest missing."""
    given = call.arguments
    for key in sorted(ref.required):
        if key not in given:
            return CallErrorType.missing_required, f"{ref.name}: missing required {key!r}"
    for key, value in given.items():
        if not ref.arguments.get(key):  # unknown, or known to accept nothing
            return CallErrorType.unexpected_param, f"{ref.name}: unexpected parameter {key!r}"
        if checks[key] is not CallErrorType.ok:
            return checks[key], (f"{ref.name}: {key}={value!r} not among {ref.arguments[key]!r}")
    for key in sorted(ref.needed() - set(given)):
        return CallErrorType.missing_required, f"{ref.name}: missing {key!r}"
    return CallErrorType.ok, ""


def _best_assignment(merit: list[list[float]]) -> list[tuple[int, int]]:
    """Row-column pairs (each used once) with the largest total ``merit[row][col]``.

    Exact search over subsets when the group is small (parallel calls of one tool
    rarely exceed a handful), greedy beyond that to keep RL reward cheap.
    """
    n_rows, n_cols = len(merit), len(merit[0]) if merit else 0
    if max(n_rows, n_cols) > _MAX_EXACT_ASSIGNMENT:
        cells = sorted(
            ((merit[r][c], r, c) for r in range(n_rows) for c in range(n_cols)), reverse=True
        )
        used_r: set[int] = set()
        used_c: set[int] = set()
        pairs = []
        for _, r, c in cells:
            if r not in used_r and c not in used_c:
                used_r.add(r)
                used_c.add(c)
                pairs.append((r, c))
        return pairs

    @cache
    def best(row: int, used: int) -> tuple[float, tuple[tuple[int, int], ...]]:
        if row == n_rows:
            return 0.0, ()
        options = [best(row + 1, used)]  # leave this row unmatched (more rows than columns)
        for col in range(n_cols):
            if not used & (1 << col):
                total, rest = best(row + 1, used | (1 << col))
                options.append((total + merit[row][col], ((row, col),) + rest))
        return max(options, key=lambda option: option[0])

    return list(best(0, 0)[1])


def _match_calls(
    predicted: list[ToolCall], reference: list[ReferenceCall]
) -> dict[int, tuple[int, _PairScore]]:
    """Reference index -> (predicted index, pair score), matching only same-name calls."""
    matched: dict[int, tuple[int, _PairScore]] = {}
    for name in {ref.name for ref in reference}:
        refs = [j for j, ref in enumerate(reference) if ref.name == name]
        preds = [i for i, call in enumerate(predicted) if call.name == name]
        grid = [[_score_pair(predicted[i], reference[j]) for i in preds] for j in refs]
        for a, b in _best_assignment([[pair.merit for pair in row] for row in grid]):
            matched[refs[a]] = (preds[b], grid[a][b])
    return matched


def _name_overlap(predicted: list[ToolCall], reference: list[ReferenceCall]) -> float:
    got = Counter(call.name for call in predicted)
    want = Counter(ref.name for ref in reference)
    union = sum((got | want).values())
    return sum((got & want).values()) / union if union else 1.0


def _overall_error(
    predicted: list[ToolCall],
    reference: list[ReferenceCall],
    matched: dict[int, tuple[int, _PairScore]],
) -> tuple[CallErrorType, str]:
    if len(predicted) != len(reference):
        return CallErrorType.wrong_count, f"{len(predicted)} calls, expected {len(reference)}"
    for j, ref in enumerate(reference):
        if j not in matched:
            names = sorted({c.name for c in predicted})
            return CallErrorType.wrong_func_name, f"no call to {ref.name!r} (got {names})"
    for j in range(len(reference)):
        pair = matched[j][1]
        if not pair.exact:
            return pair.error_type, pair.detail
    return CallErrorType.ok, ""


def _combine(
    weights: RewardWeights,
    format_ok: bool,
    name: float,
    arg_names: float,
    arg_values: float,
    exact: bool,
) -> float:
    parts = (
        (weights.format, 1.0 if format_ok else 0.0),
        (weights.name, name),
        (weights.arg_names, arg_names),
        (weights.arg_values, arg_values),
        (weights.exact, 1.0 if exact else 0.0),
    )
    return sum(w * v for w, v in parts) / sum(w for w, _ in parts)


def score_calls(
    predicted: list[ToolCall],
    reference: list[ReferenceCall],
    *,
    parse_ok: bool = True,
    weights: RewardWeights | None = None,
) -> CallScore:
    """Grade predicted calls against reference calls (see the module docstring)."""
    weights = weights or RewardWeights()
    if not reference or not predicted:
        return _score_empty_side(predicted, reference, parse_ok, weights)
    matched = _match_calls(predicted, reference)
    n = max(len(predicted), len(reference))
    name = _name_overlap(predicted, reference)
    arg_names = sum(pair.arg_names for _, pair in matched.values()) / n
    arg_values = sum(pair.arg_values for _, pair in matched.values()) / n
    error, detail = _overall_error(predicted, reference, matched)
    exact = error is CallErrorType.ok
    if not parse_ok:
        error, detail = CallErrorType.parse_error, "output is not well-formed call syntax"
    reward = _combine(weights, parse_ok, name, arg_names, arg_values, exact)
    return CallScore(parse_ok, name, arg_names, arg_values, exact, reward, error, detail)


def _score_empty_side(
    predicted: list[ToolCall],
    reference: list[ReferenceCall],
    parse_ok: bool,
    weights: RewardWeights,
) -> CallScore:
    """No reference (irrelevance) or no prediction: all or nothing."""
    exact = not predicted and not reference
    part = 1.0 if exact else 0.0
    if not parse_ok:
        error, detail = CallErrorType.parse_error, "output is not well-formed call syntax"
    elif exact:
        error, detail = CallErrorType.ok, ""
    elif predicted:
        error = CallErrorType.irrelevance_call
        detail = f"no call expected, got {[c.name for c in predicted]}"
    else:
        error, detail = CallErrorType.no_call, f"expected {[r.name for r in reference]}"
    reward = _combine(weights, parse_ok, part, part, part, exact)
    return CallScore(parse_ok, part, part, part, exact, reward, error, detail)


def format_reward(result: ParseResult) -> float:
    """1 for clean output, 0.5 when every parse error was recovered, 0 otherwise.

    Recovered errors (an unclosed tag...) still yield calls, but RL should push
    the model towards output that needs no repair.
    """
    if not result.errors:
        return 1.0
    return 0.5 if all(error.recovered for error in result.errors) else 0.0


def is_text_answer(result: ParseResult) -> bool:
    """Whether an output answers in readable text: some text, and no call markup that
    could not be read. BFCL counts any call-free output as right where no call is due;
    training must not (an empty or broken answer would earn a decline's reward)."""
    return bool(result.content.strip()) and all(error.recovered for error in result.errors)


def tool_call_reward(predicted: list[ToolCall], reference: list[ReferenceCall], **kw: Any) -> float:
    """The scalar reward of ``score_calls`` (same keyword arguments)."""
    return score_calls(predicted, reference, **kw).reward


def references_from_bfcl(
    ground_truth: list[dict], functions: list[dict] | None = None
) -> list[ReferenceCall]:
    """Reference calls from BFCL's ``ground_truth`` (``[{"func": {"arg": [values]}}]``).

    With the entry's function docs, the schema's ``required`` list and the
    parameter schemas are carried over, and arguments the schema does not declare are
    treated as BFCL's checker treats them (never acceptable when given).
    """
    docs = {doc["name"]: doc for doc in functions or []}
    references = []
    for item in ground_truth:
        if not isinstance(item, dict) or len(item) != 1:
            raise ValueError(f"a BFCL ground-truth call is a one-key dict, got {item!r}")
        ((name, args),) = item.items()
        if not isinstance(args, dict):
            # ValueError, not TypeError: this is bad input data, not a programming error.
            raise ValueError(f"arguments of {name!r} must be a dict, got {args!r}")  # noqa: TRY004
        arguments = {key: list(_alternatives(values)) for key, values in args.items()}
        doc = docs.get(name)
        if doc is None:
            references.append(ReferenceCall(name, arguments))
            continue
        params = doc.get("parameters", {})
        props = params.get("properties", {})
        required = frozenset(params.get("required", []))
        for key in list(arguments):
            if key not in props:  # BFCL rejects undeclared parameters when given
                if "" in arguments.pop(key):
                    continue
                arguments[key] = []  # needed yet never acceptable: the checker fails it too
        for key in required - set(arguments):  # required but never acceptable: BFCL fails it
            arguments[key] = []
        schemas = {key: spec for key, spec in props.items() if key in arguments}
        references.append(ReferenceCall(name, arguments, required, schemas))
    return references
