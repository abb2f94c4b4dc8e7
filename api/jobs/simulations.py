"""Simulations for the lab: N games between bots, played by the workers, stored as ordinary
unrated games tagged with the simulation (`Simulated` event), with progress.

`POST /simulations` / `heirloom simulate` call `Simulations.create`: the request is checked
(plain-sentence `InvalidSimulation`, 422), stored, and the first `WINDOW` games are queued as
jobs on the ``sims`` stream. At most `WINDOW` games of one simulation are in play at once; each
finished game starts the next, so a simulation of 5,000 games holds 16 jobs in the queue, not
5,000, and stored games appear as they are played.

**One simulation game is a chain of slices** (a job plays about `SLICE_SECONDS` of moves of
one game, then queues its continuation at the tail), not one job per game and not one per move:
- one job per game would hold a worker for the whole game (seconds to minutes with "normal"
  bots) while a person's bot opponent waits behind it;
- one job per move would cost the queue's round trips for every move of a "random" bot,
  whose decision is far cheaper than the queue;
- a slice bounds the wait of every other job to about `SLICE_SECONDS` and costs the queue a
  few round trips per slice. A slice taken over from a dead worker continues the stored game
  from its stored version (the game is the state; nothing else is kept between slices).

**Exactly the games asked for, none twice.** Game i of simulation s has the id
``uuid5(SIMULATION_NAMESPACE, "s:i")``: two workers creating it store it once (the second
append is refused; `GameService.create_simulated`). Its moves are appended with expected
versions (a move is played once however many workers try). It is counted done once: the
`_FINISH` script adds i to the simulation's done set and, only if it was not there, adds its
result to the summary and queues the next game — all in one atomic step.

Seeds: game i's seed is derived from the simulation's seed (`seed` in the request, else a
random one that is never shown), so a simulation with a seed is reproducible. Bots are dealt
round the seats and shifted by one each game (as `heirloom bots duel`), so every level plays
every seat equally often.

Keys: ``<prefix>:{jobs}:sim:<id>`` (hash: the request, state), ``…:done`` (set of game
indices counted), ``…:started`` (games started), ``…:summary`` (hash of sums),
``…:failed`` (hash index -> why), ``<prefix>:{jobs}:sims-active`` (ids of unfinished simulations).
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from typing import Any

import orjson

from domain.app import ServiceError
from domain.bots import LEVELS
from domain.bots.hooks import hooks_for
from domain.engine import derive_seed, get_rules

log = logging.getLogger("heirloom.simulations")

#: The most games one simulation may ask for.
MAX_GAMES = 5000
#: The most games of all unfinished simulations together (more is refused with 429).
MAX_PENDING_GAMES = 20000
#: Games of one simulation in play at once.
WINDOW = 16
#: A game not over after this many moves is given up (counted, as failed).
MAX_MOVES = 5000

SIMULATION_NAMESPACE = uuid.UUID("5f0e7a52-9d0c-4f53-9a57-1c6d3e1b2a10")


class InvalidSimulation(ServiceError):
    status, code = 422, "invalid_simulation"


class SimulationNotFound(ServiceError):
    status, code = 404, "simulation_not_found"


class SimulationsBusy(ServiceError):
    status, code = 429, "simulations_busy"


def game_id_of(simulation_id: str, index: int) -> uuid.UUID:
    """The id of game `index` of a simulation (the same for every worker that creates it)."""
    return uuid.uuid5(SIMULATION_NAMESPACE, f"{simulation_id}:{index}")


def seat_levels(bots: list[str], players: int, index: int) -> dict[str, str]:
    """The bot of each seat in game `index`: dealt round the seats, shifted by one each game."""
    return {str(seat): bots[(seat + index) % len(bots)] for seat in range(players)}


def check_request(game: Any, players: Any, bots: Any, games: Any, seed: Any) -> dict:
    """The simulation asked for, checked; `InvalidSimulation` says in a sentence what is wrong."""
    if not isinstance(game, str) or not game:
        raise InvalidSimulation("game must name a game type, e.g. \"adas_dream\"")
    try:
        rules = get_rules(game)
    except KeyError:
        raise InvalidSimulation(f"there is no game type {game!r}; GET /game-types lists them", game=game) from None
    meta = rules.meta
    if isinstance(players, bool) or not isinstance(players, int) or not meta.min_players <= players <= meta.max_players:
        raise InvalidSimulation(f"{game} takes {meta.min_players} to {meta.max_players} players, not {players!r}")
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",") if b.strip()]
    if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
        raise InvalidSimulation("bots must list one or more bot levels, e.g. [\"normal\", \"random\"]")
    if len(bots) > players:
        raise InvalidSimulation(f"bots lists {len(bots)} levels for {players} seats; give at most one per seat")
    unknown = [b for b in bots if b not in LEVELS]
    if unknown:
        raise InvalidSimulation(f"{unknown[0]!r} is not a bot level; the levels are {', '.join(LEVELS)}")
    thinking = [b for b in bots if LEVELS[b].iterations > 0]
    if thinking:
        try:
            hooks_for(rules)
        except LookupError:
            raise InvalidSimulation(f"{game} has no bot that searches (no bot.py): its bots can play only at "
                                    f"level random, not {thinking[0]!r}") from None
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InvalidSimulation(f"games must be a whole number from 1 to {MAX_GAMES:,}, not {games!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63):
        raise InvalidSimulation(f"seed must be a whole number from 0 to 2^63 - 1, not {seed!r}")
    return {"game": game, "players": players, "bots": bots, "games": games, "seed": seed}


_FINISH = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
for i = 6, #ARGV, 2 do redis.call('HINCRBYFLOAT', KEYS[2], ARGV[i], ARGV[i + 1]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[6], ARGV[1], ARGV[4]) end
local total = tonumber(ARGV[2])
local started = redis.call('INCR', KEYS[3])
if started <= total then
  local index = started - 1
  local key = 'sim:' .. ARGV[3] .. ':' .. index
  local body = cjson.encode({kind = 'sim', sim = ARGV[3], index = index, key = key})
  if redis.call('HSETNX', KEYS[5], key, body) == 1 then redis.call('XADD', KEYS[4], '*', 'job', body) end
else
  redis.call('DECR', KEYS[3])
end
if redis.call('SCARD', KEYS[1]) >= total then
  redis.call('HSET', KEYS[7], 'finished_at', ARGV[5])
  redis.call('SREM', KEYS[8], ARGV[3])
end
return 1
"""


class Simulations:
    """Create simulations, play their games' slices (a worker's `sim` jobs), report progress."""

    def __init__(self, queue: Any, service: Any = None) -> None:
        self.queue = queue
        self.client = queue.client
        self.service = service
        self._finish = self.client.register_script(_FINISH)
        self.active_key = queue.key("sims-active")

    def key(self, simulation_id: str, part: str = "") -> str:
        return self.queue.key(f"sim:{simulation_id}" + (f":{part}" if part else ""))

    # ---- asked for

    def create(self, game: Any, players: Any, bots: Any, games: Any, seed: Any = None) -> dict:
        """Check, store and queue a simulation; its status (``{"id", "status": "queued", ...}``)."""
        spec = check_request(game, players, bots, games, seed)
        pending = self.pending_games()
        if pending + spec["games"] > MAX_PENDING_GAMES:
            raise SimulationsBusy(f"{pending:,} simulated games are waiting or being played; at most "
                                  f"{MAX_PENDING_GAMES:,} may be at once. Try again when some simulations are done.",
                                  pending=pending)
        simulation_id = uuid.uuid4().hex
        stored = {**spec, "seed_given": spec["seed"] is not None,
                  "seed": spec["seed"] if spec["seed"] is not None else secrets.randbits(63)}
        first = min(WINDOW, spec["games"])
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(self.key(simulation_id), mapping={"spec": orjson.dumps(stored), "created_at": time.time()})
        pipe.set(self.key(simulation_id, "started"), first)
        pipe.sadd(self.active_key, simulation_id)
        pipe.execute()
        for index in range(first):
            self._queue_game(simulation_id, index)
        return self.status(simulation_id)

    def _queue_game(self, simulation_id: str, index: int, continued: bool = False) -> None:
        body = {"kind": "sim", "sim": simulation_id, "index": index}
        if continued:
            body["continued"] = True
        self.queue.enqueue("sims", body, dedupe=f"sim:{simulation_id}:{index}")

    def spec(self, simulation_id: str) -> dict:
        raw = self.client.hget(self.key(simulation_id), "spec")
        if raw is None:
            raise SimulationNotFound(f"no simulation {simulation_id!r}")
        return orjson.loads(raw)

    def pending_games(self) -> int:
        """Games of unfinished simulations not yet counted done."""
        total = 0
        for raw in self.client.smembers(self.active_key):
            simulation_id = raw.decode() if isinstance(raw, bytes) else raw
            try:
                spec = self.spec(simulation_id)
            except SimulationNotFound:
                continue
            total += spec["games"] - int(self.client.scard(self.key(simulation_id, "done")))
        return max(0, total)

    # ---- progress

    def status(self, simulation_id: str) -> dict:
        """What `GET /simulations/{id}` answers (see API.md "The lab")."""
        if not isinstance(simulation_id, str) or len(simulation_id) != 32 or \
                any(c not in "0123456789abcdef" for c in simulation_id):
            raise SimulationNotFound(f"no simulation {simulation_id!r}")
        spec = self.spec(simulation_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.scard(self.key(simulation_id, "done"))
        pipe.hgetall(self.key(simulation_id, "failed"))
        pipe.hgetall(self.key(simulation_id, "summary"))
        pipe.hget(self.key(simulation_id), "running")
        done, failed, summary, running = pipe.execute()
        total = spec["games"]
        failed = {int(k): (v.decode() if isinstance(v, bytes) else v) for k, v in failed.items()}
        if done >= total:
            status = "failed" if len(failed) == total else "done"
        else:
            status = "running" if running or done else "queued"
        answer = {"id": simulation_id, "status": status, "progress": round(done / total, 4),
                  "games_done": done, "games": total, "game": spec["game"], "players": spec["players"],
                  "bots": spec["bots"], "games_failed": len(failed),
                  "failures": [{"index": i, "game_id": str(game_id_of(simulation_id, i)), "error": why}
                               for i, why in sorted(failed.items())[:20]],
                  "report": report(spec, summary),
                  # No live worker: nothing will be played (HEIRLOOM_WORKER=off and no `heirloom worker`).
                  "workers": len(self.queue.live_workers())}
        if spec.get("seed_given"):
            answer["seed"] = spec["seed"]
        return answer

    def game_ids(self, simulation_id: str) -> list[str]:
        """The ids of every game of the simulation (played or to be played)."""
        return [str(game_id_of(simulation_id, i)) for i in range(self.spec(simulation_id)["games"])]

    # ---- played (a worker's `sim` job)

    def play(self, body: dict, seconds: float) -> None:
        """Play about `seconds` of game `body["index"]` of simulation `body["sim"]`; queue its
        continuation, or count it done (once) and start the next game."""
        simulation_id, index = body["sim"], int(body["index"])
        spec = self.spec(simulation_id)
        service = self.service
        game_id = str(game_id_of(simulation_id, index))
        if not body.get("continued"):
            self.client.hsetnx(self.key(simulation_id), "running", 1)
            service.create_simulated(game_id_of(simulation_id, index), spec["game"], spec["players"],
                                     seat_levels(spec["bots"], spec["players"], index),
                                     derive_seed(spec["seed"], f"simulation/{index}") >> 1, simulation_id, index)
        started = time.monotonic()
        error = ""
        try:
            while True:
                seats = service.bots_to_act(game_id)
                if not seats:
                    break
                service.play_bot(game_id, seats[0])
                if time.monotonic() - started >= seconds:
                    break
            game = service.game(game_id)
            if not game.finished and game.last_move_no < MAX_MOVES:
                if service.bots_to_act(game_id):
                    self._queue_game(simulation_id, index, continued=True)
                    return
                error = f"no bot could act at move {game.last_move_no + 1}"
            elif not game.finished:
                error = f"not over after {MAX_MOVES:,} moves"
        except Exception as failure:  # noqa: BLE001 - one game's trouble ends that game, not the simulation
            log.warning("simulation %s game %d failed: %s", simulation_id, index, failure)
            game, error = None, f"{type(failure).__name__}: {failure}"
        self.count(simulation_id, spec, index, game if not error else None, error)

    def count(self, simulation_id: str, spec: dict, index: int, game: Any, error: str = "") -> bool:
        """Count game `index` done (once: False if it was) with its result, and start the next."""
        sums: list[Any] = []
        if game is not None:
            levels = seat_levels(spec["bots"], spec["players"], index)
            winners = set(game.winners)
            sums += ["games", 1, "moves", game.last_move_no]
            for seat in range(spec["players"]):
                won = 1 if seat in winners else 0
                sums += [f"wins:seat:{seat}", won, f"score:seat:{seat}", float(game.scores.get(str(seat), 0)),
                         f"wins:bot:{levels[str(seat)]}", won, f"seats:bot:{levels[str(seat)]}", 1]
        counted = self._finish(
            keys=[self.key(simulation_id, "done"), self.key(simulation_id, "summary"),
                  self.key(simulation_id, "started"), self.queue.stream("sims"), self.queue.queued_key,
                  self.key(simulation_id, "failed"), self.key(simulation_id), self.active_key],
            args=[index, spec["games"], simulation_id, error, time.time(), *sums])
        return bool(counted)


def report(spec: dict, summary: dict) -> dict | None:
    """The simulation's figures so far: per seat win rate and mean score, per bot level win
    rate, mean game length (finished games only). The full report with intervals is
    `GET /analytics/{game}/report?simulation=<id>`."""
    sums = {(k.decode() if isinstance(k, bytes) else k): float(v) for k, v in summary.items()}
    games = int(sums.get("games", 0))
    if not games:
        return None
    seats = [{"seat": seat, "win_rate": round(sums.get(f"wins:seat:{seat}", 0) / games, 4),
              "mean_score": round(sums.get(f"score:seat:{seat}", 0) / games, 2)} for seat in range(spec["players"])]
    bots = []
    for level in dict.fromkeys(spec["bots"]):
        played = sums.get(f"seats:bot:{level}", 0)
        bots.append({"level": level, "seats_played": int(played),
                     "win_rate": round(sums.get(f"wins:bot:{level}", 0) / played, 4) if played else None})
    return {"games": games, "mean_moves": round(sums.get("moves", 0) / games, 1), "seats": seats, "bots": bots}
