"""Rendering at the edge: typed contexts in, templates rendered, files written atomically.

Game-neutral: sheets, imposition, fitting, PDF and PNG output, the rulebook and build pipeline. A game's
faces, rulebook parts and build steps come from its plugin (cardtool.games.plugin); this package imports
no game module. Who may import it: commands, and games' own render modules (for context and environment).
"""
