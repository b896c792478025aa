"""One training sample: a tool-use conversation, its tools and the calls it expects.

Samples are stored as OpenAI-messages-style JSON records (``messages``,
``tools``, ``reference_calls``, ``domain``, ``kind``) so that the files open in
any tool that reads chat data, and the references stay BFCL-style
(``{"arg": [acceptable values]}``) so one grader (``botpsy.rewards``) scores
validation, evals and RL rewards alike.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from botpsy.rewards import ReferenceCall
from botpsy.types import Message, ToolCall, ToolSpec


class SampleKind(str, Enum):
    """The shape of the expected behaviour (BFCL's categories plus the assistant's own)."""

    single = "single"  # one tool offered, one call
    multiple = "multiple"  # several tools offered, one call
    parallel = "parallel"  # one tool, several calls in one turn
    parallel_multiple = "parallel_multiple"  # several tools, several calls in one turn
    irrelevance = "irrelevance"  # no suitable tool: answer in text
    multi_turn = "multi_turn"  # call -> tool output -> final answer (maybe a second round)
    decline = "decline"  # out of scope (money, personal data, health): decline in text


HARD_KINDS = frozenset({SampleKind.parallel, SampleKind.parallel_multiple, SampleKind.multi_turn})

# Three teacher groups, like the release's three specialist teachers.
DOMAIN_GROUPS: dict[str, str] = {
    "mail": "personal",
    "calendar": "personal",
    "contacts": "personal",
    "notes": "personal",
    "reminders": "personal",
    "files": "personal",
    "weather": "services",
    "travel": "services",
    "shopping": "services",
    "generic": "services",
    "science": "services",
    "software": "services",
    "money": "judgment",
    "health": "judgment",
    "personal_data": "judgment",
    "chitchat": "judgment",
}
DEFAULT_GROUP = "services"


def domain_group(domain: str) -> str:
    """The teacher group of a domain; unknown (user) domains go to ``services``."""
    return DOMAIN_GROUPS.get(domain, DEFAULT_GROUP)


class TrainSample(BaseModel):
    """A conversation to learn from; ``reference_calls`` grade the first assistant turn."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    id: str
    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    reference_calls: list[ReferenceCall] = Field(default_factory=list)
    domain: str = "generic"
    kind: SampleKind = SampleKind.single

    @property
    def group(self) -> str:
        return domain_group(self.domain)

    def to_record(self) -> dict[str, Any]:
        """The OpenAI-style JSON record written to JSONL."""
        return {
            "id": self.id,
            "messages": [m.to_openai() for m in self.messages],
            "tools": [t.to_openai() for t in self.tools],
            "reference_calls": [reference_to_json(r) for r in self.reference_calls],
            "domain": self.domain,
            "kind": self.kind.value,
        }


def reference_to_json(ref: ReferenceCall) -> dict[str, Any]:
    out: dict[str, Any] = {"name": ref.name, "arguments": ref.arguments}
    if ref.required:
        out["required"] = sorted(ref.required)
    if ref.schemas:
        out["schemas"] = {key: dict(value) for key, value in ref.schemas.items()}
    return out


def reference_from_json(obj: dict[str, Any]) -> ReferenceCall:
    """The inverse of ``reference_to_json`` (shape checks are the loader's job)."""
    return ReferenceCall(
        obj["name"],
        dict(obj.get("arguments", {})),
        frozenset(obj.get("required", [])),
        dict(obj.get("schemas", {})),
    )


def make_reference(name: str, arguments: dict[str, Any], tool: ToolSpec | None) -> ReferenceCall:
    """A reference accepting exactly ``arguments``; the tool's required list and the
    argument schemas are carried so the grader knows declared types."""
    props = (tool.parameters.get("properties", {}) if tool else {}) or {}
    required = frozenset(tool.parameters.get("required", [])) if tool else frozenset()
    refs = {key: [exact_value(value)] for key, value in arguments.items()}
    schemas = {key: props[key] for key in arguments if key in props}
    return ReferenceCall(name, refs, required & set(refs), schemas)


def reference_for_call(call: ToolCall, tool: ToolSpec | None) -> ReferenceCall:
    """A reference accepting exactly the values of ``call``."""
    return make_reference(call.name, call.arguments, tool)


def exact_value(value: Any) -> Any:
    """A value as a reference expects it: nested objects list each entry's alternatives."""
    if isinstance(value, dict):
        return {key: [exact_value(item)] for key, item in value.items()}
    return value


def assistant_turns(sample: TrainSample) -> list[int]:
    """Indices of the assistant messages of a sample."""
    return [i for i, m in enumerate(sample.messages) if m.role == "assistant"]


def references_at(sample: TrainSample, index: int) -> list[ReferenceCall]:
    """The reference of the assistant turn at ``index``: the stored one for the first
    turn (it may list alternatives), exact calls of the message for later turns."""
    turns = assistant_turns(sample)
    if index == turns[0]:
        return list(sample.reference_calls)
    tools = {t.name: t for t in sample.tools}
    return [reference_for_call(c, tools.get(c.name)) for c in sample.messages[index].tool_calls]
