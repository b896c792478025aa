"""The web chat page end to end in headless Chromium: ask, see the pending action and
the untrusted source it came after, confirm, see the result and the audit entry."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from botpsy.assistant import AssistantStore
from botpsy.assistant.demo import seed_demo
from botpsy.server.app import create_app
from botpsy.server.assistant_service import AssistantService

from .helpers import call_text, scripted_model

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# BOTPSY_SCREENSHOT=docs/web-chat.png regenerates the picture in the docs from this test.
SCREENSHOT_ENV = "BOTPSY_SCREENSHOT"

pytestmark = pytest.mark.skipif(
    not shutil.which(CHROMIUM), reason=f"{CHROMIUM} is not installed (apt-get install chromium)"
)


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def test_confirm_a_pending_reply_in_the_browser(tmp_path, live, browser):
    from playwright.sync_api import expect

    expect.set_options(timeout=60_000)  # a turn on a busy shared CPU takes longer than 5 s
    store = AssistantStore(tmp_path, clock=lambda: datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    seed_demo(store, date(2026, 3, 2))
    model = scripted_model(
        [
            call_text("search_mail", query="Priya"),  # an id is read once a lookup showed it
            call_text("read_email", email_id=1),
            call_text("reply_email", email_id=1, body="Sure, I will bring the latency numbers."),
            "Done: I replied to Priya that you will bring the numbers.",
        ]
    )
    app = create_app(model, assistant=AssistantService.open(model, store=store))
    with live(app) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(server.url + "/")
        expect(page.locator("#model")).to_have_text("model: botpsy-test")

        page.fill("#input", "Reply to Priya that I'll bring the latency numbers")
        page.click("#send")
        pending = page.locator(".pending")
        expect(pending).to_be_visible()
        expect(pending.locator("h3")).to_have_text("Send the reply?")  # what it does, in words
        expect(pending.locator("code")).to_contain_text("reply_email(email_id=1")
        expect(pending.locator(".target")).to_contain_text("a reply to Priya")  # whom it goes to
        expect(pending.locator(".taint")).to_contain_text("read_email: email 1 from Priya Shah")  # the item read
        read = page.locator(".card.executed").last  # the search, then the read
        expect(read.locator(".what")).to_have_text("Read the email")  # the call as a person reads it
        expect(read.locator(".raw code")).to_contain_text("read_email")  # raw, folded away
        expect(read.locator(".raw code")).to_be_hidden()
        answer = page.locator(".msg.assistant").last
        expect(answer).to_contain_text("From Priya Shah")  # the email, said for a person
        expect(answer).to_contain_text("Waiting for your confirmation")
        expect(answer).not_to_contain_text('"body"')  # no JSON

        pending.get_by_role("button", name="Confirm").click()
        expect(pending.locator(".outcome")).to_have_text("Confirmed")
        expect(page.locator(".card.confirmed")).to_contain_text("reply_email")
        expect(page.locator(".msg.assistant").last).to_have_text(
            "Done: I replied to Priya that you will bring the numbers."
        )

        page.click("#show-audit")
        rows = page.locator("#audit-rows tr")
        expect(rows).to_have_count(4)  # confirmed, asked, read, search (newest first)
        expect(rows.first).to_contain_text("reply_email")
        expect(rows.first.locator(".decision")).to_have_text("confirmed")
        expect(rows.nth(1)).to_contain_text("output of read_email(email_id=1)")  # among the sources
        shot = Path(os.environ.get(SCREENSHOT_ENV) or tmp_path / "web-chat.png")
        page.screenshot(path=str(shot))
        assert shot.read_bytes().startswith(b"\x89PNG")
        assert store.query_one("SELECT 1 FROM emails WHERE folder = 'sent' AND in_reply_to = 1")
