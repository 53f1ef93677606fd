"""Playing many games: the setup, the runners (local process pool, Dask), records, statistics, reports.

Game-neutral (it imports no game module; commands import it): a game takes part through
cardtool.games.plugin (PlayableGame to play, RecordsGames to say what happened). Reports: analysis
(one pass over records), balance_report (simulate's outputs), lineups, robustness and lineup_report
(simulate --lineups), compare_report, wording (numbers in words), charts and svgplot (SVG charts).
Nothing here writes files but `outputs.write_outputs` and the runner's games.jsonl sink, at the edge.
"""
