"""games.jsonl as a stream: written a batch at a time while games finish, read back one game at a time.

A run of 100,000 games then never holds its records in memory: the runner hands each batch of lines
to a `GamesFile` in game order (flushed, so a crash keeps every game written), and the report reads
them back lazily with `read_records`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

from cardtool.errors import UsageError
from cardtool.sim.records import SimRecord


class GamesFile:
    """A sink for the runner: writes games.jsonl lines in the order it is given them (game order).

    With `lineup`, every line starts with {"lineup": LABEL, ...} so the games of several line-ups can
    share one file."""

    def __init__(self, path: str | Path, lineup: str | None = None):
        self.path = Path(path)
        self.lineup = lineup
        self.games = 0
        self._prefix = '{"lineup":' + json.dumps(lineup) + "," if lineup is not None else None
        self._file = None

    def __enter__(self) -> "GamesFile":
        try:
            self._file = open(self.path, "w", encoding="utf-8", newline="\n")
        except OSError as exc:
            raise UsageError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def write_lines(self, lines: str, games: int) -> None:
        """Append `games` games' lines (each ending in a newline) and flush them."""
        if self._file is None:
            raise ValueError("GamesFile is written inside its `with` block")
        if self._prefix is not None:
            lines = "".join(self._prefix + line[1:] for line in lines.splitlines(keepends=True))
        self._file.write(lines)
        self._file.flush()
        self.games += games


def read_records(path: str | Path) -> Iterator[SimRecord]:
    """The records of a games.jsonl, one at a time (a "lineup" key is read past)."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield SimRecord.from_json(json.loads(line))


def concatenate(parts: Sequence[str | Path], path: str | Path) -> None:
    """Join several games files into one, in the order given, and delete the parts."""
    with open(path, "wb") as out:
        for part in parts:
            with open(part, "rb") as source:
                shutil.copyfileobj(source, out)
    for part in parts:
        Path(part).unlink()
