"""`cardtool serve`: a live page of a deck while it is edited."""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path

from cardtool.commands.common import add_deck_argument
from cardtool.errors import UsageError

NAME = "serve"
HELP = ("show a deck's cards, validation issues, food webs and last simulation on a local web page that "
        "updates as its files change")
EXAMPLES = """\
examples:
  cardtool serve decks/ecologies-bizarre-biomes            # then open http://127.0.0.1:8765/
  cardtool serve decks/frozen-and-deep --port 9000          # an expansion, combined with its base
  cardtool serve my-deck --sim build/my-deck/sim            # the simulation summary to show

The page is served to this machine only (127.0.0.1). Edit the deck's YAML in any editor: each save
revalidates the deck and lays out again only the cards it changed; a bad edit shows its errors, linked
to the file and line, beside the last cards that built. Ctrl-C stops it.
"""
DEFAULT_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port on 127.0.0.1 (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--sim", type=Path, metavar="DIR|FILE",
                        help="the simulation summary to show (default build/<deck-id>/sim/summary.json)")


def run(args: argparse.Namespace) -> int:
    from cardtool.studio.server import StudioServer
    from cardtool.studio.snapshot import Studio
    from cardtool.studio.watch import watch

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0 to 65535, not {args.port}")
    studio = Studio(Path(args.deck), standalone=args.standalone, sim=args.sim)
    try:
        server = StudioServer(studio, args.port)
    except OSError as error:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port} ({error.strerror}); "
                         "choose another --port, or 0 for any free one") from None
    server.start()
    print(f"cardtool serve: {server.url} (Ctrl-C to stop)", flush=True)
    _told(studio.refresh(), [])
    stop = threading.Event()
    try:
        watch(studio, stop, _told)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
    print("cardtool serve: stopped")
    return 0


def _told(snapshot, changed: list[str]) -> None:
    errors = sum(i.severity == "error" for i in snapshot.issues)
    warnings = sum(i.severity == "warning" for i in snapshot.issues)
    what = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    print(f"{time.strftime('%H:%M:%S')} {what + ' changed: ' if what else ''}{errors} error(s), "
          f"{warnings} warning(s); {snapshot.message} ({snapshot.seconds:.1f} s)", flush=True)
