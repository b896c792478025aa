"""Dynamic tool selection over the real assistant tools: recall and prompt share."""

from __future__ import annotations

import json

import pytest

from botpsy.agent.selection import (
    ACTION_WORDS,
    Bm25ToolSelector,
    ToolSelector,
    clause_verbs,
    commands,
    name_family,
    phrase_pattern,
    tool_role,
)
from botpsy.assistant import AssistantStore, assistant_tools
from botpsy.types import ToolSpec

QUERIES: list[tuple[str, list[str]]] = [
    ("What's on my calendar tomorrow?", ["list_events"]),
    ("Schedule lunch with Dana on Thursday at noon", ["create_event"]),
    ("Push the standup to 10am", ["list_events", "update_event"]),
    ("push the dentist check-up back an hour", ["list_events", "update_event"]),
    ("Cancel the dentist appointment", ["list_events", "delete_event"]),
    ("When am I free for an hour on Wednesday?", ["find_free_slots"]),
    ("Check my inbox", ["list_inbox"]),
    ("Did Dan write back?", ["search_mail"]),
    ("Reply to Sam's email saying I'll be there", ["search_mail", "reply_email"]),
    ("Write to hr@northwind.example asking about my vacation days", ["send_email"]),
    ("Throw away the spam from deals digest", ["search_mail", "trash_email"]),
    ("Draft an email to Dan about the budget review", ["search_contacts", "draft_email"]),
    ("Who is Dan Okafor?", ["search_contacts"]),
    ("Save Tom Becker, +49 170 1234567, as a new contact", ["add_contact"]),
    ("Take a note: buy paint for the fence", ["create_note"]),
    ("What did I write about the garden plans?", ["search_notes"]),
    ("Add eggs to the grocery list note", ["search_notes", "append_to_note"]),
    ("Remind me to call mom at 6pm", ["add_reminder"]),
    ("What do I still have to do this week?", ["list_reminders"]),
    ("I finished the tax forms, tick that off", ["list_reminders", "complete_reminder"]),
    ("What files do I have in the projects folder?", ["list_files"]),
    ("Open todo.md", ["read_file"]),
    ("Which document talks about the lease?", ["search_files"]),
    (
        "Set up a design review with Sam tomorrow at 2pm and invite him",
        ["search_contacts", "create_event"],
    ),
    (
        "Book a call with Dan next Monday at 10 and email him the agenda",
        ["create_event", "send_email"],
    ),
    # bookings arrive by mail; a clock time means the calendar; "tell Sam" sends
    ("Did the airline send my boarding pass?", ["search_mail"]),
    ("Move my gym session to 7pm", ["list_events", "update_event"]),
    ("Tell Jonas I'm running 10 minutes late", ["search_contacts", "send_email"]),
    (
        "Put my flight to Oslo on the calendar, the details are in my email",
        ["search_mail", "read_email", "create_event"],
    ),
    ("What's on my shopping list?", ["search_notes", "read_note"]),
    (
        "Save the p95 numbers from the latency email into work/latency.txt",
        ["search_mail", "read_email", "write_file"],
    ),
    (
        "Let Dana know I'll be late and move our 1:1 to 3pm",
        ["list_events", "update_event", "search_contacts", "send_email"],
    ),
    ("Can we fit a call with Priya in on Friday?", ["find_free_slots"]),
]


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> list[ToolSpec]:
    store = AssistantStore(tmp_path_factory.mktemp("store"))
    return [t.spec for t in assistant_tools(store)]


def _size(spec: ToolSpec) -> int:
    return len(json.dumps(spec.to_openai()))


def test_recall_and_prompt_share(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    total = sum(_size(t) for t in tools)
    misses, shares = [], []
    for query, needed in QUERIES:
        chosen = {t.name for t in selector.select(query, tools)}
        misses += [(query, name) for name in needed if name not in chosen]
        shares.append(sum(_size(t) for t in tools if t.name in chosen) / total)
    assert misses == []
    assert sum(shares) / len(shares) <= 0.40


def test_families_follow_tool_names(tools: list[ToolSpec]) -> None:
    families = {t.name: name_family(t.name) for t in tools}
    assert {families[n] for n in ("list_inbox", "search_mail", "send_email")} == {"email"}
    assert families["find_free_slots"] == "event" and families["add_reminder"] == "remind"
    assert len(set(families.values())) == 7  # and search_everything's own


def test_order_is_the_registry_order_and_used_tools_stay(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    chosen = selector.select("Remind me to call mom", tools, always=["send_email"])
    names = [t.name for t in chosen]
    assert "send_email" in names and "add_reminder" in names
    order = [t.name for t in tools]
    assert names == sorted(names, key=order.index)


def test_unmatched_request_shows_every_tool(tools: list[ToolSpec]) -> None:
    selection = Bm25ToolSelector().choose("hi there", tools)
    assert selection.fallback and selection.tools == tools


def test_explicit_families_and_hints() -> None:
    specs = [
        ToolSpec(name="get_weather", description="Weather in a city"),
        ToolSpec(name="get_forecast", description="Forecast for the next days"),
        ToolSpec(name="convert_currency", description="Convert an amount"),
    ]
    selector = Bm25ToolSelector(families={"get_weather": "weather", "get_forecast": "weather"})
    assert [t.name for t in selector.select("weather in Oslo", specs)] == [
        "get_weather",
        "get_forecast",
    ]
    assert "contact" in Bm25ToolSelector().query_terms("lunch with Sam")
    assert "contact" not in Bm25ToolSelector(hints=False).query_terms("lunch with Sam")
    assert "file" in Bm25ToolSelector().query_terms("open notes.txt")


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        Bm25ToolSelector(k=0)
    with pytest.raises(ValueError):
        Bm25ToolSelector(ratio=0)


def _names(selector: Bm25ToolSelector, query: str, tools: list[ToolSpec]) -> set[str]:
    return {t.name for t in selector.select(query, tools)}


def test_named_action_prunes_the_other_actions(tools: list[ToolSpec]) -> None:
    chosen = _names(Bm25ToolSelector(), "Push the standup to 10:30", tools)
    assert {"list_events", "update_event"} <= chosen  # the finder stays with the action
    assert not chosen & {"create_event", "delete_event", "find_free_slots"}
    whole = _names(Bm25ToolSelector(prune_actions=False), "Push the standup to 10:30", tools)
    assert {"create_event", "delete_event"} <= whole


def test_vague_request_keeps_every_action_of_its_family(tools: list[ToolSpec]) -> None:
    chosen = _names(Bm25ToolSelector(), "The standup tomorrow, sort it out", tools)
    assert {"create_event", "update_event", "delete_event"} <= chosen


def test_questions_and_hinted_families_only_look(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    question = _names(selector, "What's on my calendar on Friday?", tools)
    assert "list_events" in question and "create_event" not in question
    hinted = _names(selector, "Read me Priya's newest email", tools)  # "Priya" -> contact
    assert {"search_contacts", "search_mail", "read_email"} <= hinted
    assert not hinted & {"add_contact", "trash_email", "reply_email"}


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("Add lunch with Sara to my calendar tomorrow from 12:30 to 13:30.", "create_event"),
        ("Remind me to call Anna tomorrow at 9am", "add_reminder"),
    ],
)
def test_a_name_brings_its_family_to_look_not_to_act(
    tools: list[ToolSpec], request_text: str, wanted: str
) -> None:
    """ "Add lunch with Sara" names the calendar's action, not add_contact: a model offered
    add_contact there took it (docs/assistant/default-model)."""
    chosen = _names(Bm25ToolSelector(), request_text, tools)
    assert {wanted, "search_contacts"} <= chosen
    assert "add_contact" not in chosen


@pytest.mark.parametrize(
    "request_text",
    [
        "Block next Monday, March 17, as an all-day 'Team offsite'.",
        "Add 'Team dinner' on Thursday from 19:00 to 21:00.",
        "Is Friday morning free before 11? If it is, book 'Slides prep' from 10:00 to 11:00.",
    ],
)
def test_quoted_titles_and_sentence_openers_are_no_names(
    tools: list[ToolSpec], request_text: str
) -> None:
    """offsite_all_day: 'Team offsite' in quotes brought in the contacts, and the model
    called get_contact. A title in quotes, or a sentence's first word ("If"), is capitalised
    for its own reasons."""
    chosen = _names(Bm25ToolSelector(), request_text, tools)
    assert "create_event" in chosen and not chosen & {"search_contacts", "get_contact"}
    # a name mid-sentence still is one, also after a colon or in a later sentence
    assert "contact" in Bm25ToolSelector().query_terms("Lunch at noon: Sam joins")
    assert Bm25ToolSelector().query_terms("Where is it? Ask Jonas.").count("contact") == 1


def test_a_named_contacts_family_still_acts(tools: list[ToolSpec]) -> None:
    assert "add_contact" in _names(Bm25ToolSelector(), "Add Sam to my contacts", tools)
    saved = _names(Bm25ToolSelector(), "Save Lena Hoffmann as a contact", tools)
    assert "add_contact" in saved


def test_tell_someone_sends_but_tell_me_asks(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    assert "email" in selector.query_terms("Tell the team that the demo moved")
    assert "email" not in selector.query_terms("Tell me what is due this week")
    # one known by whose they are ("let mia's school know") is written to as well
    assert "email" in selector.query_terms("let mia's school know we will both come")
    assert "email" in selector.query_terms("Let Dana know I'll be late")
    assert "event" in selector.query_terms("Move my gym session to 7pm")


@pytest.mark.parametrize("request_text", [
    "parent-teacher thing on thursday: ping me 60 mins ahead of it",
    "nudge me 2 days before my dentist appointment",
    "give me a heads up on friday about the bins",
    "buzz me at 6 to water the plants",
])
def test_a_nudge_to_me_asks_for_a_reminder(tools: list[ToolSpec], request_text: str) -> None:
    """"ping me" is a reminder to the user, where "ping Sam" is a message: the selector
    offered the calendar alone and the model looked for free slots."""
    selection = Bm25ToolSelector().choose(request_text, tools)
    assert [sorted(g) for g in selection.requested] == [["add_reminder"]]


@pytest.mark.parametrize(("request_text", "asked"), [
    ("calendar: call with the insurance guy weds 16:00, half an hour", [["create_event"]]),
    ("calendar: what's on friday?", []),  # labelled, but a question
    ("the bouldering on saturday is off, take it out of my calendar", [["delete_event"]]),
])
def test_a_calendar_label_adds_and_out_of_the_calendar_deletes(tools: list[ToolSpec],
                                                                request_text, asked) -> None:
    """A request labelled "calendar:" adds an event, as "todo:" adds a reminder (the model
    looked for free slots); "take it out of my calendar" deletes one."""
    selection = Bm25ToolSelector().choose(request_text, tools)
    assert [sorted(g) for g in selection.requested] == asked


def test_at_the_bottom_of_a_file_adds_to_it(tools: list[ToolSpec]) -> None:
    """"stick 'book flights' at the bottom of my todo.md": the model wrote a new file
    called "book flights"; adding to the file is among what the request asks."""
    from botpsy.assistant.toolsets import assistant_selector
    selection = assistant_selector().choose("stick 'book flights' at the bottom of my todo.md", tools)
    assert any("append_to_file" in group for group in selection.requested)


def test_an_item_put_in_the_free_time_found_is_an_event(tools: list[ToolSpec]) -> None:
    """"find me a free half hour thursday morning and pop 'call Tom re heating' in there":
    the second clause names no kind; the slot found is in the calendar."""
    selection = Bm25ToolSelector().choose(
        "find me a free half hour thursday morning and pop 'call Tom re heating' in there", tools)
    assert [sorted(g) for g in selection.requested] == [["find_free_slots"], ["create_event"]]


def test_pinging_someone_else_still_sends(tools: list[ToolSpec]) -> None:
    selection = Bm25ToolSelector().choose("ping Sam about the dinner", tools)
    assert [sorted(g) for g in selection.requested] == [["send_email"]]


@pytest.mark.parametrize(
    ("request_text", "asked"),
    [
        # one group per clause, in the clause's own family
        ("Find the babysitter's number in my contacts and remind me to call her at 12",
         [{"add_reminder"}]),
        ("Put 'Dinner with Jamie' on Saturday at 19:30 and email Jamie the plan",
         [{"create_event"}, {"send_email"}]),
        ("Look up Tom Becker's phone number and save it in a note called 'Landlord'",
         [{"create_note"}]),  # "save" is write_file's word too, but the clause names a note
        ("Add Lena Hoffmann, lena@mailbox.example, to my contacts and email her the plan",
         [{"add_contact"}, {"send_email"}]),  # commas do not end a clause
        ("I've watered the plants, tick that reminder off.", [{"complete_reminder"}]),
        ("Is Friday morning free? If it is, book 'Slides prep' from 10:00 to 11:00.",
         [{"create_event"}]),  # the question only looks; the verb after a comma acts
        # a thing added to a list the user keeps: appended to that note, named or not
        ("Add olive oil to my grocery list note.", [{"append_to_note"}]),
        ("Add Piranesi to my books to read", [{"append_to_note"}]),
        ("add oat milk and bananas to the groceries", [{"append_to_note"}]),  # one list
        # an item labelled with its kind
        ("todo: descale the coffee machine", [{"add_reminder"}]),
        # said as a replacement: a change, whatever "make" or "book" asks to add
        ("the dentist thing next monday, make it 9 instead", [{"update_event"}]),
        ("make lunch with Jonas an hour and a half instead of an hour", [{"update_event"}]),
        # said as a comparison, or as what is true now: a change of the item
        ("make the dentist appointment half an hour longer", [{"update_event"}]),
        ("parent-teacher meeting is in room 3A now, not 2B", [{"update_event"}]),
        ("my 1:1 with priya is in room 4.10 now", [{"update_event"}]),
        # a weekday's short name is the calendar's, as its full name is
        ("block tue the 15th 9-11 for deep work", [{"create_event"}]),
        # asked for nothing: questions, a noun that is also a verb, a polite question acts
        ("When is my next meeting with Dan?", []),
        ("Read the email about the quarterly numbers", []),
        ("Move the PyWeekly newsletter to the trash.", []),
        ("Could you email Dana the agenda?", [{"send_email"}]),
        # the verb after a subject; a clause's object that is a tool's verb
        ("Lunch with Jonas moves to 13:00", [{"update_event"}]),
        ("The board review is cancelled, take it off the calendar", [{"delete_event"}]),
        ("Find Dan's email and write him a draft about the slides", [{"draft_email"}]),
        # "find" asks for slots only with another cue
        ("Find my meeting with Priya and remind me an hour before it", [{"add_reminder"}]),
        ("Find a free slot on Friday", [{"find_free_slots"}]),
        # plain making verbs, and a phrasal verb with its object inside
        ("yoga friday 6pm, pop it in the calendar", [{"create_event"}]),
        ("pencil in a haircut on Friday at 10", [{"create_event"}]),
        ("the vet visit is sorted, you can tick it off", [{"complete_reminder"}]),
        ("quick note: the gate code is 9921", [{"create_note"}]),
        # a person added to an item that exists changes it; one put in the calendar is new
        ("add Priya to tomorrow's standup as a guest", [{"update_event"}]),
        ("invite Jonas to the team lunch on thursday", [{"update_event"}]),
        ("put a haircut in my calendar thursday 5:30pm", [{"create_event"}]),
        # an invitation beside an event that is made is its attendee, not a mail
        ("book a table for two on friday at 8pm and invite Jamie", [{"create_event"}]),
        # a verb that asks for a draft wants one, whatever its object
        ("prepare a reply to the landlord's email saying the 3rd works", [{"draft_email"}]),
        # asked to be told, or to change nothing: no action
        ("remind me who Dan is", []),
        ("what's the wifi code? don't change anything", []),
        ("is the boiler service booked? don't tick anything off", []),
        ("Dana asked about the offsite - draft her a yes, don't send it", [{"draft_email"}]),
        # a message given to someone is sent, whatever the verb
        ("drop Nora a line about the climbing trip", [{"send_email"}]),
        ("shoot Dana an email saying the slides are done", [{"send_email"}]),
        ("fire off a quick mail to Priya about the budget", [{"send_email"}]),
        ("make a note of the gate code 4471", [{"create_note"}]),
        # a particle belongs to the verb: no one is given the note
        ("jot down a note called paint colours: hall white, bath blue", [{"create_note"}]),
        ("write up a note about the trip", [{"create_note"}]),
        # a new item the user wants, by its kind
        ("need a to-do to fix the bike light. no date, whenever", [{"add_reminder"}]),
        ("I want a new note for the trip ideas", [{"create_note"}]),
        # a day marked in the calendar is an event; an item marked done is completed
        ("mark dec 24 to 26 as xmas at mums, all day", [{"create_event"}]),
        ("mark the vet reminder as done", [{"complete_reminder"}]),
        # a person's number is saved to the contacts, not to a file
        ("save Lena's number, 0170 123 456", [{"add_contact"}]),
        ("bump lunch with Jonas to 1pm", [{"update_event"}]),
        # a plural noun is not its singular's verb ("books"), nor a noun a predicate
        ("can u export my books to read list into a file called books.txt", [{"write_file"}]),
    ],
)
def test_requested_actions_are_what_each_clause_asks(
    tools: list[ToolSpec], request_text: str, asked: list[set[str]]
) -> None:
    """``Selection.requested`` drives single_call mode's follow-through: a clause's verb
    names the action, and the clause's own family picks among the tools it could mean."""
    selection = Bm25ToolSelector().choose(request_text, tools)
    assert [set(group) for group in selection.requested] == asked


def test_commands_drop_questions_and_split_clauses() -> None:
    assert commands("What's on Friday? Then please book the gym at 7.") == ["book the gym at 7"]
    assert commands("Read notes/todo.md and add a reminder") == ["Read notes/todo.md", "add a reminder"]
    assert clause_verbs("If it is, book it") == ["If", "book"]
    # things added to one list are one clause; a second verb after the list is its own
    assert commands("add oat milk and bananas to the groceries") == [
        "add oat milk and bananas to the groceries"]
    assert commands("add milk to the groceries and call mum") == [
        "add milk to the groceries", "call mum"]


def test_tool_roles_come_from_names() -> None:
    assert tool_role("search_mail", "email", ACTION_WORDS).look
    slots = tool_role("find_free_slots", "event", ACTION_WORDS)
    assert not slots.look and {"free", "slot"} <= slots.cues
    append = tool_role("append_to_note", "note", ACTION_WORDS)
    assert not append.look and "to" not in append.cues  # stopwords in a name cue nothing
    unknown = tool_role("convert_currency", name_family("convert_currency"), ACTION_WORDS)
    assert unknown.look  # an unknown verb is never guessed away


def test_stemming_is_safe_from_several_threads():
    """The server and parallel evals select tools from many threads; a shared Snowball
    stemmer mixed their words up (IndexError deep in the stemmer)."""
    from concurrent.futures import ThreadPoolExecutor

    from botpsy.agent.selection import stem_words

    text = "remind me to reschedule the appointments and archive the newsletters " * 20
    expected = stem_words(text)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(stem_words, [text] * 400))
    assert all(r == expected for r in results)


def test_a_selector_that_only_selects_inherits_choose(tools: list[ToolSpec]) -> None:
    """The agent calls ``choose``; a ranking-only selector gets it from the Protocol."""

    class FirstTwo(ToolSelector):
        def select(self, query: str, tools: list[ToolSpec], *, always=()) -> list[ToolSpec]:
            return tools[:2]

    selection = FirstTwo().choose("anything", tools)
    assert selection.tools == tools[:2]
    assert not selection.fallback and selection.requested == []


@pytest.mark.parametrize(
    ("request_text", "looked"),
    [
        ("Find my meeting with Priya and remind me an hour before it",
         [{"list_events", "search_events"}]),
        ("Check when the parent-teacher meeting is and add a reminder",
         [{"list_events", "search_events"}]),
        # a person's address is a contact's field, whatever the word
        ("Get Jamie's email and send her the plan", [{"search_contacts", "get_contact"}]),
        ("Look up Dan's address and draft him a note", [{"search_contacts", "get_contact"}]),
        ("Email Dan the plan", []),  # no lookup asked for
    ],
)
def test_looked_is_what_a_clause_asks_to_look_up(
    tools: list[ToolSpec], request_text: str, looked: list[set[str]]
) -> None:
    """``Selection.looked``: single_call mode's first call of a two-step request."""
    selection = Bm25ToolSelector().choose(request_text, tools)
    assert [set(group) for group in selection.looked] == looked


def test_a_question_that_names_no_kind_of_item_gets_the_broad_search(tools: list[ToolSpec]) -> None:
    """``broad`` tools are never ranked (their description names every family); a
    question that names no family is offered them alone, as the lookup to make first."""
    selector = Bm25ToolSelector(broad=("search_everything",))
    for question in ("When does the plumber come?", "How much is the electricity bill?"):
        selection = selector.choose(question, tools)
        assert [t.name for t in selection.tools] == ["search_everything"]
        assert selection.answer_from == [frozenset({"search_everything"})]
    named = selector.choose("What's on my calendar tomorrow?", tools)
    # a question that names its kind is answered from that kind's look tools
    assert "search_everything" not in [t.name for t in named.tools]
    assert named.answer_from == [frozenset({"list_events", "search_events"})]
    remind = selector.choose("Remind me to call Anna tomorrow at 9am", tools)
    assert "search_everything" not in [t.name for t in remind.tools]
    # what rules out every change is no part of the question; being told is asking
    told = selector.choose("don't change anything, just tell me what the guest wifi is called", tools)
    assert told.answer_from == [frozenset({"search_everything"})]


@pytest.mark.parametrize(("request_text", "families"), [
    ("send jamie my reading list from my notes", ["note"]),
    ("email Dan the p95 from the last week in latency_numbers.csv", ["file"]),
    ("priya emailed asking to move our 1:1", ["email"]),
    ("Sam said to order it by some day, check his mail", ["email"]),
    ("I'm taking the train from my e-ticket email on Sunday", ["email"]),
    # an item named first, then what to do with it
    ("that power bill email, remind me 2 days before its due", ["email"]),
    ("the groceries note, send it to jamie", ["note"]),
    # where a thing goes is no source
    ("put it in my calendar", []),
    ("Copy it into a new note", []),
])
def test_the_kind_a_request_takes_something_from_is_looked_up_first(
        request_text: str, families: list[str]) -> None:
    from botpsy.agent.selection import source_families

    assert source_families(request_text) == families


@pytest.mark.parametrize(("request_text", "families"), [
    ("send my partner the grocery list", ["note"]),
    ("copy my gift ideas for dad into a new note called 'x'", ["note"]),
    ("can u export my books to read list into a file called books.txt", ["note"]),
    ("Copy my Hamburg packing list from the files into a new note", ["file"]),
    ("put 'call x' on my to do list for tomorrow", []),   # where it goes, not a source
    ("add oat milk to my grocery list", []),
    ("remind me to update the guest list", []),            # nothing is passed on
    ("send my to do list to jamie", []),                   # the reminders', not a note
    ("draft dan an email with the p95 for all four weeks from the latency csv", ["file"]),
])
def test_a_list_the_request_passes_on_is_a_note_to_look_up_first(request_text, families):
    from botpsy.agent.selection import source_families
    assert source_families(request_text) == families


def test_a_noun_before_a_kind_noun_describes_the_item(tools: list[ToolSpec]) -> None:
    """"my todo file" is a file and "the dentist reminder mail" a mail: the word before
    the kind's noun lends no kind of its own."""
    selector = Bm25ToolSelector()
    assert "remind" not in selector.choose("what's in my todo file?", tools).chosen
    chosen = selector.choose("reply to the dentist reminder mail: see you then", tools).chosen
    assert "email" in chosen and "remind" not in chosen


def test_a_plural_noun_is_not_its_singulars_verb(tools: list[ToolSpec]) -> None:
    shown = {t.name for t in Bm25ToolSelector().select("which books did I want to read", tools)}
    assert "create_event" not in shown


def test_phrasal_verbs_hold_their_object() -> None:
    assert phrase_pattern("cross off").search("you can cross that one off")
    assert phrase_pattern("set up").search("set it up for monday")
    assert not phrase_pattern("call off").search("call mum about the off-site")
    assert phrase_pattern("write back").search("write Dan back")
    assert phrase_pattern("push back").search("push the dentist check-up back an hour")
    assert not phrase_pattern("push back").search("push the standup to 10 and come back")


def test_remind_me_who_asks_to_be_told(tools: list[ToolSpec]) -> None:
    selection = Bm25ToolSelector().choose("who's Dan again? just remind me", tools)
    assert "remind" not in selection.chosen and "contact" in selection.chosen


def test_an_action_ruled_out_names_no_family(tools: list[ToolSpec]) -> None:
    selector = Bm25ToolSelector()
    assert "create_event" not in {t.name for t in selector.select(
        "is the gym open on sunday? don't book anything", tools)}
    assert "remind" in selector.choose("don't forget to call mum at 5", tools).chosen


def test_a_board_is_no_boarding_pass(tools: list[ToolSpec]) -> None:
    """The synonyms are stemmed: "boarding" made "the board slides review" a mail. A
    boarding pass is the phrase."""
    selector = Bm25ToolSelector()
    assert "email" not in selector.query_terms("whatever room the board slides review is in")
    assert "email" in selector.query_terms("did the airline send my boarding pass?")


def test_who_is_in_something_on_a_day_asks_its_attendees(tools: list[ToolSpec]) -> None:
    """"who's in the roadmap review tmrw?" searched the contacts for "roadmap review"."""
    selector = Bm25ToolSelector()
    first = selector.choose("who's in the roadmap review tomorrow?", tools).answer_from[0]
    assert "list_events" in first
    assert "search_contacts" in selector.choose("who is Nora?", tools).answer_from[0]


def test_who_a_relation_is_and_a_field_without_apostrophe_ask_the_contacts(
        tools: list[ToolSpec]) -> None:
    """"who's my landlord again + his email" searched the mail for "landlord again";
    "whats sams email? draft him ..." searched the mail for Sam's messages."""
    selector = Bm25ToolSelector()
    for question in ("who's my landlord again + his email",
                     "whats sams email? draft him a note about the rota"):
        selection = selector.choose(question, tools)
        assert "search_contacts" in selection.answer_from[0]
        assert "search_contacts" in [t.name for t in selection.tools]
    # a determiner or pronoun before "email" is no name
    assert "search_contacts" not in selector.choose("whats this email about?",
                                                    tools).answer_from[0]



def test_a_list_for_a_person_whose_name_starts_like_a_day_is_named() -> None:
    """"my list for monica" names a list; "my list for monday" is a day's."""
    from botpsy.agent.selection import _NAMED_LIST
    assert _NAMED_LIST.search("send my list for monica to ana")
    assert not _NAMED_LIST.search("send my list for monday to ana")
    assert not _NAMED_LIST.search("send my list for sat to ana")


def test_a_line_ticked_off_in_a_named_file_asks_for_the_file_written(tools: list[ToolSpec]) -> None:
    """"tick off slides for dan in todo.md" completed a reminder that shared a word."""
    selector = Bm25ToolSelector()
    assert selector.choose("tick off slides for dan in todo.md", tools).requested == [
        frozenset({"write_file"})]
    assert selector.choose("tick off water the plants", tools).requested == [
        frozenset({"complete_reminder"})]


def test_a_file_named_as_where_things_go_is_the_kind_added_to(tools: list[ToolSpec]) -> None:
    """"add the titles from my books-to-read note to notes/todo.md" appended to the note."""
    chosen = Bm25ToolSelector().choose(
        "add the titles from my books-to-read note to notes/todo.md as open items", tools)
    assert chosen.requested and "append_to_file" in chosen.requested[0]
    assert "append_to_note" not in chosen.requested[0]


def test_a_note_started_with_a_persons_number_in_it_is_a_new_note(tools: list[ToolSpec]) -> None:
    """"start a note 'Designer contacts' with Marta's phone number in it": "start a" makes
    an item, and the quoted name's "contacts" names no kind."""
    chosen = Bm25ToolSelector().choose(
        "start a note 'Designer contacts' with Marta's phone number in it", tools)
    assert chosen.requested == [frozenset({"create_note"})]
    assert Bm25ToolSelector().choose("when does the standup start?", tools).requested == []


def test_a_room_is_no_person_and_a_review_is_an_event(tools: list[ToolSpec]) -> None:
    """"the roadmap review is in Room 2.01 now" looked up a contact called Room."""
    chosen = Bm25ToolSelector().choose("the roadmap review is in Room 2.01 now", tools)
    assert chosen.chosen == ["event"] and chosen.requested == [frozenset({"update_event"})]
