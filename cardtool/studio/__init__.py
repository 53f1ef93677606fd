"""The designer's studio: `cardtool serve`, a page on 127.0.0.1 that shows a deck's cards as they print,
its validation issues (linked to file and line), its food webs and its last simulation, remade as the
deck's files change.

snapshot (what the page shows, remade by Studio.refresh), preview (card pictures kept by content hash,
so an edit lays out only the faces it changed), server (the HTTP routes), watch (the file watcher).
Who may import it: cardtool.commands.serve and tests; it reaches games through the registry and the plugin
protocol only.
"""
