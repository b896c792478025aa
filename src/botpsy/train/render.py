"""Samples -> the exact text and tokens the model sees, with a mask of what it learns.

Training text comes from botpsy's chat formats (``fmt.render`` for the context,
``fmt.render_assistant`` for each target), the same code that builds prompts at
inference, so the two cannot drift. A conversation becomes one token sequence
whose ``assistant_masks`` are 1 only on assistant targets: system text, user
text and tool outputs inserted into the sequence are never trained on.

Each segment is tokenized on its own and the ids concatenated, exactly as at
inference (the prompt is tokenized, the answer generated after it).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from botpsy.answers import answer_facts
from botpsy.formats import ChatFormat
from botpsy.train.sample import TrainSample, assistant_turns, reference_to_json, references_at


@dataclass(frozen=True)
class Segment:
    text: str
    trainable: bool


@dataclass
class MaskedSequence:
    """Token ids and a 0/1 mask (1 = the model is trained to produce this token)."""

    input_ids: list[int]
    assistant_masks: list[int]


def segments(fmt: ChatFormat, sample: TrainSample) -> list[list[Segment]]:
    """Context/target segments; a new sequence starts whenever the format re-renders
    history differently (the next context no longer extends the text so far)."""
    sequences: list[list[Segment]] = []
    current: list[Segment] = []
    text = ""
    for index in assistant_turns(sample):
        context = fmt.render(sample.messages[:index], sample.tools, add_generation_prompt=True)
        if not context.startswith(text) or not current:
            if current:
                sequences.append(current)
            current, text = [], ""
        current.append(Segment(context[len(text) :], trainable=False))
        target = fmt.render_assistant(sample.messages[index])
        current.append(Segment(target, trainable=True))
        text = context + target
    if current:
        sequences.append(current)
    return sequences


def tokenize_segments(tokenizer: Any, parts: list[Segment]) -> MaskedSequence:
    ids: list[int] = []
    mask: list[int] = []
    for part in parts:
        piece = tokenizer(part.text, add_special_tokens=False)["input_ids"]
        ids += piece
        mask += [1 if part.trainable else 0] * len(piece)
    return MaskedSequence(ids, mask)


def sft_rows(
    fmt: ChatFormat, tokenizer: Any, samples: list[TrainSample]
) -> list[dict[str, list[int]]]:
    """Pre-tokenized SFT rows (``input_ids`` + ``assistant_masks``) for TRL's SFTTrainer."""
    rows = []
    for sample in samples:
        for parts in segments(fmt, sample):
            seq = tokenize_segments(tokenizer, parts)
            rows.append({"input_ids": seq.input_ids, "assistant_masks": seq.assistant_masks})
    return rows


@dataclass(frozen=True)
class DecisionPoint:
    """A prompt ending where the assistant must act, and how to grade what it does."""

    prompt: str
    references: str  # JSON list of reference calls (datasets columns must be plain)
    kind: str
    domain: str
    group: str
    sample_id: str
    answer: str = ""  # the reference assistant turn as rendered (its length bounds rollouts)
    facts: str = "[]"  # JSON list: tool-output values a text answer here must relay
    reference_chars: int = 0  # length of the reference's text answer where it has facts


def decision_points(
    fmt: ChatFormat, sample: TrainSample, all_turns: bool = False
) -> list[DecisionPoint]:
    """The first assistant turn of a sample (or every one) as a graded prompt."""
    turns = assistant_turns(sample)
    chosen = turns if all_turns else turns[:1]
    points = []
    for index in chosen:
        prompt = fmt.render(sample.messages[:index], sample.tools, add_generation_prompt=True)
        refs = json.dumps(
            [reference_to_json(r) for r in references_at(sample, index)], default=list
        )
        answer = fmt.render_assistant(sample.messages[index])
        facts = final_answer_facts(sample, index)
        points.append(
            DecisionPoint(
                prompt,
                refs,
                sample.kind.value,
                sample.domain,
                sample.group,
                sample.id,
                answer,
                json.dumps(facts),
                len(sample.messages[index].content) if facts else 0,
            )
        )
    return points


def final_answer_facts(sample: TrainSample, index: int) -> list[str]:
    """The facts a text answer at ``index`` must relay: the tool outputs since the last
    user turn that the reference answer repeats (none where the reference makes a call)."""
    message = sample.messages[index]
    if message.tool_calls or not message.content:
        return []
    outputs: list[str] = []
    for earlier in reversed(sample.messages[:index]):
        if earlier.role == "user":
            break
        if earlier.role == "tool" and earlier.content:
            outputs.append(earlier.content)
    return answer_facts(message.content, outputs[::-1])


def point_row(point: DecisionPoint) -> dict[str, str]:
    """A trainer row: the prompt and its grading columns, without the reference answer
    (reward functions get every column; they grade the calls and final answers)."""
    row = asdict(point)
    del row["answer"]
    return row


def prompt_rows(
    fmt: ChatFormat, samples: list[TrainSample], all_turns: bool = False
) -> list[dict[str, str]]:
    """Rows with a text ``prompt`` column (plus grading columns) for on-policy trainers."""
    return [point_row(point) for s in samples for point in decision_points(fmt, s, all_turns)]
