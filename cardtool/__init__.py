"""cardtool: design ecology card games as data.

Layers, each importing only those below it: cli -> commands -> render, sim -> games (the registry and
each game's package) -> deck, engine -> errors, report. Importing this package imports nothing else, so
`cardtool --version` is instant.
"""

__version__ = "0.1.0"
