"""`make demo` builds the same outputs as recorded (tests/golden_demo.py says how and when to re-record).

Issue 14 moved every game's faces, rulebook parts and food-web step into its package; this is the check
that such moves change no output. The simulation report is left out: its games follow the bots.
"""

from __future__ import annotations

import json

import pytest

from cardtool.cli import main
from golden_demo import DECKS, RECORD, ROOT, build_argv, differences, fingerprint, libraries

RECORDED = json.loads(RECORD.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("deck", DECKS)
def test_the_demo_builds_what_was_recorded(deck, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / deck
    assert main(build_argv(deck, out)) == 0
    same_libraries = RECORDED["libraries"] == libraries()
    found = differences(RECORDED["decks"][deck], fingerprint(out), same_libraries)
    assert not found, (f"{deck}: the build differs from tests/data/golden/demo-outputs.json "
                       f"(re-record with `python tests/golden_demo.py` only if meant):\n" + "\n".join(found))


def test_a_changed_output_is_named():
    recorded = {"cards.pdf": {"sha256": "a", "pages": 2, "text_sha256": "t"}, "index.html": {"sha256": "h"}}
    built = {"cards.pdf": {"sha256": "b", "pages": 2, "text_sha256": "t"}, "extra.txt": {"sha256": "x"}}
    assert differences(recorded, built, same_libraries=True) == [
        "index.html: missing from the build", "extra.txt: new in the build", "cards.pdf: sha256 changed"]
    # under other library versions a PDF's bytes may differ, its pages and text may not
    assert differences(recorded, built, same_libraries=False) == [
        "index.html: missing from the build", "extra.txt: new in the build"]
