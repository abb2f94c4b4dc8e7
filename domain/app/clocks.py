"""Game clocks (API.md "Table options": `clock`, `on_timeout`): how much time each seat has.

Two kinds, chosen at creation and stored in the table (`Created.table`):

- correspondence, ``{"per_move_s": 86400}``: each decision has that long, from the moment the seat
  was first asked for it;
- live, ``{"bank_s": 900, "increment_s": 10}``: each seat has a bank that runs while the seat is
  asked to decide (every asked seat's bank runs in a simultaneous step) and gains the increment
  after each of its moves.

Time is read from the events' own times (passed in; nothing here reads a clock), so a clock is a
fold of the log like everything else: a replay or a record gives the same figures. Only people are
timed: a bot's seat and a seat taken over by a bot never are, and a game that waits on nobody but
bots has no deadline (its clocks are paused).

A `Clock` is a small JSON-native dict kept on the aggregate (and in its snapshots):
``{"banks": {"0": 900.0, ...}, "since": {"0": <epoch s when asked>, ...}}``.
"""

from __future__ import annotations

from typing import Any, Iterable

from .errors import InvalidGameSetup

ON_TIMEOUT = ("bot", "skip", "forfeit")
MIN_SECONDS, MAX_SECONDS = 1, 30 * 86400


def clock_option(clock: Any, on_timeout: Any) -> tuple[dict | None, str]:
    """The checked `clock` and `on_timeout` of a new table (InvalidGameSetup says what is wrong)."""
    policy = "bot" if on_timeout is None else on_timeout
    if policy not in ON_TIMEOUT:
        raise InvalidGameSetup(f"What happens when a clock runs out (on_timeout) is one of {', '.join(ON_TIMEOUT)}; "
                               f"{on_timeout!r} is not one of them.")
    if clock is None:
        return None, policy
    if not isinstance(clock, dict) or not clock:
        raise InvalidGameSetup('A clock is {"per_move_s": 86400} (correspondence) or '
                               '{"bank_s": 900, "increment_s": 10} (live).')
    keys = set(clock)
    if keys == {"per_move_s"}:
        kind = {"per_move_s": clock["per_move_s"]}
    elif keys in ({"bank_s"}, {"bank_s", "increment_s"}):
        kind = {"bank_s": clock["bank_s"], "increment_s": clock.get("increment_s", 0)}
    else:
        raise InvalidGameSetup(f"A clock has either per_move_s, or bank_s and increment_s; not {', '.join(sorted(keys))}.")
    for name, value in kind.items():
        low = 0 if name == "increment_s" else MIN_SECONDS
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= MAX_SECONDS:
            raise InvalidGameSetup(f"The clock's {name} is a number of seconds from {low} to {MAX_SECONDS:,}; "
                                   f"{value!r} is not.")
    return {name: float(value) for name, value in kind.items()}, policy


def new_clock(table_clock: dict | None, players: int) -> dict | None:
    if not table_clock:
        return None
    bank = table_clock.get("bank_s")
    return {"banks": {str(s): bank for s in range(players)} if bank is not None else {}, "since": {}}


def tick(clock: dict, table_clock: dict, at: float, waiting: Iterable[int], mover: int | None) -> None:
    """After an event at `at`: charge the seats no longer asked for the time they were asked, give the
    mover its increment, and start the clocks of the seats newly asked (`waiting`: people only)."""
    now_waiting = {str(s) for s in waiting}
    since = clock["since"]
    banks = clock["banks"]
    for seat in list(since):
        if seat in now_waiting and seat != (str(mover) if mover is not None else None):
            continue
        started = since.pop(seat)
        if seat in banks:
            banks[seat] = round(banks[seat] - max(0.0, at - started), 3)
            if mover is not None and seat == str(mover):
                banks[seat] = round(banks[seat] + table_clock.get("increment_s", 0.0), 3)
    for seat in now_waiting:
        since.setdefault(seat, at)


def allowance(clock: dict, table_clock: dict, seat: int) -> float:
    """The seconds `seat` had when it was asked (its bank, or the time per move)."""
    if "per_move_s" in table_clock:
        return table_clock["per_move_s"]
    return max(0.0, clock["banks"].get(str(seat), 0.0))


def remaining(clock: dict, table_clock: dict, seat: int, now: float) -> float:
    """What is left on `seat`'s clock at `now` (running only while it is asked)."""
    started = clock["since"].get(str(seat))
    left = allowance(clock, table_clock, seat)
    return round(max(0.0, left - (now - started if started is not None else 0.0)), 1)


def deadlines(clock: dict, table_clock: dict) -> dict[int, float]:
    """Per asked seat, the moment its time runs out."""
    return {int(seat): started + allowance(clock, table_clock, int(seat)) for seat, started in clock["since"].items()}
