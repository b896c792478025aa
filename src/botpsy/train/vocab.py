"""Word lists and value sources that fill the slots of synthetic tool requests.

A *source* turns a random generator into a ``SlotValue``: the words a user would
type (``surface``) and the JSON value the tool call must carry (``value``), so
"at 3pm" becomes ``"15:00"`` and "Ana and Bob" becomes ``["Ana", "Bob"]``.
The catalog (``botpsy.train.catalog``) names a source for every parameter.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

# fmt: off
FIRST_NAMES = (
    "Ana", "Ben", "Chloe", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
    "Kavya", "Liam", "Mei", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tara", "Umar",
    "Vera", "Wes", "Ximena", "Yusuf", "Zoe", "Marta", "Leo", "Aisha", "Tom",
)
LAST_NAMES = (
    "Alvarez", "Brown", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ito",
    "Jensen", "Kowalski", "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Schmidt",
    "Tanaka", "Weber",
)
CITIES = (
    "Paris", "Rome", "Berlin", "Madrid", "Lisbon", "Vienna", "Prague", "Oslo", "Dublin",
    "Athens", "Tokyo", "Seoul", "Toronto", "Chicago", "Boston", "Denver", "Seattle", "Austin",
    "Sydney", "Nairobi", "Lima", "Bogota", "Cairo", "Mumbai", "Hanoi", "Zurich", "Warsaw",
    "Helsinki", "Edinburgh", "Montreal",
)
AIRPORTS = {
    "Paris": "CDG", "Rome": "FCO", "Berlin": "BER", "Madrid": "MAD", "Lisbon": "LIS",
    "Vienna": "VIE", "Tokyo": "HND", "Seoul": "ICN", "Toronto": "YYZ", "Chicago": "ORD",
    "Boston": "BOS", "Seattle": "SEA", "Sydney": "SYD", "Dublin": "DUB", "Athens": "ATH",
}
TOPICS = (
    "the quarterly report", "the team offsite", "the budget review", "the new logo",
    "the hiring plan", "the product launch", "next week's workshop", "the client visit",
    "the server migration", "the reading group", "the garden project", "the school fundraiser",
    "the book club", "the kitchen renovation", "the conference talk", "the onboarding docs",
    "the release notes", "the design review", "the summer schedule", "the volunteer shift",
)
MESSAGES = (
    "I will be ten minutes late", "the slides are ready for review",
    "can we move our call to Friday", "thanks for the quick help yesterday",
    "please send me the latest draft", "the meeting room changed", "lunch is on me this time",
    "I pushed the fix to the main branch", "the tickets are booked",
    "let's meet at the usual cafe", "the package arrived this morning",
    "I finished the first chapter", "the invoice template is attached",
    "see you at the station", "dinner starts at seven",
)
EVENT_TITLES = (
    "Team standup", "Dentist appointment", "Project kickoff", "Yoga class", "Lunch with Sam",
    "Quarterly planning", "Piano lesson", "Parent-teacher meeting", "Code review", "Book club",
    "Car service", "Flight check-in", "Design sync", "Coffee with a mentor", "Board game night",
)
NOTE_TITLES = (
    "Groceries", "Trip ideas", "Gift list", "Meeting notes", "Recipe to try", "Books to read",
    "Packing list", "Workout plan", "Project ideas", "Movie list", "Garden chores",
    "Weekend plans",
)
NOTE_TEXTS = (
    "buy oat milk, eggs and basil", "visit the old town and the harbour",
    "ask about the delivery date", "try the lentil soup recipe",
    "read two chapters before Sunday", "pack chargers and a rain jacket",
    "call the plumber about the leak", "compare three laptop models",
    "water the tomatoes every morning", "book a table for four", "renew the library card",
    "back up the photo folder",
)
REMINDER_TEXTS = (
    "take out the recycling", "call mom", "pay the electricity bill",
    "pick up the dry cleaning", "submit the timesheet", "book the vet appointment",
    "water the plants", "stretch for ten minutes", "send the birthday card",
    "check the oven timer", "return the library books", "charge the bike",
)
FOLDERS = (
    "documents", "photos", "projects", "downloads", "notes", "archive", "music", "recipes",
)
FILE_STEMS = (
    "report", "budget", "itinerary", "resume", "todo", "summary", "draft", "invoice",
    "photo_001", "slides", "readme", "minutes", "plan", "contract", "checklist",
)
FILE_EXTS = (
    "txt", "md", "pdf", "csv", "docx", "jpg", "json",
)
TEXT_EXTS = ("txt", "md")
PRODUCTS = (
    "wireless headphones", "running shoes", "coffee grinder", "desk lamp", "yoga mat",
    "water bottle", "backpack", "phone charger", "mechanical keyboard", "rain jacket",
    "cast iron pan", "electric kettle", "bike helmet", "board game", "notebook",
)
BRANDS = (
    "Acme", "Northwind", "Globex", "Umbra", "Kestrel", "Lumen", "Orbit", "Pinecrest",
)
LANGUAGES = {
    "French": "fr", "Spanish": "es", "German": "de", "Italian": "it", "Japanese": "ja",
    "Portuguese": "pt", "Dutch": "nl", "Korean": "ko", "Polish": "pl", "Turkish": "tr",
}
PHRASES = (
    "good morning", "where is the train station", "thank you very much",
    "how much does this cost", "I would like a coffee", "see you tomorrow",
    "the museum opens at nine", "is this seat free", "I am allergic to nuts", "happy birthday",
)
WORDS = (
    "serendipity", "ephemeral", "resilient", "ubiquitous", "meticulous", "candid", "eloquent",
    "pragmatic", "tenacious", "whimsical", "lucid", "gregarious",
)
QUERIES = (
    "electric cars", "the history of tea", "marathon training tips", "solar panels",
    "the best hiking trails", "how volcanoes form", "sourdough starters", "remote work tools",
    "ancient Rome", "jazz festivals", "houseplants for low light", "chess openings",
)
DISHES = (
    "vegetable curry", "mushroom risotto", "banana bread", "chicken tacos", "lentil soup",
    "pad thai", "shakshuka", "apple pie", "falafel", "pumpkin soup",
)
UNITS = {
    "kilometers": "km", "miles": "mi", "meters": "m", "feet": "ft", "kilograms": "kg",
    "pounds": "lb", "liters": "l", "gallons": "gal", "celsius": "C", "fahrenheit": "F",
}
TIMEZONES = {
    "Tokyo": "Asia/Tokyo", "Berlin": "Europe/Berlin", "New York": "America/New_York",
    "London": "Europe/London", "Sydney": "Australia/Sydney", "Toronto": "America/Toronto",
    "Mumbai": "Asia/Kolkata", "Sao Paulo": "America/Sao_Paulo",
}
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
CONDITIONS = (
    "sunny", "cloudy", "light rain", "windy", "snowing", "partly cloudy", "foggy",
)
FORMULAS = ("H2O", "CO2", "NaCl", "C6H12O6", "NH3", "CH4", "H2SO4", "C2H5OH", "CaCO3", "O2")
FUNCTIONS = (
    "x^2", "3x^2 + 2x", "x^3 - 4x", "2x + 5", "sin(x)", "e^x", "x^2 - 6x + 9", "5x^4", "1/x",
    "sqrt(x)",
)
# Words of code: variable-name prefixes, table and element names, endpoints, keys (the
# ``software`` domain, whose arguments are a program's own objects and literals).
IDENTIFIER_PREFIXES = (
    "db", "main", "user", "app", "task", "sync", "local", "remote", "current", "default",
    "shared", "temp", "primary", "test", "admin",
)
TABLES = (
    "Customers", "Orders", "Invoices", "Employees", "Products", "Payments", "Sessions",
    "AuditLog", "Suppliers", "Shipments", "Accounts", "Tickets",
)
COLUMNS = (
    "id", "name", "email", "created_at", "status", "total", "country", "updated_at", "price",
    "quantity",
)
ELEMENT_IDS = (
    "loginForm", "signupForm", "searchBox", "cartTable", "profileCard", "navMenu",
    "checkoutButton", "commentList", "uploadPanel", "settingsDialog",
)
FIELD_NAMES = ("email", "username", "password", "phone", "zipCode", "birthDate", "city", "age")
ENDPOINTS = (
    "https://api.example.com/v1/users", "https://api.example.com/v2/orders",
    "https://internal.acme.io/reports", "https://data.example.org/metrics",
    "http://localhost:8080/health", "https://shop.example.net/api/cart",
)
CACHE_KEYS = ("user:42", "session:abc123", "cart:7781", "config:theme", "feed:home", "rates:eur")
JOB_NAMES = ("nightlyBackup", "cleanupTempFiles", "sendDigest", "rebuildIndex", "syncInventory")
CRONS = ("0 2 * * *", "*/15 * * * *", "0 9 * * 1", "30 23 * * *", "0 0 1 * *")
ACTION_TYPES = ("ADD_ITEM", "REMOVE_ITEM", "SET_FILTER", "RESET_CART", "LOGIN_SUCCESS")
SCOPES = ("read", "write", "admin", "billing", "profile")
# fmt: on


@dataclass(frozen=True)
class SlotValue:
    """What the user types for a slot and the argument value it stands for."""

    surface: str
    value: Any


Source = Callable[[random.Random], SlotValue]


def words(options: tuple[str, ...] | list[str]) -> Source:
    """A source that says and passes one of ``options`` verbatim."""
    return lambda rng: _same(rng.choice(list(options)))


def mapped(table: dict[str, str]) -> Source:
    """A source that says a key of ``table`` and passes its value (``French`` -> ``fr``)."""
    return lambda rng: SlotValue(*rng.choice(sorted(table.items())))


def _same(text: str) -> SlotValue:
    return SlotValue(text, text)


def person(rng: random.Random) -> SlotValue:
    """A full name, said and passed as is."""
    return _same(f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}")


def first_name(rng: random.Random) -> SlotValue:
    return _same(rng.choice(FIRST_NAMES))


def reminder_text(rng: random.Random) -> SlotValue:
    """A to-do, said and passed as is: a fixed chore half the time, else an errand built
    from a person, a topic or a product (``call Ana``, ``email Jonas about the budget
    review``, ``order the yoga mat``). Twelve fixed chores taught the shipped adapter that
    "remind me to call Anna" is no reminder: it listed them instead of adding one."""
    if rng.random() < 0.5:
        return _same(rng.choice(REMINDER_TEXTS))
    name = rng.choice(FIRST_NAMES)
    errands = (
        lambda: f"call {name}",
        lambda: f"text {name} back",
        lambda: f"email {name} about {rng.choice(TOPICS)}",
        lambda: f"order the {rng.choice(PRODUCTS)}",  # "the" fits "running shoes" too
        lambda: f"pick up {name} from the station",
        lambda: f"wish {name} a happy birthday",
        lambda: f"ask {name} about {rng.choice(TOPICS)}",
    )
    return _same(rng.choice(errands)())


def email(rng: random.Random) -> SlotValue:
    """An address like ``ana.chen@example.com``."""
    first, last = rng.choice(FIRST_NAMES).lower(), rng.choice(LAST_NAMES).lower()
    domain = rng.choice(("example.com", "mail.test", "work.example.org"))
    return _same(f"{first}.{last}@{domain}")


def phone(rng: random.Random) -> SlotValue:
    digits = "".join(str(rng.randint(0, 9)) for _ in range(7))
    return _same(f"+1-555-{digits[:3]}-{digits[3:]}")


def iso_date(rng: random.Random) -> SlotValue:
    """A date in 2025-2026, said in one of several ways, passed as ISO ``YYYY-MM-DD``."""
    day = date(2025, 1, 1) + timedelta(days=rng.randint(0, 540))
    style = rng.randrange(3)
    if style == 0:
        said = f"{MONTHS[day.month - 1]} {day.day}, {day.year}"
    elif style == 1:
        said = f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    else:
        said = day.isoformat()
    return SlotValue(said, day.isoformat())


def clock_time(rng: random.Random) -> SlotValue:
    """A time of day said as ``3pm``/``15:30``/``9:15 am``, passed as ``HH:MM``."""
    return clock(7, 20)(rng)


def clock(first_hour: int, last_hour: int) -> Source:
    """A time of day from ``first_hour`` to ``last_hour``, said like ``clock_time``: a
    working day's start and end need hours that cannot cross."""

    def draw(rng: random.Random) -> SlotValue:
        hour, minute = rng.randint(first_hour, last_hour), rng.choice((0, 0, 15, 30, 45))
        value = f"{hour:02d}:{minute:02d}"
        return SlotValue(value if rng.random() < 0.5 else _twelve_hour(hour, minute), value)

    return draw


def _twelve_hour(hour: int, minute: int) -> str:
    """``15, 0`` -> ``3pm``; ``9, 15`` -> ``9:15 am``."""
    suffix = "am" if hour < 12 else "pm"
    h12 = hour if hour <= 12 else hour - 12
    return f"{h12}{suffix}" if minute == 0 else f"{h12}:{minute:02d} {suffix}"


def date_time(rng: random.Random) -> SlotValue:
    """A day and a time said together (``March 4, 2025 at 3pm``), passed as ISO
    ``YYYY-MM-DDTHH:MM``: the form the assistant's due and start arguments take."""
    day, at = iso_date(rng), clock_time(rng)
    return SlotValue(f"{day.surface} at {at.surface}", f"{day.value}T{at.value}")


# Relative days, as the assistant's date parser (``botpsy.assistant.timeutil``) reads them:
# the model passes the day word as said and the tool, which knows today, resolves it. A 135M
# model cannot count days from the system prompt's date, but it can copy a word, and the
# assistant's users say "tomorrow" and "on Friday" far more often than "on March 4, 2025".
RELATIVE_SHARE = 0.4


def relative_day(rng: random.Random) -> SlotValue:
    """A relative day, said with its preposition (``tomorrow``, ``on Friday``, ``next
    Monday``) and passed as the parser reads it (``tomorrow``, ``Friday``, ``next Monday``)."""
    kind = rng.randrange(3)
    if kind == 0:
        return _same(rng.choice(("today", "tomorrow", "tomorrow")))
    day = rng.choice(WEEKDAY_NAMES)
    return SlotValue(f"on {day}", day) if kind == 1 else _same(f"next {day}")


def _absolute_day(rng: random.Random) -> SlotValue:
    """A calendar day said with its preposition (``on March 4, 2025``), passed as ISO."""
    day = iso_date(rng)
    return SlotValue(f"on {day.surface}", day.value)


def _moment(day: SlotValue, hh_mm: str) -> str:
    """The value of a day at a time: ISO ``2025-03-04T15:00``, or ``tomorrow 15:00``."""
    sep = "T" if day.value[:1].isdigit() else " "
    return f"{day.value}{sep}{hh_mm}"


def day_phrase(rng: random.Random) -> SlotValue:
    """A day with its own preposition, so templates read the same for both kinds:
    ``on March 4, 2025`` (passed as ISO) or a relative day (passed as said)."""
    return relative_day(rng) if rng.random() < RELATIVE_SHARE else _absolute_day(rng)


def moment_phrase(rng: random.Random) -> SlotValue:
    """A day and a time with their preposition: ``on March 4, 2025 at 3pm`` ->
    ``2025-03-04T15:00``, ``tomorrow at 9:15 am`` -> ``tomorrow 09:15``."""
    day, at = day_phrase(rng), clock_time(rng)
    return SlotValue(f"{day.surface} at {at.surface}", _moment(day, at.value))


def event_span(rng: random.Random) -> SlotValue:
    """A day with a start and an end time (``on March 4, 2025 from 3pm to 4:30 pm``,
    ``tomorrow from 9am to 10am``) for a joint ``{start+end}`` slot: passed as the two
    moments (ISO, or the relative day and a 24-hour time), the end always later."""
    day = day_phrase(rng)
    start = rng.randrange(8 * 60, 18 * 60, 30)
    end = start + rng.choice((30, 60, 90, 120))
    (h1, m1), (h2, m2) = divmod(start, 60), divmod(end, 60)
    said = f"{day.surface} from {_twelve_hour(h1, m1)} to {_twelve_hour(h2, m2)}"
    return SlotValue(said, [_moment(day, f"{h1:02d}:{m1:02d}"), _moment(day, f"{h2:02d}:{m2:02d}")])


def free_slot(rng: random.Random) -> SlotValue:
    """A free stretch of a working day, said ``from 10am to 12:30 pm`` and passed as the
    assistant's free-slot record (``start``, ``end``, ``minutes``). It lies between 10:00 and
    15:00 and lasts at least two hours, so it fits any window and length a request draws."""
    start = rng.choice((10 * 60, 10 * 60 + 30, 11 * 60, 12 * 60))
    minutes = rng.choice((120, 150, 180))
    (h1, m1), (h2, m2) = divmod(start, 60), divmod(start + minutes, 60)
    first, last = f"{h1:02d}:{m1:02d}", f"{h2:02d}:{m2:02d}"
    if rng.random() < 0.5:
        said = f"from {first} to {last}"
    else:
        said = f"from {_twelve_hour(h1, m1)} to {_twelve_hour(h2, m2)}"
    return SlotValue(said, {"start": first, "end": last, "minutes": minutes})


def integer(lo: int, hi: int) -> Source:
    """An integer in ``[lo, hi]`` said with digits."""

    def draw(rng: random.Random) -> SlotValue:
        number = rng.randint(lo, hi)
        return SlotValue(str(number), number)

    return draw


def price(rng: random.Random) -> SlotValue:
    """A price limit like ``49.99`` passed as a number."""
    amount = rng.choice((15, 20, 25, 40, 50, 75, 100, 150, 200, 300)) - rng.choice((0, 0, 0.01))
    amount = round(amount, 2)
    text = f"{amount:g}" if amount == int(amount) else f"{amount:.2f}"
    return SlotValue(text, amount)


def file_name(rng: random.Random) -> SlotValue:
    return _same(f"{rng.choice(FILE_STEMS)}.{rng.choice(FILE_EXTS)}")


def path_of(extensions: tuple[str, ...]) -> Source:
    """File paths ``folder/stem.ext`` with one of ``extensions``: a tool that writes text is
    asked for ``.txt``/``.md`` files, never the ``.jpg`` or ``.pdf`` any file may be."""
    return lambda rng: _same(
        f"{rng.choice(FOLDERS)}/{rng.choice(FILE_STEMS)}.{rng.choice(extensions)}"
    )


file_path = path_of(FILE_EXTS)


def spoken_list(items: list[str]) -> str:
    """``["A", "B", "C"]`` -> ``A, B and C``; one item is said alone."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def name_list(source: Source, lo: int = 2, hi: int = 3) -> Source:
    """Several distinct values of ``source`` said as ``A, B and C``, passed as a list."""

    def draw(rng: random.Random) -> SlotValue:
        count = rng.randint(lo, hi)
        values: list[SlotValue] = []
        while len(values) < count:
            item = source(rng)
            if item.value not in [v.value for v in values]:
                values.append(item)
        return SlotValue(spoken_list([v.surface for v in values]), [v.value for v in values])

    return draw


def code(prefix: str, digits: int) -> Source:
    """An identifier like ``ORD-123456``: said and passed as is."""

    def draw(rng: random.Random) -> SlotValue:
        return _same(prefix + "".join(str(rng.randint(0, 9)) for _ in range(digits)))

    return draw


def flight_number(rng: random.Random) -> SlotValue:
    return _same(
        f"{rng.choice(('LH', 'AF', 'BA', 'UA', 'KL', 'IB', 'NH'))}{rng.randint(100, 9999)}"
    )


def arithmetic(rng: random.Random) -> SlotValue:
    """A small arithmetic expression, passed as the same text."""
    a, b, c = rng.randint(2, 999), rng.randint(2, 99), rng.randint(2, 20)
    return _same(rng.choice((f"{a} * {b}", f"{a} + {b} * {c}", f"({a} - {b}) / {c}", f"{a} / {c}")))


def decimal(lo: float, hi: float, places: int = 1) -> Source:
    """A number in ``[lo, hi]`` with up to ``places`` decimals, passed as a float."""

    def draw(rng: random.Random) -> SlotValue:
        number = round(rng.uniform(lo, hi), places)
        return SlotValue(f"{number:g}", float(number))

    return draw


def nonzero(lo: int, hi: int) -> Source:
    """A non-zero integer in ``[lo, hi]`` (a polynomial coefficient)."""

    def draw(rng: random.Random) -> SlotValue:
        number = rng.choice([n for n in range(lo, hi + 1) if n != 0])
        return SlotValue(str(number), number)

    return draw


def money(rng: random.Random) -> SlotValue:
    """A round sum said as ``$10,000``, passed as the number ``10000``."""
    amount = rng.choice((1000, 2500, 5000, 8000, 10000, 20000, 50000, 150000))
    return SlotValue(f"${amount:,}", amount)


def number_list(rng: random.Random) -> SlotValue:
    """Three to six integers said as ``4, 8 and 15``, passed as a list."""
    values = [rng.randint(1, 99) for _ in range(rng.randint(3, 6))]
    return SlotValue(spoken_list([str(v) for v in values]), values)


def point(rng: random.Random) -> SlotValue:
    """A 2-D point said as ``(3, -2)``, passed as ``[3, -2]``."""
    x, y = rng.randint(-9, 9), rng.randint(-9, 9)
    return SlotValue(f"({x}, {y})", [x, y])


def identifier(stem: str) -> Source:
    """A program variable named for its role (``dbMonitor``), said in backticks most times,
    as requests about code do, and passed bare."""

    def draw(rng: random.Random) -> SlotValue:
        name = rng.choice(IDENTIFIER_PREFIXES) + stem
        return SlotValue(f"`{name}`" if rng.random() < 0.7 else name, name)

    return draw


def quoted(options: tuple[str, ...]) -> Source:
    """A literal said in single quotes (``'Orders'``), passed without them."""

    def draw(rng: random.Random) -> SlotValue:
        text = rng.choice(options)
        return SlotValue(f"'{text}'", text)

    return draw


def airport(rng: random.Random) -> SlotValue:
    """A city said by name, passed as its IATA airport code."""
    city, code = rng.choice(sorted(AIRPORTS.items()))
    return SlotValue(city, code)


SOURCES: dict[str, Source] = {
    "person": person,
    "first_name": first_name,
    "last_name": words(LAST_NAMES),
    "email": email,
    "emails": name_list(email),
    "people": name_list(person),
    "phone": phone,
    "date": iso_date,
    "time": clock_time,
    "datetime": date_time,
    "day_start": clock(7, 9),  # a working day's start and end: never crossing
    "day_end": clock(15, 19),
    "free_slot": free_slot,
    "event_span": event_span,
    "day_phrase": day_phrase,
    "moment_phrase": moment_phrase,
    "city": words(CITIES),
    "airport": airport,
    "flight_number": flight_number,
    "email_id": code("msg_", 5),
    "record_id": integer(1, 400),  # the assistant's numeric ids of mail, events, contacts, notes
    "order_id": code("ORD-", 6),
    "expression": arithmetic,
    "items": name_list(words(PRODUCTS), 2, 4),
    "tags": name_list(
        words(("work", "home", "urgent", "ideas", "travel", "family", "health", "later")), 1, 3
    ),
    "topic": words(TOPICS),
    "message": words(MESSAGES),
    "event_title": words(EVENT_TITLES),
    "note_title": words(NOTE_TITLES),
    "note_text": words(NOTE_TEXTS),
    "reminder_text": reminder_text,
    "folder": words(FOLDERS),
    "file_name": file_name,
    "file_path": file_path,
    "text_file_path": path_of(TEXT_EXTS),
    "product": words(PRODUCTS),
    "brand": words(BRANDS),
    "price": price,
    "language": mapped(LANGUAGES),
    "phrase": words(PHRASES),
    "word": words(WORDS),
    "query": words(QUERIES),
    "dish": words(DISHES),
    "unit": mapped(UNITS),
    "timezone": mapped(TIMEZONES),
    "condition": words(CONDITIONS),
    "minutes": integer(5, 120),
    "count": integer(1, 9),
    "small_count": integer(1, 4),
    "days": integer(1, 14),
    "amount": integer(2, 500),
    "temperature": integer(-5, 34),
    "rating": integer(3, 5),
    "percent": integer(5, 95),
    "length": integer(2, 40),
    "decimal": decimal(0.5, 20.0),
    "coefficient": nonzero(-9, 9),
    "numbers": number_list,
    "point": point,
    "years": integer(1, 30),
    "principal": money,
    "interest_rate": decimal(1.0, 9.0),
    "mass": integer(1, 150),
    "speed": integer(1, 60),
    "seconds": integer(1, 60),
    "body_weight": integer(45, 120),
    "body_height": decimal(1.5, 2.0, places=2),
    "small_int": integer(2, 15),
    "big_int": integer(12, 999),
    "formula": words(FORMULAS),
    "function": words(FUNCTIONS),
    "monitor_ref": identifier("Monitor"),
    "session_ref": identifier("Session"),
    "data_source_ref": identifier("DataSource"),
    "cache_ref": identifier("Cache"),
    "element_ref": identifier("Element"),
    "handler_ref": identifier("Handler"),
    "chart_ref": identifier("Chart"),
    "queue_ref": identifier("Queue"),
    "store_ref": identifier("Store"),
    "payload_ref": identifier("Payload"),
    "repository_ref": identifier("Repository"),
    "image_ref": identifier("Image"),
    "logger_ref": identifier("Logger"),
    "table": quoted(TABLES),
    "columns": name_list(words(COLUMNS), 2, 4),
    "column": words(COLUMNS),
    "element_id": quoted(ELEMENT_IDS),
    "field_name": quoted(FIELD_NAMES),
    "endpoint": words(ENDPOINTS),
    "cache_key": quoted(CACHE_KEYS),
    "job_name": quoted(JOB_NAMES),
    "cron": quoted(CRONS),
    "action_type": words(ACTION_TYPES),
    "scopes": name_list(words(SCOPES), 1, 3),
    "user_ref_id": code("usr_", 5),
    "migration_id": code("V", 3),
    "timeout_ms": integer(100, 9000),
    "page": integer(1, 50),
    "page_size": integer(10, 100),
    "pixels": integer(64, 1920),
    "retries": integer(1, 5),
}


def source(name: str) -> Source:
    """The value source called ``name``; a clear error names the known ones."""
    try:
        return SOURCES[name]
    except KeyError:
        known = ", ".join(sorted(SOURCES))
        raise KeyError(f"unknown slot source {name!r}; known sources: {known}") from None
