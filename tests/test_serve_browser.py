"""`cardtool serve` end to end in a real headless Chromium (Debian's, driven by Playwright): the page
shows the cards, follows an edit to a card file, shows a broken edit's located error beside the last
good cards, and its error links open the file at that line.

.ci/run installs chromium; elsewhere these tests are skipped when it is missing, unless
CARDTOOL_BROWSER_TESTS=required (as CI sets it), when its absence fails them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("CARDTOOL_BROWSER_TESTS") == "required"
if CHROMIUM is None and not REQUIRED:
    pytest.skip("no chromium on this machine (.ci/run installs Debian's)", allow_module_level=True)
# Flags for a machine with no network and no screen (without the background ones, Chromium keeps trying).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
TIMEOUT = 30_000  # ms: a loaded CI machine lays the first cards out in several seconds


@pytest.fixture
def serving(tmp_path):
    """`cardtool serve` run as a person runs it, on a copy of a small deck, with the URL it printed."""
    shutil.copytree(DATA / "expansions" / "base", tmp_path / "deck")
    process = subprocess.Popen([sys.executable, "-m", "cardtool", "serve", "deck", "--port", "0"], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line + process.stdout.read() if process.poll() is not None else line
        yield found.group(0), tmp_path / "deck"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def page():
    assert CHROMIUM, "CARDTOOL_BROWSER_TESTS=required but chromium is not installed"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser.new_page()
        browser.close()


def test_the_page_follows_edits_and_shows_located_errors(serving, page):
    url, deck = serving
    page.goto(url)
    page.wait_for_selector("body[data-state=ok]", timeout=TIMEOUT)
    assert page.locator("#cards figure[data-side=front]").count() == 12
    assert page.locator("#pictures figure").count() == 1  # the food web of the deck's biome
    willow = page.locator("#cards figure[data-card=willow] img")
    before = willow.get_attribute("data-digest")
    # the card's PNG is rendered when first asked for: wait for it to arrive (a broken image never does)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=willow.element_handle(),
                           timeout=TIMEOUT)

    cards = deck / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Willow", "name: Weeping Willow", 1))
    page.wait_for_selector("#cards figure[data-card=willow] figcaption:text('Weeping Willow')", timeout=TIMEOUT)
    assert willow.get_attribute("data-digest") != before

    cards.write_text(cards.read_text().replace("name: Weeping Willow", "name: [Weeping Willow", 1))
    page.wait_for_selector("body[data-state=errors]", timeout=TIMEOUT)
    assert page.locator("#stale").is_visible()
    assert page.locator("#cards figure[data-card=willow] figcaption").text_content() == "Weeping Willow"
    link = page.locator("#issues li.error a.where").first
    where = link.text_content()
    assert where.startswith("deck/cards.yaml:")
    line = where.split(":")[1]
    link.click()
    page.wait_for_selector(f"tr#L{line}.hit")  # the file as it is now, the line the error names marked
    assert page.locator("tr.hit").count() == 1
    assert "[Weeping Willow" in page.locator("table.lines").text_content()

    page.go_back()
    cards.write_text(cards.read_text().replace("name: [Weeping Willow", "name: Willow", 1))
    page.wait_for_selector("body[data-state=ok]", timeout=TIMEOUT)
    assert not page.locator("#stale").is_visible()
