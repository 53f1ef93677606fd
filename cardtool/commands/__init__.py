"""One module per CLI command, each with the same shape: NAME, HELP, EXAMPLES, add_arguments, run."""

from cardtool.commands import build, compare, diff, foodweb, info, new, play, render, score, simulate, validate

#: The commands in the order `cardtool --help` lists them.
COMMANDS = (new, validate, info, diff, foodweb, score, play, simulate, compare, render, build)
