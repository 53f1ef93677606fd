"""Print-shop output: presets for the shops cardtool knows (presets), colour management to CMYK through
littleCMS (colour), the files each shop takes (writers) and a preflight of them (preflight).

Game-neutral: it imports render/ (cards, images, output, fitting) and no game module; who may import it:
commands (commands/render_shop.py).
"""
