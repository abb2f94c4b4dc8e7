"""The read side of Heirloom: projections of the games' event log.

Each projection follows the application's notification log and keeps a materialised
view in Redis together with its tracking position (written in the same transaction),
so every event is applied exactly once, even across restarts, and any projection can
be rebuilt from scratch to the same result.

- `replay`: per game, every move (effective and undone), checkpoints every K steps, undo
  requests -> `/games/{id}/replay`, `/games/{id}/moves-log`, `/games/{id}/history`.
- `scoreboard`: per game, scores after every move; per game type, leaderboards with a
  multi-player Elo rating -> `/games/{id}/scores`, `/scoreboard/{game}`.
- `analytics`: per game type aggregates -> `/analytics/{game}`.

The pure parts (event records, timelines, folding, rating, summaries) live in their own
modules and know nothing about Redis; `views.py` holds the Redis storage and `runner.py`
the loop that feeds events to projections. See README.md.
"""
