"""Tool-name styles: the same tool under the names real APIs give it.

Why: users' schemas, MCP servers and SDK wrappers name tools ``mail.send_email``,
``MailClient.sendEmail`` or ``sendEmail``, while the built-in catalog is all
snake_case. A small model trained on snake_case alone copies a name's words but
not the name: on BFCL it wrote ``getViewSourceWithHeader`` for
``FireBirdUtils.getViewSourceWithHeader``, ``area_circle`` for
``area_circle.calculate`` and ``euclidean_distance`` for
``EuclideanDistance.calculate`` (8 of the 9 wrong-name errors of a smol run
were offered names miscopied). Offering a share of the samples under another
naming style teaches the model to copy the offered name verbatim; tools of one
domain share a namespace in a sample, so the prefix alone never tells
look-alikes apart.

``restyle`` renames a sample's tools everywhere they appear (the tool list, the
assistant's calls, the tool outputs and the references) so that the sample stays
consistent; the grader compares names exactly.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

from botpsy.train.sample import TrainSample
from botpsy.types import Message

# Namespaces per catalog domain, as an SDK or a server might call its module.
NAMESPACES: dict[str, tuple[str, ...]] = {
    "mail": ("mail", "email", "inbox", "gmail"),
    "calendar": ("calendar", "cal", "events", "scheduler"),
    "contacts": ("contacts", "people", "addressbook"),
    "notes": ("notes", "notebook", "memo"),
    "reminders": ("reminders", "tasks", "todo"),
    "files": ("files", "fs", "storage", "drive"),
    "weather": ("weather", "forecast", "meteo"),
    "travel": ("travel", "flights", "booking", "maps"),
    "shopping": ("shop", "store", "commerce", "orders"),
    "generic": ("utils", "tools", "api", "web"),
    "science": ("math", "geometry", "physics", "stats", "calc", "finance"),
    "software": ("sdk", "core", "app", "lib"),
}
FALLBACK_NAMESPACES = ("api", "tools", "service")

# Class-name suffixes of the ``Namespace.method`` style (``MailClient.sendEmail``).
CLASS_SUFFIXES = ("", "Utils", "Service", "Client", "Api", "Helper")

# Trailing verbs of the ``tool.verb`` style (``triangle_area.compute``).
VERBS = ("run", "execute", "invoke", "compute", "get")

STYLES = ("dotted", "class_method", "camel", "verb")


def check_share(share: float, name: str = "name_style_share") -> None:
    """The one range check of a data share (data configs and the synthesizer)."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {share}")


def camel(name: str) -> str:
    """``send_email`` -> ``sendEmail``."""
    first, *rest = name.split("_")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def pascal(name: str) -> str:
    """``send_email`` -> ``SendEmail``."""
    text = camel(name)
    return text[:1].upper() + text[1:]


def _namespaces(domains: set[str], rng: random.Random) -> dict[str, str]:
    """One namespace per domain, different domains never sharing one."""
    chosen: dict[str, str] = {}
    for domain in sorted(domains):
        options = [
            ns for ns in NAMESPACES.get(domain, FALLBACK_NAMESPACES) if ns not in chosen.values()
        ]
        chosen[domain] = rng.choice(options) if options else f"{domain}_api"
    return chosen


def style_names(
    names: list[str], domain_of: Mapping[str, str], rng: random.Random
) -> dict[str, str]:
    """A rename map for ``names`` in one style drawn at random; a name that would clash with
    another keeps its own spelling."""
    style = rng.choice(STYLES)
    spaces = _namespaces({domain_of.get(n, "generic") for n in names}, rng)
    suffix = rng.choice(CLASS_SUFFIXES)
    verb = rng.choice(VERBS)

    def rename(name: str) -> str:
        namespace = spaces[domain_of.get(name, "generic")]
        if style == "dotted":
            return f"{namespace}.{name}"
        if style == "class_method":
            return f"{pascal(namespace)}{suffix}.{camel(name)}"
        if style == "camel":
            return camel(name)
        return f"{name}.{verb}"

    renamed = {name: rename(name) for name in names}
    targets = list(renamed.values())
    return {
        old: new
        for old, new in renamed.items()
        if targets.count(new) == 1 and (new == old or new not in renamed)
    }


def _message(message: Message, names: Mapping[str, str]) -> Message:
    update: dict = {}
    if message.tool_calls:
        update["tool_calls"] = [
            call.model_copy(update={"name": names.get(call.name, call.name)})
            for call in message.tool_calls
        ]
    if message.name in names:
        update["name"] = names[message.name]
    return message.model_copy(update=update) if update else message


def restyle(sample: TrainSample, names: Mapping[str, str]) -> TrainSample:
    """``sample`` with its tools renamed by ``names`` wherever a tool name appears."""
    return sample.model_copy(
        update={
            "tools": [
                t.model_copy(update={"name": names.get(t.name, t.name)}) for t in sample.tools
            ],
            "messages": [_message(m, names) for m in sample.messages],
            "reference_calls": [
                dataclasses.replace(r, name=names.get(r.name, r.name))
                for r in sample.reference_calls
            ],
        }
    )
