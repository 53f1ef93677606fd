"""Ecologies on paper: card faces and their typed template contexts (faces), effect wording
(effect_text), the generated rulebook parts and directives (rulebook) and food-web pictures
(foodweb_svg).

Who may import it: the Ecologies plugin (cardtool.games.ecologies), its commands and this package's
own modules; the generic render layer reaches it only through the plugin (DrawsCards, WritesRulebook).
It imports the generic render helpers (cardtool.render.context, environment, rulebook_parts).
"""
