"""Synthetic tool-use conversations of every kind, from the tool catalog.

One ``Synthesizer`` holds a seeded random generator and the recipes; each
``make(kind)`` call returns one ``TrainSample``. The kinds mirror what the
model must learn: one call, picking among many tools, several calls at once,
saying no tool fits, finishing after a tool answered, and declining requests
that are out of scope (money, personal data, health).
"""

from __future__ import annotations

import json
import random
import re

from botpsy.assistant.toolsets import assistant_selector
from botpsy.train.catalog import ToolRecipe
from botpsy.train.catalog_assistant import assistant_specs
from botpsy.train.naming import check_share, restyle, style_names
from botpsy.train.phrasing import (
    ASSISTANT_PROMPT_SHARE,
    CHITCHAT,
    IRRELEVANCE_ANSWERS,
    JOINS,
    OUT_OF_SCOPE,
    SYSTEM_PROMPTS,
    assistant_system_prompt,
)
from botpsy.train.sample import SampleKind, TrainSample, domain_group
from botpsy.train.source_text import LANGUAGES, to_source_text
from botpsy.train.templates import (
    SLOT,
    Realised,
    Shared,
    check_call,
    check_recipe,
    fan_out,
    fill_json,
    fill_text,
    realise,
)
from botpsy.train.vocab import source
from botpsy.types import Message, ToolSpec

_STOP_WORDS = frozenset({"get", "to", "in", "the", "a", "of"})

# Tools that could serve almost any request (a web search answers a weather question):
# an irrelevance sample that offers one would teach the model to refuse a fitting tool.
CATCH_ALL = frozenset({"web_search"})

# Tools without a shared name word that still serve each other's requests ("when am I
# free?" is answered by listing events). Pairs that share a word (``reply_email`` and
# ``send_email``, ``get_contact`` and ``find_contact``) are caught by the name rule already.
OVERLAPS: tuple[frozenset[str], ...] = (
    frozenset({"send_email", "reply_to_email"}),
    # Listing the newest mail and searching it answer the same "what came in?" requests
    # ("any unread mail?", "did Ana write?"): the assistant's two and the catalog's search.
    frozenset({"list_inbox", "search_mail", "search_emails"}),
    frozenset({"list_events", "find_free_slot", "find_free_slots"}),
    frozenset({"create_note", "append_to_note"}),
    # A note can be kept as a text file, and "write this down in a file" as a note.
    frozenset({"create_note", "write_file"}),
    # Adding a line to a file is a rewrite of it with the line at the end.
    frozenset({"write_file", "append_to_file"}),
    frozenset({"create_reminder", "add_reminder", "set_timer"}),
    frozenset({"list_files", "search_files"}),
    frozenset({"get_current_weather", "get_forecast"}),
    frozenset({"convert_units", "calculate"}),
)

# One job under two names: a generic catalog tool and the on-device assistant's own. Offered
# together, either is right, so one of them as the only reference would be a coin toss: a
# target's twin is never its distractor, and no two twins are asked for in one sample.
TWINS: tuple[frozenset[str], ...] = (
    frozenset({"search_emails", "search_mail"}),
    frozenset({"reply_to_email", "reply_email"}),
    frozenset({"find_free_slot", "find_free_slots"}),
    frozenset({"find_contact", "search_contacts"}),
    frozenset({"create_reminder", "add_reminder"}),
    frozenset({"create_event", "add_calendar_event"}),
)

# Tools that could serve any request of a domain (an expression evaluator computes a
# triangle's area): never offered as that domain's "no tool fits" distractor.
DOMAIN_CATCH_ALL: dict[str, frozenset[str]] = {"science": frozenset({"calculate"})}

# Share of "multiple" samples whose distractors come from the target's own domain (BFCL's
# multiple set offers several calculators at once): choosing among look-alikes.
SAME_DOMAIN_SHARE = 0.5

# Share of parallel samples that ask for several calls in one sentence ("the weather in Oslo
# and Rome"), BFCL's parallel form; the rest join whole requests ("... Also, ...").
FAN_OUT_SHARE = 0.5
# Of those, the share that first try to vary two slots in step ("... 20 and 15 minutes,
# respectively"), the other form of BFCL's parallel cases; the rest, and those whose template
# cannot be paired, vary one ("the weather in Oslo and Rome").
RESPECTIVELY_SHARE = 0.7

# Share of irrelevance samples whose tools come from the request's own domain: the hard
# case (BFCL's irrelevance set asks a math question of the wrong math function).
NEAR_MISS_SHARE = 0.8

# The teacher group whose domains the on-device assistant's own tools cover: under its system
# prompt, a request of these domains always has a fitting tool (``_irrelevance``).
ASSISTANT_GROUP = "personal"


def _words(name: str) -> set[str]:
    """A tool name's content words, plural ``s`` dropped (``search_emails`` ~ ``send_email``)."""
    return {w.removesuffix("s") for w in name.split("_")} - _STOP_WORDS


def _twins(name: str) -> set[str]:
    """``name`` and every tool that does the same job under another name."""
    return {name}.union(*(group for group in TWINS if name in group))


def _could_serve(tool: str, target: str, domain: str | None = None) -> bool:
    """Whether ``tool`` might fulfil a request meant for ``target`` of ``domain`` (then it is
    no distractor)."""
    return (
        tool == target
        or tool in CATCH_ALL
        or tool in DOMAIN_CATCH_ALL.get(domain or "", frozenset())
        or bool(_words(tool) & _words(target))
        or any({tool, target} <= group for group in OVERLAPS + TWINS)
    )


def _join(first: str, rest: list[str], rng: random.Random) -> str:
    """Several requests as one message: ``Find X. Also, check Y.``"""
    parts = [first]
    for text in rest:
        lowered = text[0].lower() + text[1:] if re.match(r"[A-Z][a-z]", text) else text
        if lowered.split(" ", 1)[0] in {"i", "i'll", "i'm", "i'd"}:
            lowered = text
        parts.append(f"{rng.choice(JOINS)} {lowered}")
    return " ".join(parts)


def _assistant_toolset(recipes: list[ToolRecipe]) -> list[ToolSpec]:
    """The recipes' specs of the on-device assistant's tools in the assistant's own order (the
    order its selector keeps), or nothing when the recipes lack any of them (a part of the
    toolset is not what the assistant chooses from)."""
    by_name = {r.spec.name: r.spec for r in recipes}
    names = list(assistant_specs())
    return [by_name[n] for n in names] if set(names) <= set(by_name) else []


class Synthesizer:
    """Makes one sample at a time; every call it emits is checked against its schema."""

    def __init__(
        self,
        recipes: list[ToolRecipe],
        seed: int = 0,
        max_distractors: int | None = None,
        name_style_share: float = 0.0,
        assistant_tools_share: float = 0.0,
        assistant_prompt_share: float = ASSISTANT_PROMPT_SHARE,
        source_text_share: float = 0.0,
    ) -> None:
        if len(recipes) < 4:
            raise ValueError(
                "the synthesizer needs at least 4 tool recipes (targets plus distractors)"
            )
        for recipe in recipes:
            check_recipe(recipe)
        names = [r.spec.name for r in recipes]
        if len(set(names)) != len(names):
            raise ValueError(
                f"tool names repeat in the catalog: "
                f"{sorted(n for n in set(names) if names.count(n) > 1)}"
            )
        self.recipes = recipes
        self.rng = random.Random(seed)
        self.max_distractors = max_distractors  # short prompts for tiny models
        check_share(name_style_share)
        # Share of samples whose tools appear under another naming style (botpsy.train.naming).
        self.name_style_share = name_style_share
        check_share(source_text_share, "source_text_share")
        # Share of the samples outside the assistant's prompt whose tools are declared as Java
        # or JavaScript bindings taking source text (botpsy.train.source_text).
        self.source_text_share = source_text_share
        self._domain_of = {r.spec.name: r.domain for r in recipes}
        check_share(assistant_tools_share, "assistant_tools_share")
        check_share(assistant_prompt_share, "assistant_prompt_share")
        self.assistant_prompt_share = assistant_prompt_share
        # Share of the one-request call samples under the assistant's prompt that ask for one of
        # its own tools (``_target``); when nonzero, call samples under it offer what its
        # selector would show, the prompt the deployed model reads (``_offer``).
        self.assistant_tools_share = assistant_tools_share
        self._assistant_tools = _assistant_toolset(recipes) if assistant_tools_share else []
        # With them on, its prompt meets its own tools only in samples with a call: no-tool
        # samples under it offer other tools (``_irrelevance``).
        self._assistant_names = {t.name for t in self._assistant_tools}
        self._assistant_recipes = [r for r in recipes if r.spec.name in self._assistant_names]
        self._selector = assistant_selector()

    def make(self, kind: SampleKind) -> TrainSample:
        sample = getattr(self, f"_{kind.value}")()
        if self.name_style_share and self.rng.random() < self.name_style_share:
            names = style_names([t.name for t in sample.tools], self._domain_of, self.rng)
            sample = restyle(sample, names)
        if self._bound(sample):
            sample = to_source_text(sample, self.rng.choice(LANGUAGES))
        return sample

    def _bound(self, sample: TrainSample) -> bool:
        """Whether ``sample`` is rewritten as a source-text binding: a share of those outside
        the assistant's prompt (whose own tools stay JSON-typed). No draw when the share is
        0, so data made without the option is unchanged."""
        if not self.source_text_share or self._under_assistant(sample):
            return False
        return self.rng.random() < self.source_text_share

    @staticmethod
    def _under_assistant(sample: TrainSample) -> bool:
        first = sample.messages[0] if sample.messages else None
        return bool(first and first.role == "system" and first.content not in SYSTEM_PROMPTS)

    # -- helpers -------------------------------------------------------------------------------

    def _realise(self, recipe: ToolRecipe, shared: Shared) -> Realised:
        realised = realise(recipe, self.rng, shared)
        check_call(recipe, realised.call)
        return realised

    def _tools(
        self, targets: list[ToolRecipe], lo: int, hi: int, exclude: set[str] | None = None
    ) -> list[ToolSpec]:
        """The target tools plus ``lo..hi`` distractors (never a target's twin), shuffled."""
        names = {n for t in targets for n in _twins(t.spec.name)} | (exclude or set())
        pool = [r for r in self.recipes if r.spec.name not in names]
        if self.max_distractors is not None:
            hi = min(hi, self.max_distractors + (0 if targets else 1))
            lo = min(lo, hi)
        count = min(self.rng.randint(lo, hi), len(pool))
        chosen = [t.spec for t in targets] + [r.spec for r in self.rng.sample(pool, count)]
        self.rng.shuffle(chosen)
        return chosen

    def _apart(self, count: int, chosen: list[ToolRecipe] | None = None) -> list[ToolRecipe]:
        """``count`` more recipes than ``chosen``, no two the same tool or twins, so that each
        request of a several-request sample has one right tool."""
        chosen = list(chosen or [])
        for _ in range(count):
            taken = {n for r in chosen for n in _twins(r.spec.name)}
            chosen.append(self.rng.choice([r for r in self.recipes if r.spec.name not in taken]))
        return chosen

    def _assistant(self) -> bool:
        """Whether a sample plays out under the on-device assistant's system prompt."""
        return self.rng.random() < self.assistant_prompt_share

    def _start(self, assistant: bool) -> list[Message]:
        if assistant:
            return [Message(role="system", content=assistant_system_prompt(self.rng))]
        prompt = self.rng.choice(SYSTEM_PROMPTS)
        return [Message(role="system", content=prompt)] if prompt else []

    def _target(self, assistant: bool) -> ToolRecipe:
        """The recipe a call sample asks for: under the assistant's prompt, with its tools on,
        one of the assistant's own for ``assistant_tools_share`` of the samples (what its
        users ask of it), else any."""
        own = self._assistant_recipes
        if assistant and own and self.rng.random() < self.assistant_tools_share:
            return self.rng.choice(own)
        return self.rng.choice(self.recipes)

    def _offer(
        self, assistant: bool, text: str, targets: list[ToolRecipe]
    ) -> list[ToolSpec] | None:
        """What the deployed assistant shows the model for ``text``: its tool selector's choice
        from its own tools, for every call sample under its prompt (with its tools on). None
        (the sample offers its own tools) when the choice lacks a right tool or is every tool
        (the selector found nothing: a prompt too long to train on).

        Only samples with a call get it: the assistant's prompt with its own tools always
        meets a request they serve. Offered to no-tool samples too (requests of other domains),
        it taught the smol model to decline the assistant's own requests: no call in 49 of the
        74 scenarios (docs/training/smol/assistant-balance)."""
        if not (assistant and self._assistant_tools):
            return None
        choice = self._selector.choose(text, self._assistant_tools)
        names = {t.name for t in choice.tools}
        if not targets or choice.fallback or not {t.spec.name for t in targets} <= names:
            return None
        return [t.model_copy(deep=True) for t in choice.tools]

    def _sample(
        self,
        kind: SampleKind,
        domain: str,
        messages: list[Message],
        tools: list[ToolSpec],
        refs: list,
    ) -> TrainSample:
        return TrainSample(
            id="", messages=messages, tools=tools, reference_calls=refs, domain=domain, kind=kind
        )

    def _call_turn(self, realised: list[Realised]) -> Message:
        return Message(role="assistant", tool_calls=[r.call for r in realised])

    def _tool_turns(self, realised: list[Realised], shared: Shared) -> list[Message]:
        out = []
        for item in realised:
            result = fill_json(item.recipe.result, item, shared)
            out.append(
                Message(
                    role="tool",
                    name=item.call.name,
                    tool_call_id=item.call.id,
                    content=json.dumps(result),
                    untrusted=True,
                )
            )
        return out

    # -- kinds ---------------------------------------------------------------------------------

    def _single(self) -> TrainSample:
        assistant = self._assistant()
        recipe = self._target(assistant)
        item = self._realise(recipe, Shared(self.rng))
        messages = self._start(assistant) + [
            Message(role="user", content=item.text),
            self._call_turn([item]),
        ]
        tools = self._offer(assistant, item.text, [recipe]) or [recipe.spec]
        return self._sample(SampleKind.single, recipe.domain, messages, tools, [item.reference])

    def _multiple(self) -> TrainSample:
        assistant = self._assistant()
        recipe = self._target(assistant)
        item = self._realise(recipe, Shared(self.rng))
        messages = self._start(assistant) + [
            Message(role="user", content=item.text),
            self._call_turn([item]),
        ]
        others = {r.spec.name for r in self.recipes if r.domain != recipe.domain}
        enough = len(self.recipes) - len(others) > 2  # the target plus two look-alikes
        same_domain = enough and self.rng.random() < SAME_DOMAIN_SHARE
        tools = self._offer(assistant, item.text, [recipe]) or self._tools(
            [recipe], 2, 5, exclude=others if same_domain else None
        )
        return self._sample(SampleKind.multiple, recipe.domain, messages, tools, [item.reference])

    def _distinct(self, recipe: ToolRecipe, shared: Shared, count: int) -> list[Realised]:
        """Up to ``count`` realisations of ``recipe`` with pairwise different arguments."""
        items: list[Realised] = []
        for _ in range(10 * count):
            item = self._realise(recipe, shared)
            if all(item.call.arguments != other.call.arguments for other in items):
                items.append(item)
            if len(items) == count:
                break
        return items

    def _parallel(self) -> TrainSample:
        count = self.rng.choice((2, 2, 3))
        shared = Shared(self.rng)
        fan = self.rng.random() < FAN_OUT_SHARE
        for _ in range(20):  # a recipe without slots cannot make distinct calls: pick another
            recipe = self.rng.choice(self.recipes)
            if fan:
                paired = self.rng.random() < RESPECTIVELY_SHARE
                found = (paired and fan_out(recipe, self.rng, shared, count, width=2)) or fan_out(
                    recipe, self.rng, shared, count
                )
                if found is not None:
                    text, items = found
                    for item in items:
                        check_call(item.recipe, item.call)
                    break
                continue
            items = self._distinct(recipe, shared, count)
            if len(items) == count:
                text = _join(items[0].text, [i.text for i in items[1:]], self.rng)
                break
        else:
            raise ValueError("no recipe yields distinct parallel calls; add slots to the templates")
        assistant = self._assistant()
        messages = self._start(assistant) + [
            Message(role="user", content=text),
            self._call_turn(items),
        ]
        tools = self._offer(assistant, text, [recipe]) or self._tools([recipe], 0, 3)
        refs = [i.reference for i in items]
        return self._sample(SampleKind.parallel, recipe.domain, messages, tools, refs)

    def _parallel_multiple(self) -> TrainSample:
        recipes = self._apart(self.rng.choice((2, 2, 3)))
        shared = Shared(self.rng)
        items = [self._realise(r, shared) for r in recipes]
        text = _join(items[0].text, [i.text for i in items[1:]], self.rng)
        assistant = self._assistant()
        messages = self._start(assistant) + [
            Message(role="user", content=text),
            self._call_turn(items),
        ]
        tools = self._offer(assistant, text, recipes) or self._tools(recipes, 0, 3)
        refs = [i.reference for i in items]
        return self._sample(SampleKind.parallel_multiple, recipes[0].domain, messages, tools, refs)

    def _irrelevance(self) -> TrainSample:
        if self.rng.random() < 0.2:
            request, answer = self.rng.choice(CHITCHAT)
            assistant = self._assistant()
            messages = self._start(assistant) + [
                Message(role="user", content=request),
                Message(role="assistant", content=answer),
            ]
            avoid = self._assistant_names if assistant else set()
            tools = self._tools([], 1, 4, exclude=set(CATCH_ALL) | avoid)
            return self._sample(SampleKind.irrelevance, "chitchat", messages, tools, [])
        recipe = self.rng.choice(self.recipes)
        item = self._realise(recipe, Shared(self.rng))
        # The assistant's tools serve every request of its own domains: "no tool fits" under
        # its prompt is only taught for requests of other domains (else it learns to decline
        # its own domains: docs/training/smol/balance).
        assistant = self._assistant() and domain_group(recipe.domain) != ASSISTANT_GROUP
        tools = self._unfit_tools(recipe, avoid=self._assistant_names if assistant else set())
        need = recipe.spec.description.rstrip(".")
        answer = self.rng.choice(IRRELEVANCE_ANSWERS).format(need=need[0].lower() + need[1:])
        messages = self._start(assistant) + [
            Message(role="user", content=item.text),
            Message(role="assistant", content=answer),
        ]
        return self._sample(SampleKind.irrelevance, recipe.domain, messages, tools, [])

    def _unfit_tools(self, recipe: ToolRecipe, avoid: set[str] | None = None) -> list[ToolSpec]:
        """Tools that cannot do ``recipe``'s request, none of them in ``avoid``: mostly one or
        two from its own domain (the near miss a small model gets wrong), otherwise 1-4 from
        other domains."""
        target = recipe.spec.name
        unfit = [r for r in self.recipes if not _could_serve(r.spec.name, target, recipe.domain)]
        near = [r for r in unfit if r.domain == recipe.domain]
        if near and self.rng.random() < NEAR_MISS_SHARE:
            chosen = self.rng.sample(near, min(len(near), self.rng.choice((1, 1, 2))))
            return [r.spec for r in chosen]
        far = {r.spec.name for r in unfit if r.domain != recipe.domain} - (avoid or set())
        return self._tools([], 1, 4, exclude={r.spec.name for r in self.recipes} - far)

    def _round(self, recipe: ToolRecipe) -> tuple[Realised, list[Message]]:
        """One request -> call -> tool output -> answer exchange."""
        shared = Shared(self.rng)
        item = self._realise(recipe, shared)
        answer = fill_text(self.rng.choice(recipe.answers), item, shared)
        turns = [
            Message(role="user", content=item.text),
            self._call_turn([item]),
            *self._tool_turns([item], shared),
            Message(role="assistant", content=answer),
        ]
        return item, turns

    def _multi_turn(self) -> TrainSample:
        assistant = self._assistant()
        first = self._target(assistant)
        targets = [first]
        item, turns = self._round(first)
        messages = self._start(assistant) + turns
        if self.rng.random() < 0.4:
            second = self._apart(1, [first])[-1]
            targets.append(second)
            messages += self._round(second)[1]
        tools = self._offer(assistant, item.text, targets) or self._tools(targets, 0, 3)
        return self._sample(SampleKind.multi_turn, first.domain, messages, tools, [item.reference])

    def _decline(self) -> TrainSample:
        domain = self.rng.choice(sorted(OUT_OF_SCOPE))
        requests, answers = OUT_OF_SCOPE[domain]
        request = SLOT.sub(
            lambda m: source(m.group(1))(self.rng).surface, self.rng.choice(requests)
        )
        messages = self._start(self._assistant()) + [
            Message(role="user", content=request),
            Message(role="assistant", content=self.rng.choice(answers)),
        ]
        return self._sample(SampleKind.decline, domain, messages, self._tools([], 1, 4), [])
