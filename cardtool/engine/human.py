"""A person at the terminal, as a bot: shows the observation and asks for numbered choices.

A game describes each action as a short tuple of parts (e.g. which card, where, what to flip); the
person picks the first part among numbered options, then the next among those left, so a choice among
eighty actions is a few short menus. Parts with a single option are taken without asking.
"""

from __future__ import annotations

import random
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from cardtool.engine.protocol import Action
from cardtool.errors import UsageError

#: Columns a person's terminal is assumed to have: longer lines are wrapped, indented as they began.
WIDTH = 80


class HumanPlayer:
    """Chooses by reading numbers from stdin; 'q' stops the game."""

    name = "human"

    def __init__(self, show: Callable[[Any], str], parts: Callable[[Any, Action], tuple[str, ...]],
                 stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.show, self.parts = show, parts
        self.stdin, self.stdout = stdin, stdout

    def choose(self, observation: Any, legal: Sequence[Action], rng: random.Random) -> Action:
        out = self.stdout or sys.stdout
        print(fit(self.show(observation)), file=out)
        remaining = [(self.parts(observation, action), action) for action in legal]
        depth = 0
        # Actions a person cannot tell apart (e.g. two copies of one card) are the same choice to them.
        while len(remaining) > 1 and depth < max(len(parts) for parts, _ in remaining):
            options = list(dict.fromkeys(parts[depth] for parts, _ in remaining if len(parts) > depth))
            if len(options) > 1:
                picked = options[self._ask(options, out)]
                remaining = [(parts, a) for parts, a in remaining if len(parts) > depth and parts[depth] == picked]
            depth += 1
        return remaining[0][1]

    def _ask(self, options: list[str], out: TextIO) -> int:
        for number, option in enumerate(options, 1):
            print(fit(f"  {number:>2}) {option}", indent=6), file=out)
        while True:
            print(f"choose 1-{len(options)} (q to quit): ", end="", file=out, flush=True)
            line = (self.stdin or sys.stdin).readline()
            if not line:
                raise UsageError("the input ended before the game did")
            text = line.strip().lower()
            if text in ("q", "quit"):
                raise KeyboardInterrupt
            if text.isdigit() and 1 <= int(text) <= len(options):
                return int(text) - 1
            print(f"  '{line.strip()}' is not one of the choices", file=out)


def fit(text: str, indent: int | None = None) -> str:
    """text with every line longer than the terminal wrapped at word boundaries, its continuation lines
    indented like the line began (or by indent); lines that fit are left exactly as they are."""
    lines = []
    for line in text.split("\n"):
        if len(line) < WIDTH:
            lines.append(line)
            continue
        lead = " " * (indent if indent is not None else len(line) - len(line.lstrip(" ")))
        lines.append(textwrap.fill(line, WIDTH - 1, subsequent_indent=lead, break_long_words=False,
                                   break_on_hyphens=False))
    return "\n".join(lines)
