"""The routers of the app, in order. Other packages append theirs to `ROUTERS`."""

from . import events, game_types, games, health, moves, undo

ROUTERS = [
    health.router,
    game_types.router,
    games.router,
    moves.router,
    events.router,
    undo.router,
]
