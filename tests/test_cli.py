"""The command line: exit codes, help with examples, version, and the shipped decks."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from cardtool import __version__
from cardtool.commands import COMMANDS
from tests.conftest import DATA, DECKS, ROOT


def test_version(run_cli):
    code, out, _ = run_cli("--version")
    assert code == 0 and __version__ in out


def test_top_level_help_lists_every_command(run_cli):
    code, out, err = run_cli("--help")
    assert code == 0, err
    for command in COMMANDS:
        assert command.NAME in out


@pytest.mark.parametrize("command", [c.NAME for c in COMMANDS])
def test_every_command_has_help_with_an_example(command, run_cli):
    code, out, _ = run_cli(command, "--help")
    assert code == 0
    assert f"cardtool {command} " in out.split("examples:", 1)[1]


@pytest.mark.parametrize("command", [c.NAME for c in COMMANDS])
def test_every_command_is_in_the_readme(command):
    assert f"cardtool {command}" in (ROOT / "README.md").read_text()


def test_usage_error_exits_2(run_cli):
    code, _, err = run_cli("validate")
    assert code == 2 and "usage:" in err
    code, _, _ = run_cli("validate", "--format", "xml", "decks/symbiosis")
    assert code == 2


@pytest.mark.parametrize("deck", sorted(p.name for p in DECKS.iterdir() if (p / "deck.yaml").is_file()))
def test_shipped_decks_validate(deck, run_cli):
    code, out, _ = run_cli("validate", DECKS / deck)
    assert code == 0, out


def test_missing_deck_is_a_clear_error(run_cli, tmp_path):
    code, out, err = run_cli("validate", tmp_path / "nope")
    assert code == 1 and "no such deck folder" in out and "Traceback" not in out + err
    code, out, err = run_cli("info", tmp_path)
    assert code == 1 and "no deck.yaml" in err


def test_validate_json_format(run_cli):
    code, out, _ = run_cli("validate", "--format", "json", DATA / "bad" / "unknown-ref", DECKS / "symbiosis")
    assert code == 1
    results = json.loads(out)
    assert [r["ok"] for r in results] == [False, True]
    [issue] = results[0]["issues"]
    assert issue["code"] == "unknown-ref" and issue["line"] == 24 and issue["card"] == "caddisfly-larva"


def test_strict_fails_on_warnings(run_cli):
    deck = DATA / "foodweb" / "uneaten-producer"  # valid, with one warning
    assert run_cli("validate", deck)[0] == 0
    code, out, _ = run_cli("validate", "--strict", deck)
    assert code == 1 and "warning[uneaten-producer]" in out


def test_info_symbiosis_counts(run_cli):
    code, out, _ = run_cli("info", DECKS / "symbiosis")
    assert code == 0
    assert re.search(r"cards by Animal, in copies:\n(  \S.*\n)+", out)


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "cardtool", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and __version__ in result.stdout


def test_every_issue_code_is_documented():
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "docs" / "errors.md").read_text(), re.M))
    used = set()
    for file in (ROOT / "cardtool").rglob("*.py"):
        used |= set(re.findall(r"""\.(?:error|warning|note)\(\s*["']([a-z-]+)["']""", file.read_text()))
    assert used - documented == set()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.NAME)
def test_readme_documents_every_option(command):
    """Like Squib's docs check: a command's options and its README section must agree."""
    import argparse

    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    readme = (ROOT / "README.md").read_text()
    section = readme.split(f"### `cardtool {command.NAME}", 1)[1].split("\n### ", 1)[0]
    options = {opt for action in parser._actions for opt in action.option_strings
               if opt.startswith("--") and opt != "--help"}
    missing = {opt for opt in options if opt not in section}
    assert not missing, f"README section of {command.NAME} does not mention {missing}"
