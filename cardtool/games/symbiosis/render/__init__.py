"""Symbiosis on paper: card faces and their typed template contexts (faces) and the generated rulebook
parts, worked examples and directives (rulebook).

Who may import it: the Symbiosis plugin (cardtool.games.symbiosis) and this package's own modules; the
generic render layer reaches it only through the plugin (DrawsCards, WritesRulebook). It imports the
generic render helpers (cardtool.render.context, environment, rulebook_parts).
"""
