"""Playing many games: the setup, the runners (local process pool, Dask), records, statistics, reports.

Game-neutral (it imports no game module; commands import it): a game takes part through
cardtool.games.plugin (PlayableGame to play, RecordsGames to say what happened). Nothing here writes
files but `report.write_outputs`, at the edge.
"""
