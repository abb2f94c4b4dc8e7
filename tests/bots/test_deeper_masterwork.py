"""Towards a completed Masterwork in My Father's Work (issue 15.7), with replay = live after every move.

Neither random play nor two `normal` bots come near one: a Masterwork needs 1 A, 2 B and 3 C
completed at once (MFW-EXPERIMENT-06), and only one completed Experiment per Generation
survives, stored (MFW-ENDGEN-05). The bots' search sees eight moves past its tree and values a
position by the running score, so it neither stores for a Masterwork nor climbs the levels: in
three normal-vs-normal games (seeds 1-3) no C was completed at all.

So seat 0 follows a Masterwork plan (`masterwork_plan`, the playout's nudge): a scripted
preference, among the seat's legal moves only and from what the seat knows (its hand, its
completed and stored Experiments, its Masterwork, the public row), for the moves that climb
towards the Masterwork; every other move is the `normal` bot's. Seat 1 is a `random` bot.

The plan reaches the Masterwork's prerequisites (seed 17, 149 moves) but not yet the Masterwork
itself: with three pieces a round it gathers about three Resources a round, one Experiment's
worth, and the prerequisites are met only in the last round of Generation III (in seeds 1-40
no game completed it; see the report of issue 15.7 for what is left).
"""

from __future__ import annotations

import pytest

from domain.games import load_all
from domain.games.my_fathers_work import content as C
from domain.games.my_fathers_work import state as Q

from .playout import bot_playout

load_all()

NEED = C.PREREQS["D"]                     # MFW-EXPERIMENT-06: {"A": 1, "B": 2, "C": 3}
CREDIT_TILES = {"Drafting Room", "Lightning Mast", "Grand Laboratory"}   # free A, B or C levels (MFW-EXPERIMENT-07)
PIECE_ORDER = ("caretaker", "servant", "self")   # keep the Self (two performances in Town) for the Town


def level_of(card: str) -> str:
    return C.EXPERIMENTS[card]["level"]


def missing(state: dict, seat: int, level: str) -> int:
    """How many more completed Experiments of `level` the Masterwork needs now."""
    return max(0, NEED.get(level, 0) - Q.completed_count(state, seat, level))


def wanted_level(state: dict, seat: int) -> str | None:
    """The lowest level the Masterwork still needs a card for (hand cards count as on their way)."""
    hand = state["players"][seat]["hand"]
    for level in ("A", "B", "C"):
        if missing(state, seat, level) > sum(1 for c in hand if level_of(c) == level):
            return level
    return None


def store_value(state: dict, seat: int, card: str) -> tuple:
    """Store what the next Generation cannot do without: a level still short of the Masterwork's
    need counting only what is permanent (stored and free levels), the highest level first."""
    pl = state["players"][seat]
    level = level_of(card)
    permanent = Q.completed_count(state, seat, level) - sum(1 for c in pl["completed"] if level_of(c) == level)
    return (permanent < NEED.get(level, 0), level)


def next_cards(state: dict, seat: int, n: int = 1) -> list[str]:
    """The next `n` cards of the climb, in order: each time the Masterwork once its prerequisites
    would be met, else the hand card of the highest level still needed whose prerequisites would be
    met (counting the cards before it in the list as completed)."""
    pl = state["players"][seat]
    have = {level: Q.completed_count(state, seat, level) for level in ("A", "B", "C")}
    hand, out = list(pl["hand"]), []
    met = lambda level: all(have[lv] >= k for lv, k in C.PREREQS[level].items())
    while len(out) < n:
        if pl["masterwork"] and not pl["mw_done"] and met("D"):
            out.append(pl["masterwork"])
            break
        ready = [c for c in hand if have[level_of(c)] < NEED[level_of(c)] and met(level_of(c))]
        if not ready:
            break
        card = max(ready, key=level_of)
        out.append(card)
        hand.remove(card)
        have[level_of(card)] += 1
    return out


def target_card(state: dict, seat: int) -> str | None:
    cards = next_cards(state, seat, 1)
    return cards[0] if cards else None


def shortfall(state: dict, seat: int, cards: list[str]) -> set[str]:
    """The Resources the seat still lacks to pay for all of `cards` (free Journal Knowledge counts
    for each card: it is never used up, MFW-JOURNAL-09)."""
    pl = state["players"][seat]
    need: dict[str, int] = {}
    for card in cards:
        exp = C.EXPERIMENTS[card]
        for k, n in exp["cost_ingredients"].items():
            need[k] = need.get(k, 0) + n
        for k, n in exp["cost_knowledge"].items():
            need[k] = need.get(k, 0) + max(0, n - pl["journal"][k])
    return {k for k, n in need.items() if pl["res"][k] < n}


def gives(effects: list, short: set[str]) -> int:
    """How many of the short Resources a list of effects gains (a choice counts its best branch)."""
    n = 0
    for e in effects:
        if "choice" in e:
            n += max(gives(branch, short) for branch in e["choice"])
        elif e.get("gain") in ("ingredient", "knowledge") and e.get("kind") in short:
            n += e["n"]
    return n


def masterwork_plan(rules, state: dict, seat: int) -> dict | None:
    """Seat 0's preference (None: the bot decides)."""
    if seat != 0:
        return None
    moves = rules.legal_moves(state, seat)
    pl = state["players"][seat]
    pend = state["pending"]
    if pend is not None:
        kind = pend["step"] if pend["kind"] == "sim" else pend["kind"]
        options = [m["option"] for m in moves]
        pick = None
        if kind in ("round_draw", "draw_deck"):
            level = wanted_level(state, seat) or "C"
            pick = level if level in options else None
        elif kind in ("keep", "ea_keep"):
            pick = max(options, key=lambda c: level_of(c))
        elif kind == "store":
            pick = max(options, key=lambda c: store_value(state, seat, c))
        elif kind in ("resource", "knowledge"):
            short = [o for o in options if o in shortfall(state, seat, next_cards(state, seat))]
            pick = short[0] if short else None
        elif kind == "slash":
            short = shortfall(state, seat, next_cards(state, seat))
            best = max(options, key=lambda i: gives(pend["effects"][i], short))
            pick = best if gives(pend["effects"][best], short) else None
        elif kind == "buy":
            credit = [o for o in options if o != "none" and C.tile(state["row"][int(o[4:])])["name"] in CREDIT_TILES]
            pick = credit[0] if credit else None
        return next((m for m in moves if m["option"] == pick), None) if pick is not None else None
    experiments = [m for m in moves if m.get("loc") == "perform_experiment"]
    if experiments:
        def value(m):
            card = m["card"]
            level = level_of(card)
            return (card == pl["masterwork"], missing(state, seat, level) > 0, level,
                    -PIECE_ORDER.index(C.PIECE_TYPE[m["pieces"][0]]))
        best = max(experiments, key=value)
        if best["card"] == pl["masterwork"] or missing(state, seat, level_of(best["card"])) > 0:
            return best
    short = shortfall(state, seat, next_cards(state, seat))
    town = [m for m in moves if m.get("type") == "place" and m["loc"] in state["town"]
            and gives(C.LOCATIONS[m["loc"]]["reward_per_use"], short)]
    if town:   # the Self performs twice in the Town (MFW-PLACE-19), every Servant-type piece once
        return max(town, key=lambda m: (gives(C.LOCATIONS[m["loc"]]["reward_per_use"], short),
                                        m["pieces"] == ["self"] or len(m["pieces"])))
    if target_card(state, seat) is None and wanted_level(state, seat) is not None:
        draws = [m for m in moves if m.get("loc") == "estate_affairs" and m.get("mode") == "draw"]
        if draws:
            return min(draws, key=lambda m: ("servant", "caretaker", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    if pl["journal"]["engineering"] < 2:   # MFW-JOURNAL-14: Engineering level 2 counts as a completed B
        record = [m for m in moves if m.get("loc") == "record_knowledge" and m["track"] == "engineering"]
        if record:
            return min(record, key=lambda m: ("servant", "caretaker", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    return None


def masterwork_completed(state, facts):
    return any(f.get("type") == "ExperimentCompleted" and f.get("level") == "D" for f in facts)


def masterwork_in_reach(state, facts):
    """Seat 0 meets the Masterwork's prerequisites (MFW-EXPERIMENT-06)."""
    pl = state["players"][0]
    return not pl["mw_done"] and Q.prerequisites_met(state, 0, "D")


@pytest.mark.slow
@pytest.mark.rule("MFW-EXPERIMENT-06", "MFW-EXPERIMENT-07")
def test_a_masterwork_plan_meets_the_masterworks_prerequisites():
    """Seed 17 (found by playing seeds 1..40 with the plan): in Generation III round 3 seat 0 has
    1 A, 2 B and 3 C, made of this Generation's completions, the two stored Experiments (a B from
    Generation I, a C from Generation II) and the Grand Laboratory's free C level."""
    result = bot_playout("my_fathers_work", 2, 17, ["normal", "random"], stop=masterwork_in_reach,
                         nudge=masterwork_plan)
    state = result["state"]
    pl = state["players"][0]
    assert masterwork_in_reach(state, [])
    assert (state["gen"], state["round"]) == (3, 3)
    assert [level_of(c) for c in pl["stored"]] == ["B", "C"]              # one per Generation (MFW-ENDGEN-07)
    assert "Grand Laboratory" in Q.tile_names(state, 0)
    this_generation = {lv: sum(1 for c in pl["completed"] if level_of(c) == lv) for lv in ("A", "B", "C")}
    assert this_generation == {"A": 1, "B": 1, "C": 1}
    # MFW-EXPERIMENT-07: completed this Generation + stored + free levels, counted per level
    assert {lv: Q.completed_count(state, 0, lv) for lv in ("A", "B", "C")} == {"A": 1, "B": 2, "C": 3}
    # without the free C level the Masterwork would still be out of reach (MFW-EXPERIMENT-06)
    plots = list(pl["plots"])
    pl["plots"] = [None if t is not None and C.tile(t)["name"] == "Grand Laboratory" else t for t in plots]
    assert not Q.prerequisites_met(state, 0, "D")
    pl["plots"] = plots
