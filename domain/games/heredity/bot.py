"""What the generic bot (domain/bots) needs from Heredity: what the team knows, and samples of it.

Heredity is cooperative and every seat sees the same table (HER-HIDDEN-*). The one hidden part of
the state is the order of the Karma deck (its composition is public, HER-HIDDEN-08): `knowledge`
sorts it, `sample` shuffles it. The Secrets deck's unrevealed cards are content (the book), not
state: the bot's playouts read the book as the rules do, which is what a determinization of an
unknown order cannot avoid; no face or order a seat cannot see is kept in the knowledge.

`candidates` goes further than the list: `legal_moves` already lists one move per distinct effect
(twin slots, moves.py `same_effect`), and `candidates` also treats as one the moves that differ only
in a slot that rarely matters to the search (one Move per path, one combined attack per target and
group of PCs, the strongest), and leaves out what never helps the team: attacking its own allies
(Swan's death feeds the storm), dropping Materials, healing hostile NPCs. The opening window lists
495 moves, 475 of them attacks on Swan; 64 iterations could not even try each once.

`evaluate` values an unfinished chapter by how soon the team can win against how long the storm
leaves it (`PLANS`, read from the chapter's book like the rules read it, never from the Karma
order): for each route to a victory (the Swan Key bought from the trader, or taken from her, then
the iron chest opened; or the chest opened without it and The Warden killed) it estimates the
windows the PCs need from where they stand, with the Action tokens and Move slots they have, and
compares that with the windows before the storm card's last token. A Dying PC (the Family card's
defeat) weighs the estimate down. Its score is the expected final score (100 times the estimate).

`ROLLOUT_DEPTH = 0`: the search values each new node by `evaluate` right after its move (a move
that ends the window resolves the Timeline's events first, so the storm, the NPCs and the Karma
of their attacks are in that value). Eight random moves past the tree mostly spent or wasted the
tokens at random and drowned the differences the evaluation sees between two moves.
"""

from __future__ import annotations

import math

from domain.engine import EVERYONE, copy_state

from .scoring import scores
from .state import C, board, is_ally, is_dying, is_hostile, npc_section, pc_slots, slot_state, standees, tokens
from .state.reach import attack_slots

#: Moves a seat may make at any time that never answer the decision of the moment (a voluntary injury,
#: HER-INJURY-05; a free drop, HER-INV-05): a bot seat waiting for people does not make them (TABLE-BOT-01).
ANY_TIME_MOVES = ("injure", "drop")

SCORE_SCALE = 6
ROLLOUT_DEPTH = 0            # see the module doc
#: The spare windows at which the evaluation gives even chances (the storm's clock is not all: PCs are
#: hurt, Karma fails)
SLACK_MID = 1.5

#: What the bot reads from a chapter's book to value a position (card numbers and areas of the chapter).
#: `reach`: how to reach an area of a Terrain not yet on the table: (area on the table, extra crossings),
#: tried in order (the first whose area is on the table).
PLANS = {
    "swan-1": {
        "storm": 110, "storm_limit": 7,          # the storm card's Event: 7 tokens lose the chapter
        "key": 142, "chest": "103:h2", "chest_card": 122,
        "trader": 130, "price": 2, "trader_spot": "102:b2",
        "turn": 113,                              # the smoke: the trader turns hostile, 102 becomes 105
        "turn_clock": (112, 3),                   # ... when the footprints card holds 3 tokens
        "warden": 132,
        "reach": {
            "103:h2": [("103:h2", 0), ("102:b3", 2), ("105:c3", 2), ("101:o3", 5)],
            "102:b2": [("102:b2", 0), ("101:o3", 2)],
        },
    },
}


def knowledge(state: dict, viewer) -> dict:
    k = copy_state(state)
    if viewer != EVERYONE and state["over"] is None:
        k["karma"]["deck"] = sorted(k["karma"]["deck"])          # HER-HIDDEN-08: composition only
    return k


def sample(know: dict, viewer, rng) -> dict:
    s = copy_state(know)
    if viewer != EVERYONE and s["over"] is None:
        s["karma"]["deck"] = rng.shuffled(s["karma"]["deck"])
    return s


def rollout_move(state: dict, seat: int, moves: list[dict], rng) -> dict:
    """Playouts pick a kind of move first, then one of that kind: combined attacks would otherwise
    be nearly every random move (they are most of the list). A voluntary injury (HER-INJURY-05) is
    played only when nothing else is listed: random injuries kill PCs, and a dying PC loses the
    chapter, which would make every line look lost. Like `candidates` (too slow to run on every
    playout move), playouts never attack the team's allies nor drop Materials."""
    kinds = sorted({m["type"] for m in moves if m["type"] not in ("injure", "end_window")})
    kinds = (kinds + ["end_window"]) if any(m["type"] == "end_window" for m in moves) else kinds
    kinds = kinds or ["injure"]
    allies = _allies(state)
    while True:
        kind = rng.choice(kinds)
        pool = [m for m in moves if m["type"] == kind and _useful(m, allies)]
        if pool or len(kinds) == 1:
            return rng.choice(pool or [m for m in moves if m["type"] == kind])
        kinds = [k for k in kinds if k != kind]


# -- candidates: one move per distinct effect ---------------------------------------------------------------
def _allies(state: dict) -> set:
    return {int(n) for n in state["npcs"] if is_ally(state, int(n))}


def _useful(m: dict, allies: set) -> bool:
    """Not an attack on an ally of the team, not a drop of Materials."""
    kind = m["type"]
    if kind == "drop":
        return "materials" not in m
    if allies and kind in ("attack", "combined_attack", "card_action"):
        target = m.get("target")
        if isinstance(target, dict) and target.get("npc") in allies:
            return False
        return not any(isinstance(t, dict) and t.get("npc") in allies for t in m.get("targets") or ())
    return True


def _slot_cost(records: dict, refs) -> int:
    """How much a slot is worth keeping free: its icons, more for an Item's attack."""
    cost = 0
    for ref in refs:
        rec = records.get(ref) or {}
        cost += len(rec.get("icons") or []) + (3 if rec.get("attack") else 0)
    return cost


def candidates(state: dict, seat: int, moves: list[dict]) -> list[dict]:
    """The moves worth searching, in list order (never empty when `moves` is not): see the module doc."""
    if len(moves) < 3:
        return moves
    allies = _allies(state)
    hostile: dict = {}
    records: dict = {}
    powers: dict = {}

    def slot_records(pc):
        if pc not in records:
            records[pc] = {ref: rec for ref, rec, n in pc_slots(state, pc)}
        return records[pc]

    def power_of(pc):
        if pc not in powers:
            powers[pc] = {r: p for r, p, g in attack_slots(state, pc)}
        return powers[pc]

    best: dict = {}
    order: list = []
    for m in moves:
        kind = m["type"]
        if not _useful(m, allies):
            continue
        if kind == "combined_attack":
            t = m["target"]
            parts = m["participants"]
            key = (kind, t["npc"], t["s"]) + tuple(p["pc"] for p in parts)
            value = -sum(power_of(p["pc"]).get(p["slot"], 0) for p in parts)
        elif kind == "attack":
            key = (kind, m["pc"], repr(m.get("target")), repr(m.get("targets")), power_of(m["pc"]).get(m["slot"], 0))
            value = _slot_cost(slot_records(m["pc"]), [m["slot"]])
        else:
            if kind == "heal" and "npc" in m["target"]:
                npc = m["target"]["npc"]
                if npc not in hostile:
                    hostile[npc] = is_hostile(state, npc)
                if hostile[npc]:
                    continue
            if kind == "trade" and len(m["give"]) + len(m["take"]) > 2:
                continue
            if "slot" in m or "slots" in m:
                key = (kind, repr([(k, v) for k, v in sorted(m.items()) if k not in ("slot", "slots")]))
                value = _slot_cost(slot_records(m["pc"]), m.get("slots") or [m.get("slot")]) if "pc" in m else 0
            else:
                key, value = (kind, repr(sorted(m.items()))), 0
        found = best.get(key)
        if found is None:
            order.append(key)
            best[key] = (value, m)
        elif value < found[0]:
            best[key] = (value, m)
    kept = [best[k][1] for k in order]
    return kept or moves


# -- evaluate: the windows the team needs against the windows the storm leaves -----------------------------
def _windows(state: dict, pc: str, moves: float, actions: float) -> float:
    """Window ends that pass before `pc` has crossed `moves` lines and spent `actions` more tokens
    (0: in this window), with a fraction for the last window's share used; inf if it cannot move."""
    me = state["pcs"][pc]
    if moves <= 0 and actions <= 0:
        return 0.0
    slots = [(ref, rec) for ref, rec, n in pc_slots(state, pc) if "move" in (rec.get("icons") or []) and rec["accepts"]]
    down = is_dying(state, pc)
    full_moves = sum(1 for ref, rec in slots if not slot_state(state, ref)["d"] and not (down and rec["heart"]))
    now_moves = sum(1 for ref, rec in slots if slot_state(state, ref)["t"] is None and not slot_state(state, ref)["d"]
                    and not (down and rec["heart"]))
    full_tokens = len(me["tokens"]) + (1 if state.get("purple") == pc else 0)
    now_tokens = sum(1 for t in me["tokens"] if t == "avail")
    if moves > 0 and full_moves == 0:
        return math.inf
    w, left_m, left_a = 0, float(moves), float(actions)
    cap_m, cap_t = now_moves, now_tokens
    while w < 12:
        m = min(left_m, cap_m, cap_t)
        left_m -= m
        a = min(left_a, cap_t - m)
        left_a -= a
        if left_m <= 1e-9 and left_a <= 1e-9:
            return w + 0.5 * (m + a) / max(full_tokens, 1)
        w += 1
        cap_m, cap_t = full_moves, full_tokens
    return math.inf


def _distance(state: dict, b, plan: dict, frm: str | None, to: str) -> float:
    """Crossings from `frm` to `to` (an area, maybe on a Terrain not yet on the table: see PLANS['reach'])."""
    if frm is None:
        return math.inf
    d = b.distances(frm)
    for via, extra in plan["reach"].get(to, [(to, 0)]):
        if via.split(":")[0] in state["terrains"]:
            found = d.get(b.c(via))
            return math.inf if found is None else found + extra
    return math.inf


def _per_token_damage(state: dict, pc: str, defence: int) -> float:
    best = max((p for r, p, g in attack_slots(state, pc)), default=1)
    return max(0.35, best + 0.45 - defence) * 0.89       # Karma: about +0.45 on average, 1 in 9 fails


def _kill_windows(state: dict, b, plan: dict, npc: int, area: str | None, start: float) -> float:
    """Window ends before the team kills `npc` standing in `area`, attacks starting at `start` (windows)."""
    sec = npc_section(state, npc)
    if sec is None:
        return math.inf
    sts = state["npcs"].get(str(npc)) or []
    life = sec["life"] * max(1, len(sts) or sec.get("standees", 1)) - sum(s["damage"] for s in sts)
    if life <= 0:
        return start
    defence = sec.get("defence", 0)
    pcs = [p for p in sorted(state["pcs"]) if state["pcs"][p]["area"] is not None and not is_dying(state, p)]
    rate, arrival = [], []
    for p in pcs:
        dist = _distance(state, b, plan, state["pcs"][p]["area"], area) if area else 0
        t = _windows(state, p, dist, 0)
        if math.isfinite(t):
            rate.append(_per_token_damage(state, p, defence) * 3)      # per window, three tokens
            arrival.append(max(t, start))
    if not rate:
        return math.inf
    done = 0.0
    for w in range(int(start), 12):
        per = sum(r * min(1.0, max(0.0, w + 1 - a)) for r, a in zip(rate, arrival))
        if done + per >= life:
            return w + (life - done) / per * 0.999 if per else math.inf
        done += per
    return math.inf


def _where(state: dict, number: int) -> tuple[str, object]:
    card = state["cards"].get(str(number), {})
    return card.get("zone", "deck"), card.get("pc") or card.get("area")


def _fresh(moves: float, actions: float) -> float:
    """Windows a PC with every token and two Move slots needs (after an earlier task)."""
    return max(moves / 2, (moves + actions) / 3)


def _route_windows(state: dict, plan: dict) -> float:
    """The fewest window ends before a victory, over the routes of the plan."""
    b = board(C(state), state)
    pcs = [p for p in sorted(state["pcs"]) if state["pcs"][p]["area"] is not None]
    at = {p: state["pcs"][p]["area"] for p in pcs}
    chest, key = plan["chest"], plan["key"]
    chest_open = _where(state, plan["chest_card"])[0] != "deck"
    to_chest = {p: _distance(state, b, plan, at[p], chest) for p in pcs}
    best = math.inf
    if not chest_open:
        # Route 1: the Swan Key, then the chest (any PC opens it while one of them holds the key).
        # A way to the key: (PC, crossings, actions, not before, where it is then)
        ways = []
        zone, where = _where(state, key)
        if zone == "inventory":
            ways.append((where, 0, 0, 0.0, at.get(where)))
        elif zone == "area":
            ways += [(p, _distance(state, b, plan, at[p], where), 1, 0.0, where) for p in pcs]
        elif _where(state, plan["trader"])[0] != "burned":
            trader = plan["trader"]
            sts = standees(state, trader)
            revealed = bool(sts)
            turned = _where(state, plan["turn"])[0] != "deck"
            spot = sts[0][1] if sts else plan["trader_spot"]
            if revealed or not turned:
                speak = 0 if revealed else 1
                if not (revealed and is_hostile(state, trader)):
                    deadline = _turn_deadline(state, plan)
                    for p in pcs:
                        need = max(0, plan["price"] - state["pcs"][p]["materials"])
                        for moves, actions in _buy_ways(state, b, plan, p, spot, need, pcs):
                            if _windows(state, p, moves, actions + speak + 1) < deadline + 1:
                                ways.append((p, moves, actions + speak + 1, 0.0, spot))
                if revealed:                                   # her death leaves the key where she stands
                    kill = _kill_windows(state, b, plan, trader, spot, 0.0)
                    if math.isfinite(kill):
                        ways += [(p, 0, 1, kill, spot) for p in pcs if _distance(state, b, plan, at[p], spot) <= 2]
        for p, moves, actions, after, spot in ways:
            held = max(after, _windows(state, p, moves, actions)) if after else _windows(state, p, moves, actions)
            if not math.isfinite(held):
                continue
            if after:
                alone = after + _fresh(_distance(state, b, plan, spot, chest), actions + 1)
            else:
                alone = _windows(state, p, moves + _distance(state, b, plan, spot, chest), actions + 1)
            best = min(best, alone)
            for q in pcs:
                if q != p:
                    best = min(best, max(held, _windows(state, q, to_chest[q], 1)) + 0.05)
    # Route 2: the chest opened without the key brings The Warden; her death is a victory
    warden = plan["warden"]
    sts = standees(state, warden)
    if sts:
        best = min(best, _kill_windows(state, b, plan, warden, sts[0][1], 0.0))
    elif not chest_open:
        opened = min((_windows(state, p, to_chest[p], 1) for p in pcs), default=math.inf)
        if math.isfinite(opened):
            best = min(best, _kill_windows(state, b, plan, warden, chest, opened) + 0.3)
    return best


def _turn_deadline(state: dict, plan: dict) -> float:
    """Window ends before the trader turns hostile (`turn_clock`'s card holds its last token)."""
    card, last = plan["turn_clock"]
    return max(0, last - 1 - tokens(state, card))


def _buy_ways(state, b, plan, p, spot, need, pcs):
    """(crossings, actions) for `p` to reach the trader at `spot` with her price (Materials picked up or
    handed over first when it lacks `need`)."""
    here = state["pcs"][p]["area"]
    if need == 0:
        yield _distance(state, b, plan, here, spot), 0
        return
    for area, n in sorted(state["area_materials"].items()):
        if n >= need:
            yield _distance(state, b, plan, here, area) + _distance(state, b, plan, area, spot), 1
    for q in pcs:
        if q != p and state["pcs"][q]["materials"] >= need:
            there = state["pcs"][q]["area"]
            yield math.ceil(_distance(state, b, plan, here, there) / 2) + _distance(state, b, plan, there, spot), 1


def evaluate(state: dict):
    """(wins, scores) per seat for an unfinished chapter: see the module doc."""
    seats = range(state["players"])
    plan = PLANS.get(state["chapter"])
    if plan is None or state["over"] is not None:       # a chapter without a plan: the game's progress score
        points = scores(state)
        return [0.0 for _ in seats], [float(points[seat]) for seat in seats]
    storm = tokens(state, plan["storm"]) if _where(state, plan["storm"])[0] in ("timeline", "table") else 0
    slack = (plan["storm_limit"] - 1 - storm) - _route_windows(state, plan)
    p = 0.0 if slack == -math.inf else 1.0 / (1.0 + math.exp(-(slack - SLACK_MID)))
    dying = sum(1 for pc in state["pcs"] if is_dying(state, pc))
    p *= 0.3 ** dying
    return [p for _ in seats], [100.0 * p for _ in seats]
