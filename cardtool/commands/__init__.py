"""One module per CLI command, each with the same shape: NAME, HELP, EXAMPLES, add_arguments, run."""

from cardtool.commands import foodweb, info, play, score, validate

#: The commands in the order `cardtool --help` lists them.
COMMANDS = (validate, info, foodweb, score, play)
