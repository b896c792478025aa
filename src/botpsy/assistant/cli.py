"""``botpsy init``: create the assistant's data store, optionally with the demo week.

    botpsy init                      # empty store in the per-user data folder
    botpsy init --demo               # with a week of demo mail, events, notes, files
    botpsy init --data-dir ./me --force   # replace an existing store there

Imports of the store and demo happen inside the command so that ``botpsy --help``
stays fast.
"""

from __future__ import annotations

import shutil
import sqlite3
from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from botpsy.agent.session import SESSIONS_DB
from botpsy.assistant.demo import seed_demo
from botpsy.assistant.user_data import DB_NAME, FILES_DIR, AssistantStore
from botpsy.console import fail
from botpsy.options import DataDirOpt
from botpsy.paths import default_data_dir
from botpsy.safety.provenance import writing_as
from botpsy.types import Origin

# No callback: the lead mounts this app without a name (``add_typer(app)``), which
# puts ``init`` straight on the ``botpsy`` command line.
app = typer.Typer(help="The assistant's local data store.", no_args_is_help=True)


@app.command("init")
def init(
    demo: Annotated[bool, typer.Option("--demo", help="Fill the store with a demo week.")] = False,
    data_dir: DataDirOpt = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Delete an existing store (database, files folder and "
                     "saved conversations; the audit log stays) first."),
    ] = False,
    today: Annotated[
        str | None,
        typer.Option(
            "--today", help="Day the demo week is built around, YYYY-MM-DD (default: today)."
        ),
    ] = None,
) -> None:
    """Create the assistant's database and files folder."""

    target = data_dir if data_dir is not None else default_data_dir()
    if AssistantStore.exists(target) and not force:
        typer.echo(
            f"A store already exists in {target}; nothing was changed. Use --force to replace it.",
            err=True,
        )
        raise typer.Exit(1)
    demo_day = _parse_day(today) if today else date.today()
    if force and AssistantStore.exists(target):
        # the saved conversations quote the old store's mail and notes: they go with it
        # (the audit log stays: it is the record of what ran)
        for name in (DB_NAME, SESSIONS_DB):
            for suffix in ("", "-wal", "-shm"):
                (target / (name + suffix)).unlink(missing_ok=True)
        shutil.rmtree(target / FILES_DIR, ignore_errors=True)
    try:
        store = AssistantStore(target)
    except (OSError, sqlite3.DatabaseError) as exc:
        fail(f"cannot make a store in {target}: {exc}")
    with store:
        if demo:
            summary = seed_demo(store, demo_day)
            typer.echo(
                f"Demo week around {demo_day}: {summary.emails} emails, "
                f"{summary.events} events, {summary.contacts} contacts, "
                f"{summary.notes} notes, {summary.reminders} reminders, "
                f"{summary.files} files ({len(summary.injections)} carry "
                "prompt injections)."
            )
    typer.echo(f"Store ready in {target}")


def _parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"--today must be YYYY-MM-DD, got {text!r}") from None


@app.command("import")
def import_data(
    path: Annotated[Path, typer.Argument(help="An .ics calendar, a .vcf address book, or mail: "
                                         "a Maildir, a folder of .eml, an .eml or an mbox file.")],
    data_dir: DataDirOpt = None,
    folder: Annotated[str, typer.Option(help="Mail folder the messages go to.")] = "inbox",
    from_others: Annotated[bool, typer.Option(
        "--from-others", help="The file came from someone else (an invitation, a card sent "
        "to you): its items are third-party text and cannot cause an action.")] = False,
) -> None:
    """Bring your own calendar, contacts or mail into the store (read-only on PATH).

    Items that cannot be read are listed and skipped; the others still come in, and
    running it again adds no duplicates. Received mail, invitations (METHOD:REQUEST,
    events organised by others) and anything imported --from-others are recorded as
    third-party: reading them makes the assistant ask before it changes anything."""
    from botpsy.assistant.ics import import_ics  # lazy: icalendar
    from botpsy.assistant.mail_import import import_mail  # lazy: startup
    from botpsy.assistant.vcard import import_vcards  # lazy: vobject

    if not path.exists():
        fail(f"no such file or folder: {path}")
    kind, importer = {".ics": ("calendar", import_ics), ".vcf": ("contacts", import_vcards)}.get(
        path.suffix.lower(), ("mail", lambda store, p: import_mail(store, p, folder)))
    target = data_dir if data_dir is not None else default_data_dir()
    try:
        store = AssistantStore(target)
    except (OSError, sqlite3.DatabaseError) as exc:
        fail(f"cannot open the store in {target}: {exc}")
    with store, writing_as(Origin.third_party if from_others else Origin.user):
        try:
            report = importer(store, path)
        except (OSError, ValueError) as exc:
            fail(f"cannot import {path} as {kind}: {exc}")
    for issue in report.issues:
        typer.echo(f"skipped {issue.source}: {issue.kind.value}: {issue.message}", err=True)
    typer.echo(f"{kind} from {path}: {report.imported} imported, {report.updated} updated, "
               f"{report.duplicates} already there, {len(report.issues)} issue(s)")
    if report.imported + report.updated + report.duplicates == 0:
        fail(f"nothing in {path} could be read as {kind}", code=1)
