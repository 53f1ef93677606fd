"""What the studio page shows at one moment, remade after every edit: the validation issues (each with
the file and line it points at), the cards as they print, the game's own build pictures (Ecologies' food
webs) and the last simulation's summary. A deck that no longer validates keeps the last good cards on the
page, marked as such, beside the errors.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import quote

from cardtool.deck.containment import Roots
from cardtool.deck.loader import load, manifest_path
from cardtool.errors import CardtoolError
from cardtool.issues import Issue
from cardtool.studio.preview import CardPicture, PictureCache, render_faces

SOURCE_LIMIT = 1_000_000  # bytes of a deck file the page will show


@dataclass(frozen=True)
class IssueView:
    severity: str
    code: str
    message: str
    card: str | None
    where: str  # file:line as validate prints it, or ""
    href: str  # the page's view of that file at that line, or ""
    hint: str | None = None

    @classmethod
    def of(cls, issue: Issue) -> "IssueView":
        loc = issue.location
        where = str(loc) if loc else ""
        href = f"/source?file={quote(str(loc.file))}&line={loc.line}#L{loc.line}" if loc else ""
        return cls(issue.severity.value, issue.code, issue.message, issue.card, where, href, issue.hint)


@dataclass(frozen=True)
class Picture:
    """A file a game's build step made (a food web), shown on the page."""

    name: str
    title: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class Snapshot:
    version: int
    deck: str
    state: str  # ok | warnings | errors | starting
    issues: tuple[IssueView, ...] = ()
    cards: tuple[CardPicture, ...] = ()
    stale: bool = False  # the cards are the last good deck's, not this one's
    pictures: tuple[Picture, ...] = ()
    sim: dict | None = None
    seconds: float = 0.0
    laid_out: int = 0
    message: str = ""

    def to_json(self) -> dict:
        return {
            "version": self.version, "deck": self.deck, "state": self.state, "stale": self.stale,
            "seconds": round(self.seconds, 3), "laid_out": self.laid_out, "message": self.message,
            "issues": [vars(i) for i in self.issues],
            "cards": [{**vars(c), "src": f"/card/{c.digest}.png"} for c in self.cards],
            "pictures": [{"title": p.title, "src": f"/picture/{p.name}"} for p in self.pictures],
            "sim": self.sim,
        }


class Studio:
    """The deck being edited and what the page shows of it; refresh() after files change."""

    def __init__(self, deck_path: Path, standalone: bool = False, sim: Path | None = None):
        self.deck_path = Path(deck_path)
        self.standalone = standalone
        self.sim_path = sim
        self.cache = PictureCache()
        self.roots = Roots.of(manifest_path(self.deck_path).parent)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._snapshot = Snapshot(0, str(self.deck_path), "starting", message="reading the deck")
        self._good: Snapshot | None = None

    @property
    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot

    def wait(self, version: int, timeout: float) -> Snapshot:
        """The snapshot once it is newer than version, or the current one after timeout seconds."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version > version, timeout)
            return self._snapshot

    def refresh(self) -> Snapshot:
        started = time.perf_counter()
        version = self.snapshot.version + 1
        try:
            made = self._make(version)
        except CardtoolError as error:  # e.g. a file the deck names that cannot be read
            made = self._broken(version, [IssueView("error", getattr(error, "code", "error"), str(error), None, "", "")])
        except Exception as error:  # a bug in cardtool: the page says so and keeps serving the last cards
            made = self._broken(version, [IssueView("error", "internal", f"cardtool failed ({type(error).__name__}: "
                                                    f"{error}); please report it", None, "", "")])
        made = replace(made, seconds=time.perf_counter() - started)
        with self._changed:
            self._snapshot = made
            self._changed.notify_all()
        return made

    def _make(self, version: int) -> Snapshot:
        result = load(self.deck_path, standalone=self.standalone)
        if result.roots is not None:
            self.roots = result.roots
        issues = tuple(IssueView.of(i) for i in result.report.issues)
        if result.deck is None or not result.report.ok:
            return self._broken(version, issues)
        deck = result.deck
        rendered = render_faces(deck, self.cache)
        issues += tuple(IssueView("error", "render", message, key.partition(":")[0], "", "")
                        for key, message in rendered.problems)
        state = "errors" if rendered.problems else "warnings" if result.report.warnings else "ok"
        made = Snapshot(version, deck.manifest.name, state, issues, rendered.pictures,
                        pictures=game_pictures(deck), sim=last_simulation(self.sim_path, deck.manifest.id),
                        laid_out=rendered.laid_out,
                        message=f"{len(rendered.pictures)} faces, {rendered.laid_out} laid out again")
        if not rendered.problems:
            self._good = made
        return made

    def _broken(self, version: int, issues) -> Snapshot:
        good = self._good
        if good is None:
            return Snapshot(version, str(self.deck_path), "errors", tuple(issues),
                            message="the deck has errors: no cards to show yet")
        return replace(good, version=version, state="errors", issues=tuple(issues), stale=True,
                       message="the deck has errors: showing the last cards that built")

    def source(self, name: str) -> tuple[Path, str] | None:
        """A deck file the page may show (inside the deck's folders, a readable text file), or None."""
        path = Path(name)
        if not self.roots.contains(path) or not path.is_file() or path.stat().st_size > SOURCE_LIMIT:
            return None
        try:
            return path, path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None


def game_pictures(deck) -> tuple[Picture, ...]:
    """The SVG files the deck's game adds to a build (cardtool.games.plugin.HasBuildSteps)."""
    from cardtool.games import get
    from cardtool.games.plugin import HasBuildSteps

    plugin = get(deck.game)
    found = []
    for step in plugin.build_steps if isinstance(plugin, HasBuildSteps) else ():
        with tempfile.TemporaryDirectory(prefix="cardtool-studio-") as folder:
            outputs, _ = step.run(deck, Path(folder))
            for output in outputs:
                if output.path.endswith(".svg"):
                    name = f"{step.name}-{len(found)}.svg"
                    found.append(Picture(name, output.title, (Path(folder) / output.path).read_bytes()))
    return tuple(found)


def last_simulation(path: Path | None, deck_id: str) -> dict | None:
    """The headline of the last simulation's summary.json (build/<deck-id>/sim/ unless named)."""
    path = Path(path) if path is not None else Path("build") / deck_id / "sim"
    if path.is_dir():
        path = path / "summary.json"
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
        config = summary.get("config", {})
        return {
            "file": str(path), "games": summary["games"], "capped": summary.get("capped", {}).get("rate"),
            "players": config.get("players"), "bots": config.get("bots"), "seed": config.get("seed"),
            "deck_version": config.get("deck_version"),
            "seats": [{"seat": s["seat"], "rate": s["win"]["rate"], "ci95": s["win"]["ci95"]}
                      for s in summary.get("seats", [])],
            "length": summary.get("length", {}).get("median"),
            "written": time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime)),
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
