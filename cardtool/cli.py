"""The command line: argument parsing and exit codes only; commands live in cardtool.commands.

Start-up is kept short: only the command being run is imported (with its add_arguments); the others are
listed from their specs' help lines. `cardtool --version` imports no command and no game.
"""

from __future__ import annotations

import argparse
import sys

from cardtool import __version__
from cardtool.errors import CardtoolError, DeckError

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _chosen(argv: list[str]) -> str | None:
    """The command named on the command line: the first word that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with argv, only the command it names gets its options (and its module imported)."""
    parser = argparse.ArgumentParser(
        prog="cardtool",
        description="Design ecology card games as data: validate decks, inspect them, playtest and print.",
        epilog="Run 'cardtool COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"cardtool {__version__}")
    chosen = None if argv is None else _chosen(argv)
    if argv is not None and chosen is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        return parser  # nothing but the version: no command, no game is imported
    from cardtool import commands

    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    # Running a game-neutral command needs no game's command list (nor an entry-point scan).
    specs = list(commands.GENERIC.values()) if chosen in commands.GENERIC else commands.specs()
    for spec in specs:
        if argv is not None and spec.name != chosen:
            subparsers.add_parser(spec.name, help=spec.help.replace("%", "%%"))  # listed, not imported
            continue
        command = commands.load(spec)
        sub = subparsers.add_parser(command.NAME, help=command.HELP.replace("%", "%%"),
                                    description=command.HELP[0].upper() + command.HELP[1:] + ".",
                                    epilog=command.EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        parser = build_parser(argv)
    except CardtoolError as exc:  # a broken game plugin: say which, without a traceback
        print(f"cardtool: {exc}", file=sys.stderr)
        return exc.exit_code
    for arg in argv:  # names that are not UTF-8 reach the terminal as surrogates; reports and JSON need text
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            parser.error(f"'{shown}' is not UTF-8 text: rename that file or folder (or give another)")
    args = parser.parse_args(argv)  # exits 2 on a usage error, as argparse does
    try:
        return args.run(args)
    except DeckError as exc:
        if exc.report is not None and exc.report.issues:
            print(exc.report.format(), file=sys.stderr)
        print(f"cardtool: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except CardtoolError as exc:
        print(f"cardtool: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("cardtool: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # the system refused (disk full, no permission): the user can act on it, not a bug
        where = f" {exc.filename}" if exc.filename else ""
        print(f"cardtool: cannot read or write{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception:  # a bug, not bad input: show it, and ask for a report
        import traceback

        traceback.print_exc()
        print("\ncardtool: this is a bug in cardtool, not a problem with your deck. "
              "Please report it with the command you ran and the traceback above.", file=sys.stderr)
        return 70
