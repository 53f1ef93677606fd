"""One module per CLI command, each with the same shape: NAME, HELP, EXAMPLES, add_arguments, run."""

from cardtool.commands import diff, foodweb, info, new, play, score, validate

#: The commands in the order `cardtool --help` lists them.
COMMANDS = (new, validate, info, diff, foodweb, score, play)
