"""Outputs never destroy what cardtool did not make (see "Where outputs go" in docs/printing.md).

A folder of a person's files, and a deck folder with its art, survive every `--out` misuse of every
command; wrong-kind outputs are usage errors (exit 2) with a message; re-running into cardtool's own
output folder works and replaces only cardtool's files. Card names that look like markup (matplotlib
mathtext, HTML, Jinja) reach the simulation report as plain text. `--only` naming nothing is an error.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cardtool.errors import UsageError
from cardtool.render.output import MANIFEST, staged_dir, write_file
from tests.conftest import DATA, DECKS

SMALL = DATA / "foodweb" / "valid"  # a 12-card Ecologies deck: played in single mode, quick to print


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below folder (hidden ones too) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def place(tmp_path):
    """A person's folder of files, and a deck folder holding art and notes beside it."""
    user = tmp_path / "work"
    (user / "photos").mkdir(parents=True)
    (user / "notes.txt").write_text("my notes\n")
    (user / "photos" / "fox.png").write_bytes(b"\x89PNG not really")
    (user / "index.html").write_text("<p>my page</p>\n")
    deck = tmp_path / "deck"
    shutil.copytree(SMALL, deck)
    (deck / "art").mkdir()
    (deck / "art" / "algae.png").write_bytes(b"\x89PNG the designer's art")
    (deck / "rules.md").write_text("# Rules\n")
    (deck / "tuning.yaml").write_text("change:\n  - cards: {ids: [algae]}\n    field: vp\n    values: ['1/2']\n"
                                      "targets: {stalled: 1}\n")
    return tmp_path, user, deck


def misuses(tmp_path: Path, user: Path, deck: Path) -> list[tuple[list[str], str]]:
    """(arguments, what the message says) for every command that writes, aimed at the wrong place."""
    notes = user / "notes.txt"
    single = ["--mode", "single", "--games", "2", "--seed", "1", "--jobs", "1"]
    return [
        (["render", "cards", deck, "--out", user], "is a folder"),
        (["render", "cards", deck, "--out", notes], "is not a PDF"),
        (["render", "cards", deck, "--out", deck / "cards.pdf"], "deck folder"),
        (["render", "cards", deck, "--out", deck / "art" / "algae.png"], "deck folder"),
        (["render", "rulebook", deck, "--out", user], "is a folder"),
        (["render", "rulebook", deck, "--out", deck / "rules.md"], "deck folder"),
        (["render", "alignment", "--out", user], "is a folder"),
        (["render", "alignment", "--out", notes], "is not a PDF"),
        (["render", "images", deck, "--out", user], "did not write"),
        (["render", "images", deck, "--out", user / "photos"], "did not write"),
        (["render", "images", deck, "--out", deck], "is the deck folder"),
        (["render", "images", deck, "--out", deck / "art"], "inside the deck folder"),
        (["render", "images", deck, "--out", tmp_path], "holds the deck"),
        (["render", "images", deck, "--out", notes], "is a file"),
        (["build", deck, "--out", user, "--sim-games", "0"], "did not write"),
        (["build", deck, "--out", deck, "--sim-games", "0"], "is the deck folder"),
        (["build", deck, "--out", deck / "build", "--sim-games", "0"], "inside the deck folder"),
        (["build", deck, "--out", tmp_path, "--sim-games", "0"], "holds the deck"),
        (["build", deck, "--out", notes], "is a file"),
        (["foodweb", deck, "--format", "svg", "--out", user], "did not write"),
        (["foodweb", deck, "--format", "svg", "--out", deck], "is the deck folder"),
        (["foodweb", deck, "--format", "svg", "--out", notes], "is a file"),
        (["simulate", deck, *single, "--out", user], "did not write"),
        (["simulate", deck, *single, "--out", deck / "sim"], "inside the deck folder"),
        (["simulate", deck, *single, "--out", notes], "is a file"),
        (["compare", deck, deck, *single, "--out", user], "did not write"),
        (["compare", deck, deck, *single, "--out", deck], "is the deck folder"),
        (["ladder", deck, "--games", "2", "--out", user], "did not write"),
        (["ladder", deck, "--games", "2", "--out", deck], "is the deck folder"),
        (["play", deck, "--mode", "single", "--seed", "1", "--quiet", "--log", user], "is a folder"),
        (["play", deck, "--mode", "single", "--seed", "1", "--quiet", "--log", notes], "is not a cardtool game log"),
        (["play", deck, "--mode", "single", "--seed", "1", "--quiet", "--log", deck / "game.jsonl"], "deck folder"),
        (["render", "shop", deck, "--shop", "generic", "--out", user], "did not write"),
        (["render", "shop", deck, "--shop", "generic", "--out", deck], "is the deck folder"),
        (["render", "tts", deck, "--out", user], "did not write"),
        (["render", "tts", deck, "--out", deck / "tts"], "inside the deck folder"),
        (["export", deck, "--format", "csv", "--out", user], "holds other files"),
        (["export", deck, "--format", "csv", "--out", deck], "inside the deck folder"),
        (["export", deck, "--format", "xlsx", "--out", notes], "ends in .xlsx"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", user], "did not write"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", deck / "balance"], "inside the deck folder"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", tmp_path], "holds the deck"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", notes], "is a file"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--check-only", "--out", user], "did not write"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--check-only", "--out", deck / "check"],
         "inside the deck folder"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", user / "balance", "--deck-out", user],
         "did not write"),
        (["balance", deck, "--tune", deck / "tuning.yaml", "--out", user / "balance", "--deck-out", deck / "tuned"],
         "inside the deck folder"),
        (["new", "deck", "Pond", "--game", "ecologies", "--dir", deck], "inside the deck folder"),
        (["new", "deck", "Pond", "--game", "ecologies", "--dir", notes], "is a file"),
    ]


def test_every_out_misuse_is_refused_and_loses_nothing(place, run_cli):
    tmp_path, user, deck = place
    before_user, before_deck = snapshot(user), snapshot(deck)
    for argv, message in misuses(tmp_path, user, deck):
        code, out, err = run_cli(*argv)
        shown = " ".join(str(a) for a in argv)
        assert code == 2, f"{shown}: exit {code}\n{err}"
        assert message in err and "Traceback" not in err, f"{shown}: {err}"
        assert snapshot(user) == before_user, shown
        assert snapshot(deck) == before_deck, shown
        assert sorted(p.name for p in tmp_path.iterdir()) == ["deck", "work"], shown


def test_the_misuses_cover_every_option_that_names_an_output(place):
    """A new command (or a new --out) must be added to misuses() above, or this fails."""
    import argparse

    from cardtool.cli import build_parser

    def writers(parser, path=()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from writers(sub, path + (name,))
            elif {"--out", "--log", "--dir"} & set(action.option_strings):
                yield path, action.option_strings[0]

    covered = set()
    for argv, _ in misuses(*place):
        words = [str(a) for a in argv]
        path = tuple(words[:2]) if words[0] in ("render", "new") else (words[0],)
        covered |= {(path, option) for option in ("--out", "--log", "--dir") if option in words}
    covered = {(path[:1] if path[0] == "new" else path, option) for path, option in covered}
    assert set(writers(build_parser())) <= covered


def test_a_folder_holding_decks_is_never_an_output_folder(place, run_cli):
    tmp_path, _, deck = place
    shelf = tmp_path / "shelf"
    shutil.copytree(SMALL, shelf / "decks" / "pond")
    (shelf / MANIFEST).write_text(json.dumps({"files": {"decks/pond/deck.yaml": "build"}}))  # even so
    before = snapshot(shelf)
    for out in (shelf, shelf / "decks"):
        code, _, err = run_cli("foodweb", deck, "--format", "svg", "--out", out)
        assert code == 2 and "holds the deck folder" in err and "Traceback" not in err
    assert snapshot(shelf) == before


def test_a_file_name_ending_in_a_slash_or_a_dot_is_a_folder(place, run_cli):
    _, user, deck = place
    for out in (f"{user}/", f"{user}/new/", "."):
        code, _, err = run_cli("render", "cards", deck, "--out", out)
        assert code == 2 and "names a folder" in err and "Traceback" not in err
    assert not (user / "new").exists()


def test_out_dot_in_a_folder_of_files_and_the_default_inside_a_deck_are_refused(place, run_cli, monkeypatch):
    _, user, deck = place
    before_user, before_deck = snapshot(user), snapshot(deck)
    monkeypatch.chdir(user)
    code, _, err = run_cli("render", "images", deck, "--out", ".", "--dpi", "72")
    assert code == 2 and "did not write" in err and "Traceback" not in err
    monkeypatch.chdir(deck)  # the default, build/<deck-id>/, would then be inside the deck
    for argv in (["render", "cards", "."], ["render", "images", ".", "--dpi", "72"], ["build", ".", "--sim-games", "0"],
                 ["simulate", ".", "--mode", "single", "--games", "2", "--jobs", "1"]):
        code, _, err = run_cli(*argv)
        assert code == 2 and "inside the deck folder" in err and "Traceback" not in err, argv
    assert snapshot(user) == before_user and snapshot(deck) == before_deck


def test_unwritable_outputs_are_usage_errors(place, run_cli):
    _, _, deck = place
    for argv in (["render", "cards", deck, "--out", "/proc/cardtool/cards.pdf"],
                 ["render", "images", deck, "--out", "/proc/cardtool", "--dpi", "72"],
                 ["simulate", deck, "--mode", "single", "--games", "2", "--out", "/proc/cardtool"],
                 ["play", deck, "--mode", "single", "--quiet", "--log", "/proc/cardtool/game.jsonl"],
                 ["new", "deck", "Pond", "--game", "ecologies", "--dir", "/proc/cardtool"]):
        code, _, err = run_cli(*argv)
        assert code == 2 and "/proc/cardtool" in err and "Traceback" not in err, argv


def test_rerunning_images_replaces_only_cardtools_files(tmp_path, run_cli):
    out = tmp_path / "images"
    code, _, err = run_cli("render", "images", DECKS / "symbiosis", "--only", "spring-frog-3", "--dpi", "72",
                           "--out", out)
    assert code == 0, err
    listed = json.loads((out / MANIFEST).read_text())["files"]
    assert "spring-frog-3.png" in listed and "contact-sheet.png" in listed
    (out / "my-notes.txt").write_text("keep me\n")  # a person's file put into cardtool's folder
    code, _, err = run_cli("render", "images", DECKS / "symbiosis", "--only", "winter-frog-8", "--dpi", "72",
                           "--out", out)
    assert code == 0, err
    assert (out / "winter-frog-8.png").is_file() and not (out / "spring-frog-3.png").exists()  # stale: removed
    assert (out / "my-notes.txt").read_text() == "keep me\n"
    assert "my-notes.txt" not in json.loads((out / MANIFEST).read_text())["files"]
    # a person's file where cardtool would now write its own: refused, and both are kept
    (out / "spring-frog-3.png").write_bytes(b"mine")
    before = snapshot(out)
    code, _, err = run_cli("render", "images", DECKS / "symbiosis", "--only", "spring-frog-3", "--dpi", "72",
                           "--out", out)
    assert code == 2 and "spring-frog-3.png" in err and "did not write" in err
    assert snapshot(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["images"]


def test_build_reruns_into_its_folder_and_keeps_what_others_wrote_there(tmp_path, run_cli):
    deck, out = tmp_path / "deck", tmp_path / "out"
    shutil.copytree(SMALL, deck)
    code, _, err = run_cli("build", deck, "--out", out, "--dpi", "72", "--sim-games", "0")
    assert code == 0, err
    code, _, err = run_cli("simulate", deck, "--mode", "single", "--games", "2", "--seed", "1", "--jobs", "1",
                           "--out", out / "sim")
    assert code == 0, err
    code, _, err = run_cli("render", "cards", deck, "--out", out / "extra.pdf")
    assert code == 0, err
    (out / "README.txt").write_text("printed at the shop on Monday\n")
    sim, extra = snapshot(out / "sim"), (out / "extra.pdf").read_bytes()
    code, _, err = run_cli("build", deck, "--out", out, "--dpi", "72", "--sim-games", "0")
    assert code == 0, err
    assert (out / "README.txt").read_text() == "printed at the shop on Monday\n"
    assert snapshot(out / "sim") == sim and (out / "extra.pdf").read_bytes() == extra
    assert (out / "index.html").is_file() and (out / "images" / "contact-sheet.png").is_file()
    assert not [p for p in out.rglob(".cardtool-new-*")] and not [p for p in out.rglob(".cardtool-old-*")]


def test_simulate_reruns_into_its_own_folder(tmp_path, run_cli):
    out = tmp_path / "sim"
    argv = ["simulate", SMALL, "--mode", "single", "--games", "2", "--jobs", "1", "--out", out]
    assert run_cli(*argv, "--seed", "1")[0] == 0
    (out / "analysis.ipynb").write_text("{}")
    code, _, err = run_cli(*argv, "--seed", "2")
    assert code == 0, err
    assert json.loads((out / "summary.json").read_text())["config"]["seed"] == 2
    assert (out / "analysis.ipynb").read_text() == "{}"


def test_a_pdf_output_replaces_an_older_pdf_and_records_itself_in_a_new_folder(tmp_path):
    out = tmp_path / "new" / "cards.pdf"
    write_file(out, b"%PDF-1.7 one", "pdf", command="render cards")
    assert json.loads((out.parent / MANIFEST).read_text())["files"] == {"cards.pdf": "render cards"}
    write_file(out, b"%PDF-1.7 two", "pdf")
    assert out.read_bytes() == b"%PDF-1.7 two"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "old.pdf").write_bytes(b"%PDF-1.4 someone's")
    write_file(mine / "old.pdf", b"%PDF-1.7 new", "pdf")  # a PDF named on purpose may be replaced by a PDF
    assert not (mine / MANIFEST).exists()  # a folder of other files gets no manifest
    with pytest.raises(UsageError, match="is not a PDF"):
        (mine / "letter.txt").write_text("dear")
        write_file(mine / "letter.txt", b"%PDF-1.7", "pdf")
    assert (mine / "letter.txt").read_text() == "dear"


def test_a_manifest_cannot_make_cardtool_delete_outside_its_folder(tmp_path):
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("precious")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.png").write_text("precious too")
    with staged_dir(out) as stage:
        (stage / "a.png").write_text("ours")
    names = ["../victim.txt", str(victim), "a.png", "link/a.png", ".cardtool-manifest.json"]
    (out / MANIFEST).write_text(json.dumps({"files": dict.fromkeys(names, "cardtool")}))
    os.symlink(elsewhere, out / "link")
    with staged_dir(out) as stage:
        (stage / "b.png").write_text("ours")
    assert victim.read_text() == "precious" and (elsewhere / "a.png").read_text() == "precious too"
    assert not (out / "a.png").exists() and (out / "b.png").read_text() == "ours"
    with pytest.raises(UsageError, match="did not write"):  # never written through a symlinked folder
        with staged_dir(out) as stage:
            (stage / "link").mkdir()
            (stage / "link" / "a.png").write_text("ours")
    assert (elsewhere / "a.png").read_text() == "precious too"


def test_a_failed_run_leaves_the_previous_outputs_and_no_staging_behind(tmp_path):
    out = tmp_path / "out"
    with staged_dir(out) as stage:
        (stage / "cards.pdf").write_text("first")
    with pytest.raises(RuntimeError):
        with staged_dir(out) as stage:
            (stage / "cards.pdf").write_text("half")
            raise RuntimeError("a step failed")
    assert (out / "cards.pdf").read_text() == "first"
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "cards.pdf"]
    with pytest.raises(RuntimeError):
        with staged_dir(tmp_path / "fresh") as stage:
            raise RuntimeError("failed before anything was written")
    assert not (tmp_path / "fresh").exists()


# -- card names that look like markup ---------------------------------------------------------------

HOSTILE_NAMES = {"algae": "$x^$ <script>alert(1)</script>", "willow": r"$\frac{{ 7*7 }}",
                 "mayfly": "Price: $5 & up \u202eevil\u200b", "caddis": r"$\x$ " + "long " * 30}


@pytest.fixture
def markup_deck(tmp_path):
    deck = tmp_path / "deck"
    shutil.copytree(SMALL, deck)
    cards = deck / "cards.yaml"
    text = cards.read_text()
    for card_id, name in HOSTILE_NAMES.items():
        old = f"- id: {card_id}\n  kind: organism\n  name: {card_id.capitalize()}\n"
        assert old in text, card_id
        text = text.replace(old, f"- id: {card_id}\n  kind: organism\n  name: {json.dumps(name)}\n")
    cards.write_text(text)
    return deck


def test_markup_in_card_names_reaches_the_simulation_report_as_text(markup_deck, tmp_path, run_cli):
    out = tmp_path / "sim"
    code, _, err = run_cli("simulate", markup_deck, "--mode", "single", "--games", "6", "--seed", "1",
                           "--jobs", "1", "--out", out)
    assert code == 0 and "Traceback" not in err, err
    html = (out / "report.html").read_text()
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert r"$\frac{{ 7*7 }}" in html  # never rendered as a template (7*7 would show as 49)
    assert "$x^$" in html and "Price: $5 &amp; up" in html
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")


def test_markup_in_card_names_reaches_the_food_web_picture_as_text(markup_deck, tmp_path, run_cli):
    code, _, err = run_cli("foodweb", markup_deck, "--format", "svg", "--out", tmp_path / "web")
    assert code == 0, err
    svg = (tmp_path / "web" / "RIP.svg").read_text()
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "{{ 7*7 }}" in svg


def test_charts_draw_mathtext_as_plain_text():
    from cardtool.sim import charts
    from cardtool.sim.stats import Rate

    names = ["$x^$", r"$\frac", "a $ b", r"$\x$"]
    svg = charts.forest(names, [0.1] * 4, [0.0] * 4, [0.2] * 4, [True] * 4, xlabel="$")
    assert all(name in svg for name in ("$x^$", r"$\frac", "a $ b"))
    svg = charts.rates(names, [("$x^$", [Rate(1, 2, 0.1, 0.9)] * 4)], reference=0.5, reference_label="$")
    assert "$x^$" in svg


# -- --only that matches nothing ---------------------------------------------------------------------

@pytest.mark.parametrize("target", ["cards", "images"])
def test_only_naming_no_card_is_an_error_with_suggestions_and_writes_nothing(target, tmp_path, run_cli):
    out = tmp_path / ("c.pdf" if target == "cards" else "images")
    code, _, err = run_cli("render", target, DECKS / "symbiosis", "--only", "spring-frog-3,summer-fish-per-fsh,zzz",
                           "--out", out)
    assert code == 1 and "Traceback" not in err
    assert "no card 'summer-fish-per-fsh' (did you mean 'summer-fish-per-fish'?)" in err
    assert "no card 'zzz'" in err and "'spring-frog-3'" not in err
    assert not out.exists()
    code, _, err = run_cli("render", target, DECKS / "symbiosis", "--only", " , ", "--out", out)
    assert code == 2 and "--only needs card ids" in err


# -- what a newcomer types wrong: a clear message and exit 1 or 2, never a traceback ------------------

@pytest.mark.parametrize("argv, code, message", [
    (["validate", "no-such-deck"], 1, "missing-file"),
    (["render", "cards", "{notes}"], 1, "has errors"),
    (["play", "{deck}", "--mode", "single", "--players", "0"], 2, "not 0"),
    (["play", "{deck}", "--seed", "abc"], 2, "invalid int value"),
    (["simulate", "{deck}", "--games", "-1"], 2, "--games must be at least 1"),
    (["simulate", "{deck}", "--mode", "single", "--games", "2", "--scheduler", "notaurl"], 2, "tcp://HOST:PORT"),
    (["render", "images", "{deck}", "--dpi", "0"], 2, "--dpi 0 is out of range"),
    (["build", "{deck}", "--dpi", "5000"], 2, "--dpi 5000 is out of range"),
    (["foodweb", "{deck}", "--out", "{tmp}/web"], 2, "--out is for --format svg"),
    (["diff", "{deck}", "--rev", "HEAD...HEAD~1"], 2, "two dots"),
    (["simulate", "{deck}", "--mode", "single", "--out", "{tmp}/\udcffsim"], 2, "'{tmp}/\\xffsim' is not UTF-8"),
])
def test_bad_arguments_give_a_message_never_a_traceback(argv, code, message, place, run_cli, monkeypatch):
    tmp_path, user, deck = place
    monkeypatch.chdir(user)  # so that a default build/ would be refused rather than written into the repo
    argv = [a.format(deck=deck, notes=user / "notes.txt", tmp=tmp_path) for a in argv]
    message = message.format(tmp=tmp_path)
    got, out, err = run_cli(*argv)
    assert "Traceback" not in err
    assert got == code and message in out + err, out + err
