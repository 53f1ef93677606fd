"""`cardtool build`: every output of a deck, made step by step into a staging folder whose files replace
the previous build's in build/<deck-id>/ only when all steps succeeded, so a failed build leaves the
previous outputs whole (what other commands or people put there, such as sim/, is kept: render.output).

The steps are the STEPS tuple below, in order, with the deck's game's own steps (its plugin's
build_steps, e.g. Ecologies' food-web report) after validation; adding a step is adding one Step there. A step gets the build context and returns the files it wrote, each with a title for
index.html.

Each step but validation is kept in the build cache, <out>/.cardtool-cache (render/cache.py), under the
digest of what it reads (cardtool's code, every file of the deck and its bases, the options): run again
with nothing changed, a step is reused, and an output whose bytes would not change is not rewritten.
Within a step that must run, card faces (and the rulebook's document) are reused by their own content,
so one changed card lays out only its own face. Cached or not, a build writes the same bytes.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cardtool.deck.loader import load
from cardtool.deck.model import Deck
from cardtool.errors import DeckError
from cardtool.render import step_cache
from cardtool.render.cache import BuildCache, code_fingerprint, key_of, named_files_digest, tree_digest, using
from cardtool.render.environment import render
from cardtool.render.output import staged_dir
from cardtool.render.reproducible import fixed_clock
from cardtool.render.sheets import SheetSpec


@dataclass(frozen=True)
class BuildOptions:
    sheet: SheetSpec = SheetSpec()
    dpi: int = 300
    image_bleed: float = 3.175  # 1/8 in
    standalone: bool = False  # an expansion alone, without its bases
    sim_games: int = 200  # games in the short simulation; 0 leaves it out
    sim_seed: int = 1
    cache: bool = True  # reuse what the build folder's cache holds (--no-cache: make everything anew)


@dataclass(frozen=True)
class Output:
    """A file a step wrote, relative to the build folder."""

    path: str
    title: str
    note: str = ""


@dataclass
class Context:
    deck_path: Path
    options: BuildOptions
    folder: Path  # where this build writes (a staging folder)
    deck: Deck | None = None
    warnings: list[str] = field(default_factory=list)
    cache: BuildCache | None = None
    detail: str = ""  # what a step reused, for the terminal only (index.html says the same either way)


@dataclass(frozen=True)
class StepResult:
    name: str
    title: str
    status: str  # done | skipped
    outputs: tuple[Output, ...] = ()
    message: str = ""
    seconds: float = 0.0


@dataclass(frozen=True)
class Step:
    """One stage of the build; `skip` says why it is left out for this build, or None to run it."""

    name: str
    title: str
    run: Callable[[Context], tuple[list[Output], str]]
    skip: Callable[[Context], str | None] = lambda ctx: None
    cached: bool = True  # kept in the build cache by the digest of the deck's files and the options


@dataclass(frozen=True)
class BuildResult:
    out: Path
    steps: tuple[StepResult, ...]
    seconds: float
    written: tuple[str, ...] = ()  # files written anew
    unchanged: tuple[str, ...] = ()  # files whose bytes were already right, left as they were
    reused: tuple[str, ...] = ()  # steps taken whole from the cache

    @property
    def outputs(self) -> tuple[Output, ...]:
        return tuple(o for step in self.steps for o in step.outputs)


# -- the steps ---------------------------------------------------------------------------------------
def _validate(ctx: Context) -> tuple[list[Output], str]:
    result = load(ctx.deck_path, standalone=ctx.options.standalone)
    if result.deck is None or not result.report.ok:
        raise DeckError(f"deck {ctx.deck_path} has errors; nothing was built", result.report)
    ctx.deck = result.deck
    report = result.report
    warnings = len(report.warnings)
    text = report.format() + "\n" if report.issues else ""
    summary = f"{ctx.deck_path}: 0 error(s), {warnings} warning(s) - ok\n"
    (ctx.folder / "validation.txt").write_text(text + summary, encoding="utf-8")
    return [Output("validation.txt", "Validation report")], f"valid, {warnings} warning(s)"


def game_steps(deck: Deck) -> list[Step]:
    """The steps the deck's game adds (cardtool.games.plugin.HasBuildSteps), run after validation."""
    from cardtool.games import get
    from cardtool.games.plugin import HasBuildSteps

    plugin = get(deck.game)
    return [_game_step(step) for step in (plugin.build_steps if isinstance(plugin, HasBuildSteps) else ())]


def _game_step(step) -> Step:
    def run(ctx: Context) -> tuple[list[Output], str]:
        outputs, message = step.run(ctx.deck, ctx.folder)
        return [Output(o.path, o.title, o.note) for o in outputs], message

    return Step(step.name, step.title, run)


def _cards(ctx: Context) -> tuple[list[Output], str]:
    from cardtool.render.cards import DeckPrint

    spec = ctx.options.sheet
    deck_print = DeckPrint(ctx.deck, spec.card, spec.bleed)
    sheet, pdf = deck_print.sheets(spec)
    (ctx.folder / "cards.pdf").write_bytes(pdf)
    ctx.detail = _faces_detail(deck_print)
    copies = ctx.deck.size
    note = (f"{copies} cards, {sheet.pages(copies)} fronts pages" + (" each followed by its backs page"
            if spec.duplex != "none" else "") + f"; {sheet.describe()}")
    fitted = [f"{f.card_id} {f.field} at {f.size:g} pt" for f in deck_print.fitted]
    message = note + (f"; text shrunk to fit: {', '.join(fitted)}" if fitted else "")
    return [Output("cards.pdf", "Print-and-play cards (PDF)", note)], message


def _faces_detail(deck_print) -> str:
    if not deck_print.batches:
        return ""
    reused, made = deck_print.batches[0]
    return f"{reused} faces reused, {made} rendered"


def _update_pack(ctx: Context) -> tuple[list[Output], str]:
    """An expansion's update pack (render/update_pack.py): its cards and the base cards it reprints."""
    from cardtool.render import update_pack

    outputs, message = update_pack.run(ctx)
    return [Output(*output) for output in outputs], message


def _update_pack_skip(ctx: Context) -> str | None:
    from cardtool.render import update_pack

    return update_pack.skip(ctx)


def _images(ctx: Context) -> tuple[list[Output], str]:
    from cardtool.render.images import card_images

    options = ctx.options
    before = ctx.cache.tally.copy() if ctx.cache is not None else None
    images = card_images(ctx.deck, options.sheet.card, options.image_bleed, options.dpi, None,
                         ctx.folder / "images")
    size = f"{images[0].width} x {images[0].height} px at {options.dpi} dpi"
    if before is not None:
        reused, made = ctx.cache.tally.since(before, "image")
        ctx.detail = f"{reused} images reused, {made} rasterised"
    return [Output("images/contact-sheet.png", "Contact sheet of every card"),
            Output("images/cards.csv", "Card images list for a print shop (file, copies)"),
            Output("images/cards.pdf", "One card a page with bleed, TrimBox and BleedBox (PDF)"),
            Output("images/", f"{len(images)} card images (PNG, {size})")], f"{len(images)} images, {size}"


def _palette(ctx: Context) -> tuple[list[Output], str]:  # H8: the colour-blind check (issue 16 item 7)
    from cardtool.render.colour_vision import palette_files

    files, message = palette_files(ctx.deck, ctx.folder)
    return [Output(path, title) for path, title in files], message


def _rulebook(ctx: Context) -> tuple[list[Output], str]:
    pdf, pages = _rulebook_document(ctx)
    (ctx.folder / "rulebook.pdf").write_bytes(pdf)
    return [Output("rulebook.pdf", "Rulebook (PDF)", f"{pages} pages")], f"{pages} pages"


def _rulebook_insert(ctx: Context) -> tuple[list[Output], str]:
    """An expansion's rulebook insert (as `render rulebook --insert` writes it), beside its whole book."""
    from cardtool.render.rulebook_insert import insert_context

    pdf, pages = _rulebook_document(ctx, insert_context, kind="rulebook-insert")
    (ctx.folder / "rulebook-insert.pdf").write_bytes(pdf)
    return [Output("rulebook-insert.pdf", "Rulebook insert, to keep with the base game's rulebook (PDF)",
                   f"{pages} pages")], f"{pages} pages"


def _rulebook_insert_skip(ctx: Context) -> str | None:
    from cardtool.games import get
    from cardtool.render import update_pack

    reason = update_pack.skip(ctx)
    if reason is not None:
        return reason.replace("base cards to replace", "a base rulebook to go with")
    if getattr(get(ctx.deck.game), "rulebook_insert_parts", None) is None:
        return "this game's plugin writes no rulebook insert"
    if not update_pack.update_pack(ctx.deck).ids:
        return "the expansion has no cards of its own and reprints none: nothing to insert"
    return None


def _rulebook_document(ctx: Context, context_of: Callable | None = None,
                       kind: str = "rulebook") -> tuple[bytes, int]:
    """The rulebook's PDF (or, with insert_context, the insert's), reused when what it is made from (its
    typed context: every text, table and picture it shows, and the files they name) is unchanged, so a
    card it does not show changes nothing."""
    from cardtool.render.rulebook import book_pdf, rulebook_context

    context_of = context_of or rulebook_context
    paper, cache = ctx.options.sheet.paper, ctx.cache
    context = context_of(ctx.deck, paper)
    if cache is None:
        return book_pdf(ctx.deck, context)
    shown = repr(context)
    key = key_of(kind, code_fingerprint(), shown, named_files_digest(shown))
    entry = cache.get("document", key)
    pdf = cache.read(entry.blobs.get("pdf", "")) if entry is not None else None
    pages = entry.meta.get("pages") if entry is not None else None
    if pdf is not None and pdf.startswith(b"%PDF-") and isinstance(pages, int):
        ctx.detail = f"{kind} reused"
        return pdf, pages
    if entry is not None:
        cache.damaged(key)
    pdf, pages = book_pdf(ctx.deck, context)
    cache.store("document", key, {"pages": pages}, {"pdf": cache.put(pdf)})
    ctx.detail = f"{kind} rendered"
    return pdf, pages


def _simulation(ctx: Context) -> tuple[list[Output], str]:
    """A short simulation with the game's default bots and seats, as `cardtool simulate` would run it."""
    from cardtool.sim.analysis import Spec, analyse
    from cardtool.sim.config import config_json, prepare, simulated_game
    from cardtool.sim.balance_report import run_json, simulation_files
    from cardtool.sim.outputs import write_outputs
    from cardtool.sim.runner import run as run_games

    setup = prepare(ctx.deck, games=ctx.options.sim_games, seed=ctx.options.sim_seed)
    result = run_games(setup)
    analysis = analyse(result.records, Spec.of(simulated_game(ctx.deck), ctx.deck))
    # A build records only what the deck, the seed and the options decide: the equivalent simulate
    # command (not the build's own, which names the output folder) and no run time, so that building
    # twice gives the same bytes; the step's time is printed as the build runs.
    config = {**config_json(setup, ctx.deck_path),
              "command": shlex.join(["cardtool", "simulate", str(ctx.deck_path), "--games", str(setup.games),
                                     "--seed", str(setup.seed)] + (["--standalone"] if ctx.options.standalone else []))}
    run = {key: value for key, value in run_json(result).items() if key in ("finished_games", "interrupted")}
    write_outputs(ctx.folder / "sim", simulation_files(result.records, analysis, config, run))
    seats = ", ".join(f"{100 * rate.value:.0f}%" for rate in analysis.seats)
    note = (f"{setup.games} {setup.mode} games, {setup.players} players ({', '.join(setup.lineup)}), "
            f"seed {setup.seed}; win rate per seat {seats}")
    return [Output("sim/report.html", "Simulation report", note), Output("sim/report.pdf", "Simulation report (PDF)"),
            Output("sim/games.jsonl", "Every simulated game (JSON lines)"),
            Output("sim/cards.csv", "Per-card statistics (CSV)")], note


STEPS: tuple[Step, ...] = (
    Step("validate", "Validate the deck", _validate, cached=False),  # then the game's own steps (game_steps)
    Step("cards", "Print-and-play cards", _cards),
    Step("update-pack", "Update pack (base cards to replace)", _update_pack, skip=_update_pack_skip),
    Step("images", "Card images", _images),
    Step("rulebook", "Rulebook", _rulebook),
    Step("rulebook-insert", "Rulebook insert", _rulebook_insert, skip=_rulebook_insert_skip),
    Step("palette", "Colours for every kind of colour vision", _palette, cached=False),
    Step("simulation", "Short simulation", _simulation,
         skip=lambda ctx: "left out (--sim-games 0)" if ctx.options.sim_games == 0 else None),
)


def build_deck(deck_path: Path, options: BuildOptions, out: Path | None = None,
               report: Callable[[str], None] = lambda line: None) -> BuildResult:
    """Run every step into a staging folder, then swap it in for `out` (default build/<deck-id>)."""
    started = time.perf_counter()
    with fixed_clock():  # also checks SOURCE_DATE_EPOCH before any work: every output records that one time
        return _build(deck_path, options, out, report, started)


def _build(deck_path: Path, options: BuildOptions, out: Path | None, report: Callable[[str], None],
           started: float) -> BuildResult:
    if out is None:
        result = load(deck_path, deep=False, standalone=options.standalone)  # to learn the deck's id
        if result.source is None:
            raise DeckError(f"deck {deck_path} has errors; nothing was built", result.report)
        out = Path("build") / result.source.manifest.id
    results, changes, reused = [], {}, []
    with staged_dir(out, reads=(Path(deck_path),), command="build", changes=changes) as folder:
        ctx = Context(Path(deck_path), options, folder, cache=BuildCache.of(Path(out)) if options.cache else None)
        steps = list(STEPS)
        inputs = ""
        with using(ctx.cache):
            while steps:
                step = steps.pop(0)
                reason = step.skip(ctx) if ctx.deck is not None else None
                if reason is not None:
                    results.append(StepResult(step.name, step.title, "skipped", message=reason))
                    report(f"{step.name}: {reason}")
                    continue
                step_started = time.perf_counter()
                outputs, message, hit = _run_step(step, ctx, Path(out), inputs)
                seconds = time.perf_counter() - step_started
                results.append(StepResult(step.name, step.title, "done", tuple(outputs), message, seconds))
                detail = "reused" if hit else ctx.detail
                reused += [step.name] if hit else []
                report(f"{step.name}: {message} ({detail + ', ' if detail else ''}{seconds:.1f} s)")
                if step is STEPS[0]:  # validated: the deck's game is known
                    steps[:0] = game_steps(ctx.deck)
                    inputs = key_of(code_fingerprint(), tree_digest(ctx.deck.roots or (ctx.deck.manifest.root,)),
                                    repr(options), str(deck_path))
        (folder / "index.html").write_text(index_html(ctx.deck, results), encoding="utf-8")
    if ctx.cache is not None:
        ctx.cache.prune()  # the cache keeps what this build used, no more
    return BuildResult(Path(out), tuple(results), time.perf_counter() - started, tuple(changes.get("written", ())),
                       tuple(changes.get("unchanged", ())), tuple(reused))


def _run_step(step: Step, ctx: Context, out: Path, inputs: str) -> tuple[list[Output], str, bool]:
    """Run a step, or reuse it whole from the cache; (outputs, message, reused)."""
    ctx.detail = ""
    cache = ctx.cache
    if cache is None or not step.cached or not inputs:
        return (*step.run(ctx), False)
    key = key_of("step", step.name, inputs)
    entry = step_cache.replay(cache, key, ctx.folder, out)
    if entry is not None:
        try:
            outputs = [Output(str(path), str(title), str(note)) for path, title, note in entry.meta["outputs"]]
            return outputs, str(entry.meta["message"]), True
        except (KeyError, TypeError, ValueError):
            cache.damaged(key)
            for name in entry.blobs:
                (ctx.folder / name).unlink(missing_ok=True)
    before, used = step_cache.files_below(ctx.folder), set(cache.used)
    outputs, message = step.run(ctx)
    step_cache.record(cache, key, ctx.folder, before, {
        "outputs": [[o.path, o.title, o.note] for o in outputs], "message": message,
        "uses": sorted(cache.used - used)})
    return outputs, message, False


def index_html(deck: Deck, steps: list[StepResult]) -> str:
    from cardtool import __version__

    return render("build-index.html.j2", deck=deck.manifest, steps=steps, version=__version__,
                  size=deck.size, kinds=len(deck.cards))
