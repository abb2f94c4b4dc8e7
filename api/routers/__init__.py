"""The routers of the app, in order. Other packages append theirs to `ROUTERS`."""

from . import analysis, analytics, audit, board, comments, events, game_types, games, health, join, moves, records, replay, reviews, scores, simulations, stream, undo, ws

ROUTERS = [
    health.router,
    game_types.router,
    games.router,
    join.router,
    records.router,
    moves.router,
    events.router,
    undo.router,
    # the read side (projections/)
    replay.router,
    scores.router,
    analytics.router,
    audit.router,
    stream.router,
    ws.router,
    board.router,
    analysis.router,
    comments.router,
    reviews.router,
    simulations.router,
]
