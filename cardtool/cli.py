"""The command line: argument parsing and exit codes only; commands live in cardtool.commands."""

from __future__ import annotations

import argparse
import sys
import traceback

from cardtool import __version__
from cardtool.commands import COMMANDS
from cardtool.errors import CardtoolError, DeckError

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtool",
        description="Design ecology card games as data: validate decks, inspect them, playtest and print.",
        epilog="Run 'cardtool COMMAND --help' for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"cardtool {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = commands.add_parser(command.NAME, help=command.HELP.replace("%", "%%"), description=command.HELP[0].upper() + command.HELP[1:] + ".",
                                  epilog=command.EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
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
        traceback.print_exc()
        print("\ncardtool: this is a bug in cardtool, not a problem with your deck. "
              "Please report it with the command you ran and the traceback above.", file=sys.stderr)
        return 70
