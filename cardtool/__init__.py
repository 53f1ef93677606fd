"""cardtool: design ecology card games as data."""

__version__ = "0.1.0"
