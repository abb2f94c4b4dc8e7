"""Work off the request path: bots' moves, analysis, simulation games, done by worker processes.

- `queue`: the job queue (Redis Streams consumer groups), fair across kinds and games.
- `worker`: `heirloom worker`, the loop that takes jobs and does them.
- `scheduler`: follows the event log and queues a bot job for each game with bots that changed.
- `simulations`: many bot games for the lab (`POST /simulations`, `heirloom simulate`).
- `builtin`: the worker `heirloom serve` runs of its own (a child process, or a thread in tests).
"""
