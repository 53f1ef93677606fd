"""Start-up stays light: heavy libraries load only in the commands that use them (issue 15 item 1).

Each check runs in a fresh interpreter and reads sys.modules afterwards, so what an earlier test imported
cannot hide an import. Times are not asserted here (benchmarks/startup_bench.py prints them).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import DECKS, ROOT

#: Libraries that cost a large part of a second to import, and the commands that may load them.
HEAVY = ("scipy", "matplotlib", "weasyprint", "dask", "distributed", "rich", "pandas", "numpy", "networkx",
         "jsonschema", "jinja2", "markdown_it", "pypdf", "PIL", "coloraide")


def _loaded_after(code: str) -> set[str]:
    """The heavy top-level packages imported by running code in a fresh interpreter."""
    script = (code + "\nimport json, sys\n"
              f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({list(HEAVY)!r}))))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


def _cli(*argv: str) -> str:
    return ("import contextlib, io\nfrom cardtool.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    try:\n"
            f"        main({list(argv)!r})\n"
            "    except SystemExit:\n"
            "        pass")


def test_the_heavy_library_check_sees_an_import():
    assert "numpy" in _loaded_after("import numpy")


def test_importing_the_cli_loads_no_heavy_library():
    assert _loaded_after("import cardtool.cli") == set()


def test_version_loads_no_heavy_library_and_no_command():
    loaded = _loaded_after(_cli("--version") + "\nimport sys\nassert 'cardtool.commands' not in sys.modules")
    assert loaded == set()


def test_help_lists_every_command_without_importing_them():
    code = _cli("--help") + ("\nimport sys\nnames = [m for m in sys.modules if m.startswith('cardtool.commands.')"
                             " or '.commands.' in m]\nassert names == [], names")
    assert _loaded_after(code) == set()


@pytest.mark.parametrize("command", ["validate", "info"])
def test_validate_and_info_load_no_simulation_or_printing_library(command):
    """Nor ColorAide (the palette's colours are compared in plain Python, render/colour_science.py), nor the
    Markdown parser for rulebook sections that name no picture, link or fenced block (the base deck's)."""
    code = _cli(command, str(DECKS / "ecologies-bizarre-biomes"))
    if command == "validate":
        code += "\nimport sys\nassert 'cardtool.render.colour_vision' in sys.modules  # the palette was checked"
    assert _loaded_after(code) == set()


@pytest.mark.parametrize("text, names", [("Plain prose, *emphasis* and a list:\n\n- one\n- two\n", False),
                                         ("See [the rules](rules.md).", True), ("![a picture](a.png)", True),
                                         ("<https://example.org>", True), ("```cardtool:x\n```", True),
                                         ("~~~\ncode\n~~~", True), ("[ref]: https://example.org", True)])
def test_only_prose_that_can_name_a_picture_link_or_fence_is_parsed(text, names):
    from cardtool.deck.prose import markdown, names_anything

    assert names_anything(text) is names
    found = [t for token in markdown().parse(text) for t in [token, *(token.children or ())]
             if t.type in ("image", "link_open", "fence")]
    assert bool(found) <= names  # what the parser finds, the shortcut never skips


@pytest.mark.parametrize("command", ["validate", "info"])
def test_the_ecologies_food_web_checks_load_neither_networkx_nor_numpy(command):
    """The checks (trophic levels included) are plain Python; networkx waits for `cardtool foodweb`."""
    code = _cli(command, str(DECKS / "ecologies-bizarre-biomes")) + (
        "\nimport sys\nassert 'cardtool.games.ecologies.checks' in sys.modules  # the food-web checks did run")
    assert not _loaded_after(code) & {"networkx", "numpy"}


def test_a_symbiosis_deck_validates_without_the_food_web_libraries():
    loaded = _loaded_after(_cli("validate", str(DECKS / "symbiosis")))
    assert not loaded & {"networkx", "scipy", "matplotlib", "weasyprint", "dask", "rich"}


@pytest.mark.parametrize("command", ["simulate", "compare", "ladder", "play", "render", "build"])
def test_a_commands_help_loads_no_simulation_or_printing_library(command):
    loaded = _loaded_after(_cli(command, "--help"))
    assert not loaded & {"scipy", "matplotlib", "weasyprint", "dask", "distributed", "rich"}, command
