"""One module per CLI command, each with the same shape: NAME, HELP, EXAMPLES, add_arguments, run."""

from cardtool.commands import (arrange, build, compare, diff, foodweb, info, ladder, new, play, render, score, simulate,
                               validate)

#: The commands in the order `cardtool --help` lists them.
COMMANDS = (new, validate, info, diff, foodweb, arrange, score, play, simulate, compare, ladder, render, build)
