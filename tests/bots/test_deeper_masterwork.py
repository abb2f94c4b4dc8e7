"""A completed Masterwork in My Father's Work (issue 15.7), with replay = live after every move.

Neither random play nor two `normal` bots come near one: a Masterwork needs 1 A, 2 B and 3 C
completed at once (MFW-EXPERIMENT-06), and only one completed Experiment per Generation
survives, stored (MFW-ENDGEN-05). The bots' search sees eight moves past its tree and values a
position by the running score, so it neither stores for a Masterwork nor climbs the levels: in
three normal-vs-normal games (seeds 1-3) no C was completed at all.

So seat 0 follows a Masterwork plan (`masterwork_plan`, the playout's nudge): a scripted
preference, among the seat's legal moves only and from what the seat knows (its hand, its
resources, pieces, Journal, completed and stored Experiments and Masterwork, the public row and
Town), for the moves that climb towards the Masterwork; the choices it has no preference for
(scenario votes and choices, the Biology keep, a Vanity tile's name) are the `normal` bot's. Seat 1 is a `random` bot. The plan's
economy: it buys the Upgrades that give free levels (Drafting Room B, Lightning Mast A, Grand
Laboratory C: MFW-EXPERIMENT-07) and, in Generations I-II, a Gatehouse or Reading Nook, whenever
the row shows one it can pay; records Engineering to level 2 (a free B, MFW-JOURNAL-14) and
Chemistry to 1 (a free Knowledge each, MFW-JOURNAL-09); hires Servants early in a Generation;
gathers in Town what the next cards of its climb lack (the next card weighs most), keeping a
piece that can perform it; draws when its hand holds no card this Town can pay for; performs
with a Caretaker first; and stores the highest level it completed.

Measured (2 players, default options, seeds 1-160, about 1 s a game): seat 0 completes its
Masterwork in 33 games (21%), three of them in Generation II (seeds 7, 20 and 40); most of the
others end Generation III with the prerequisites met but the Masterwork's Resources short. With
3 players (seats 1-2 random, seeds 1-80) it completes 18 (22%); with `choose_masterwork`
(MFW-SETUP-16: the plan picks the Masterwork whose Ingredients Generation III's Town gives, most
Engineering first) 31 of seeds 1-80 (39%).
The tests play seed 40 to the end: the Masterwork is completed in Generation II round 3 (move
97), with 2 A (a stored A, one completed that Generation), 2 B (the Drafting Room, Engineering
level 2) and 3 C (all completed that Generation); it is stored as a D at the end of Generation II
(MFW-AMB-30) and breaks a tie at the end of the game (MFW-ENDGAME-07).
"""

from __future__ import annotations

import pytest

from domain.engine import copy_state, get_rules
from domain.games import load_all
from domain.games.my_fathers_work import content as C
from domain.games.my_fathers_work import state as Q

from .playout import bot_playout

load_all()
RULES = get_rules("my_fathers_work")

NEED = C.PREREQS["D"]
CREDIT = {"Drafting Room": "B", "Lightning Mast": "A", "Grand Laboratory": "C"}   # free levels (MFW-EXPERIMENT-07)
GOOD_TILES = {"Gatehouse", "Reading Nook"}   # a Caretaker every Generation, $1 every round
JOURNAL_GOAL = {"engineering": 2, "chemistry": 1}   # Engineering 2 counts as a B (MFW-JOURNAL-14)
LEVELS = ("A", "B", "C")


def level_of(card):
    return C.EXPERIMENTS[card]["level"]


def have_counts(state, seat):
    return {lv: Q.completed_count(state, seat, lv) for lv in LEVELS}


def missing(state, seat, level):
    return max(0, NEED.get(level, 0) - Q.completed_count(state, seat, level))


def card_cost(state, seat, card):
    """Units still to find for `card`: Ingredients short + Knowledge short (Journal free counts)."""
    pl = state["players"][seat]
    res = pl["res"]
    exp = C.EXPERIMENTS[card]
    short = sum(max(0, n - res[k]) for k, n in exp["cost_ingredients"].items())
    short += sum(max(0, n - pl["journal"][k] - res[k]) for k, n in exp["cost_knowledge"].items())
    return short


def base_cost(state, seat, card):
    """Units the card costs at all (Journal free Knowledge deducted)."""
    pl = state["players"][seat]
    exp = C.EXPERIMENTS[card]
    return sum(exp["cost_ingredients"].values()) + sum(max(0, n - pl["journal"][k]) for k, n in exp["cost_knowledge"].items())


def town_sources(state):
    """The Resource kinds the current Town's Locations give (public)."""
    kinds = set()

    def walk(effects):
        for e in effects:
            if "choice" in e:
                for branch in e["choice"]:
                    walk(branch)
            elif e.get("gain") in ("ingredient", "knowledge"):
                kinds.add(e["kind"])
    for loc in state["town"]:
        walk(C.LOCATIONS[loc]["reward_per_use"])
    return kinds


def feasible(state, seat, card):
    """Every Ingredient the card still lacks can be had in this Town (Knowledge: Occult is wild)."""
    pl = state["players"][seat]
    kinds = town_sources(state)
    exp = C.EXPERIMENTS[card]
    for k, n in exp["cost_ingredients"].items():
        if pl["res"][k] < n and k not in kinds:
            return False
    for k, n in exp["cost_knowledge"].items():
        if pl["res"][k] + pl["journal"][k] < n and k not in kinds and "occult" not in kinds:
            return False
    return True


def usable_hand(state, seat):
    return [c for c in state["players"][seat]["hand"] if feasible(state, seat, c)]


def wanted_level(state, seat):
    hand = usable_hand(state, seat)
    for level in LEVELS:
        if missing(state, seat, level) > sum(1 for c in hand if level_of(c) == level):
            return level
    return None


def next_cards(state, seat, n=3):
    pl = state["players"][seat]
    have = have_counts(state, seat)
    hand, out = usable_hand(state, seat), []
    met = lambda level: all(have[lv] >= k for lv, k in C.PREREQS[level].items())
    while len(out) < n:
        if pl["masterwork"] and not pl["mw_done"] and met("D"):
            out.append(pl["masterwork"])
            break
        ready = [c for c in hand if have[level_of(c)] < NEED[level_of(c)] and met(level_of(c))]
        if not ready:
            break
        top = max(level_of(c) for c in ready)
        card = min((c for c in ready if level_of(c) == top), key=lambda c: card_cost(state, seat, c))
        out.append(card)
        hand.remove(card)
        have[level_of(card)] += 1
    return out


def future_cards(state, seat):
    """The climb's cards in hand (also those whose prerequisites are not met yet) + the Masterwork."""
    pl = state["players"][seat]
    out = next_cards(state, seat, 4)
    have = have_counts(state, seat)
    for c in out:
        if level_of(c) != "D":
            have[level_of(c)] += 1
    rest = [c for c in usable_hand(state, seat) if c not in out and have[level_of(c)] < NEED[level_of(c)]]
    for c in sorted(rest, key=lambda c: (level_of(c), card_cost(state, seat, c))):
        if have[level_of(c)] < NEED[level_of(c)]:
            out.append(c)
            have[level_of(c)] += 1
    if pl["masterwork"] and not pl["mw_done"] and pl["masterwork"] not in out:
        out.append(pl["masterwork"])
    return out


def wants(state, seat, horizon=3):
    """Resource -> weights of the units wanted, highest first: the next card's shortfall weighs most,
    then the following cards', then the Journal goals."""
    pl = state["players"][seat]
    res = dict(pl["res"])
    spare_budget = max(0, 4 - pl["insanity"]) if state["gen"] < 3 else max(0, 3 - pl["insanity"])
    out = {}
    items = []
    for i, card in enumerate(future_cards(state, seat)[:horizon]):
        exp = C.EXPERIMENTS[card]
        w = (3.0 if level_of(card) == "D" else 2.0) if i == 0 else (1.2 if i == 1 else 0.7)
        items.append(([(k, n) for k, n in exp["cost_ingredients"].items()] +
                      [(k, max(0, n - pl["journal"][k])) for k, n in exp["cost_knowledge"].items()], w))
    if state["gen"] < 3 or state["round"] < 2:
        for track, goal in JOURNAL_GOAL.items():
            lvl = pl["journal"][track]
            if lvl < goal:
                items.insert(min(1, len(items)), ([(track, C.JOURNAL[track]["cost"][lvl])], 1.5))
    for need, w in items:
        for k, n in need:
            for _ in range(n):
                if res[k] > 0:
                    res[k] -= 1
                elif k in ("chemistry", "biology", "engineering") and res["occult"] > 0 and spare_budget > 0:
                    res["occult"] -= 1
                    spare_budget -= 1
                else:
                    out.setdefault(k, []).append(w)
    return {k: sorted(v, reverse=True) for k, v in out.items()}


def take(want, kind):
    if want.get(kind):
        return want[kind].pop(0)
    return 0.0


def effect_value(effects, want, state, seat):
    """Value of effects given the (mutable copy of) wants."""
    v = 0.0
    for e in effects:
        if "choice" in e:
            best, best_w = -99, None
            for branch in e["choice"]:
                w = {k: list(x) for k, x in want.items()}
                bv = effect_value(branch, w, state, seat)
                if bv > best:
                    best, best_w = bv, w
            v += best
            want.clear()
            want.update(best_w)
        elif e.get("gain") in ("ingredient", "knowledge"):
            kind = e["kind"]
            for _ in range(e["n"]):
                if kind == "any":
                    k = max(("chemistry", "biology", "engineering", "occult"), key=lambda k: want[k][0] if want.get(k) else 0)
                    got = take(want, k)
                    v += got or 0.1
                else:
                    got = take(want, kind)
                    v += got or (0.1 if kind != "occult" else 0.05)
        elif e.get("gain") == "money":
            v += 0.3 * e["n"]
        elif e.get("gain") == "vp":
            v += 0.05 * e["n"]
        elif e.get("move") == "creepy":
            v -= 0.4 * e["steps"]
        elif e.get("move") == "insanity":
            v -= 0.4 * e["steps"]
        elif e.get("move") == "mob":
            v += 0.2 * e["steps"]
        elif e.get("pay") == "money":
            v -= 0.25 * e["n"]
    return v


def town_value(state, seat, move, want):
    rec = C.LOCATIONS[move["loc"]]
    pl = state["players"][seat]
    if rec["category"] not in ("ingredient", "knowledge", "special"):
        return -99
    pieces = move["pieces"]
    if pieces == ["self"]:
        perf = 1 if rec["no_self_bonus"] else 2
    else:
        perf = len(pieces)
    w = {k: list(x) for k, x in want.items()}
    v = 0.0
    money = pl["money"] - Q.fee(state, seat, move["loc"], C.PIECE_TYPE[pieces[0]])
    for _ in range(perf):
        cost = sum(c["n"] for c in rec["cost_per_use"] if c.get("pay") == "money")
        if money < cost:
            break
        money -= cost
        v += effect_value(rec["cost_per_use"] + rec["reward_per_use"], w, state, seat)
    pen = rec["penalties"]
    for p in pen:
        if p["move"] == "creepy":
            danger = pl["creepy"] + p["steps"] >= state["mob"] - 1
            v -= (3 if danger else 0.5) * p["steps"]
        elif p["move"] == "insanity":
            calm = 4 if state["gen"] < 3 else 2      # Generation III: Maladjustments from space 3 (MFW-INSANITY-12)
            v -= 0.6 * p["steps"] if pl["insanity"] < calm else 2.0
        elif p["move"] == "mob":
            danger = pl["creepy"] >= state["mob"] + p["steps"] - 1
            v -= (3 if danger else 0.3) * -p["steps"]
    v -= Q.fee(state, seat, move["loc"], C.PIECE_TYPE[pieces[0]]) * 0.3
    return v


def workers_left(state, seat, pieces=()):
    """How many Experiments the pieces left in Quarters could still perform (MFW-EXPERIMENT-01)."""
    home = [p for p in Q.pieces_in(state, seat, "quarters") if p not in pieces]
    servants = sum(1 for p in home if C.PIECE_TYPE[p] == "servant")
    return sum(1 for p in home if C.PIECE_TYPE[p] in ("self", "caretaker")) + servants // 2


def masterwork_plan(rules, state, seat):
    if seat != 0:
        return None
    moves = rules.legal_moves(state, seat)
    if not moves:
        return None
    pend = state["pending"]
    if pend is not None:
        return choose_pending(state, seat, moves, pend)
    return choose_turn(state, seat, moves)


def pick(moves, option):
    return next((m for m in moves if m["option"] == option), None)


def keep_value(state, seat, card):
    """Higher is better: a card this Town can pay for, of the level the climb most needs, then the cheapest."""
    level = level_of(card)
    need = missing(state, seat, level)
    hand = usable_hand(state, seat)
    covered = sum(1 for c in hand if level_of(c) == level and c != card)
    return (feasible(state, seat, card), need > covered, need - covered, -base_cost(state, seat, card), level)


def choose_pending(state, seat, moves, pend):
    pl = state["players"][seat]
    kind = pend["step"] if pend["kind"] == "sim" else pend["kind"]
    options = [m["option"] for m in moves]
    if kind == "masterwork":
        page = C.SCENARIOS[state["scenario"]]["generation"][2]["page"]
        kinds = {e.get("kind") for loc, r in C.LOCATIONS.items() if page in r["pages"] for e in r["reward_per_use"]}
        best = max(options, key=lambda d: (all(k in kinds for k in C.EXPERIMENTS[d]["cost_ingredients"]),
                                            C.EXPERIMENTS[d]["cost_knowledge"].get("engineering", 0)))
        return pick(moves, best)
    if kind in ("round_draw", "draw_deck"):
        level = wanted_level(state, seat) or "C"
        if level not in options:
            level = "C" if "C" in options else options[0]
        return pick(moves, level)
    if kind == "keep":
        # carried into the next Generation, which draws 1 A, 1 B and 1 C: keep the cheapest C (else B)
        return pick(moves, max(options, key=lambda c: (level_of(c) != "A", level_of(c) == "C", -base_cost(state, seat, c))))
    if kind == "ea_keep":
        return pick(moves, max(options, key=lambda c: keep_value(state, seat, c)))
    if kind == "store":
        return pick(moves, max(options, key=lambda c: (level_of(c) == "D", level_of(c))))
    if kind in ("resource", "knowledge", "shed"):
        want = wants(state, seat)
        order = sorted((o for o in options if want.get(o)), key=lambda o: -want[o][0])
        if order:
            return pick(moves, order[0])
        for o in ("engineering", "chemistry", "money", "gear", "chemical"):
            if o in options:
                return pick(moves, o)
        return None
    if kind == "slash":
        want = wants(state, seat)
        best = max(options, key=lambda i: effect_value(pend["effects"][i], {k: list(x) for k, x in want.items()}, state, seat))
        return pick(moves, best)
    if kind == "buy":
        credit = [o for o in options if o != "none" and C.tile(state["row"][int(o[4:])])["name"] in CREDIT]
        if credit:
            return pick(moves, credit[0])
        good = [o for o in options if o != "none" and C.tile(state["row"][int(o[4:])])["name"] in GOOD_TILES]
        return pick(moves, good[0] if good else "none")
    if kind == "plot":
        free = [o for o in options if o.startswith("plot:")]
        if free:
            return pick(moves, free[0])
        if "expand" in options:
            return pick(moves, "expand")
        repl = [o for o in options if C.tile(pl["plots"][int(o[8:])])["name"] not in CREDIT]
        return pick(moves, repl[0] if repl else options[0])
    if kind == "discard_tile":
        def keepworth(o):
            name = C.tile(pl["plots"][int(o[5:])])["name"]
            return (name in CREDIT, name == "Storage Shed")
        return pick(moves, min(options, key=keepworth))
    if kind == "pay_plan":
        card = pend["card"]
        def cost(plan):
            c = Q.plan_cost(state, seat, card, plan)
            return (c["insanity"], sum(c["cubes"].values()))
        best = min(range(len(options)), key=lambda i: cost(options[i]))
        return moves[best]
    if kind == "lose_piece":
        for p in ("servant1", "servant2", "spouse"):
            if p in options:
                return pick(moves, p)
    if kind == "cycle":
        # discard cards the climb does not need (one combination of the right size)
        useful = set(future_cards(state, seat))
        best = max(options, key=lambda o: -1 if o == "skip" else sum(1 for c in o if c not in useful) - 10 * sum(1 for c in o if c in useful))
        if best != "skip" and all(c not in useful for c in best):
            return pick(moves, best)
        return pick(moves, "skip")
    if kind == "yes_no":
        what = pend.get("what")
        if what == "hire again":
            return pick(moves, "yes" if pl["money"] >= 2 and state["round"] < 3 else "no")
        return pick(moves, "yes")
    if kind == "search_deck":
        level = wanted_level(state, seat) or "C"
        return pick(moves, level if level in options else options[0])
    if kind == "search_take":
        return pick(moves, max(options, key=lambda c: keep_value(state, seat, c)))
    if kind == "retrieve":
        return moves[0]
    return None


def choose_turn(state, seat, moves):
    pl = state["players"][seat]
    keeps = [m for m in moves if m["type"] == "keep"]
    if keeps and not state["turn"]["placed"]:
        return max(keeps, key=lambda m: keep_value(state, seat, m["card"]))
    want = wants(state, seat)
    frees = [m for m in moves if m["type"] == "free"]
    free_ok = []
    for m in frees:
        ab = dict(Q.abilities(state, seat, "free_action"))[m["source"]]
        if effect_value(ab["cost"] + ab["effects"], {k: list(x) for k, x in want.items()}, state, seat) > 0.5:
            free_ok.append(m)
    if free_ok:
        return free_ok[0]
    if state["turn"]["placed"]:
        if keeps:
            return max(keeps, key=lambda m: keep_value(state, seat, m["card"]))
        return next(m for m in moves if m["type"] == "end_turn")
    places = [m for m in moves if m["type"] == "place"]
    if not places:
        return next((m for m in moves if m["type"] == "pass"), None)
    # 1. the climb's next Experiment
    nxt = next_cards(state, seat, 1)
    exps = [m for m in places if m["loc"] == "perform_experiment"]
    if nxt:
        mine = [m for m in exps if m["card"] == nxt[0]]
        if not mine:   # another needed card that is performable now
            mine = [m for m in exps if (m["card"] == pl["masterwork"]) or missing(state, seat, level_of(m["card"])) > 0]
            mine = [m for m in mine if m["card"] in next_cards(state, seat, 4)]
        if mine:
            def prank(m):
                t = C.PIECE_TYPE[m["pieces"][0]]
                if t == "caretaker":
                    return 0
                if t == "servant":
                    return 1 if state["round"] == 3 else 3
                return 2
            return min(mine, key=prank)
    # 2. free-level tiles (and in Generations I-II a Gatehouse or Reading Nook) in the row
    affordable = [t for t in state["row"] if t is not None and (C.tile(t)["name"] in CREDIT or (C.tile(t)["name"] in GOOD_TILES and state["gen"] < 3))
                  and C.tile(t)["name"] not in Q.tile_names(state, seat) and Q.build_options(state, seat, t, C.UPGRADES[t]["price"])
                  and (C.tile(t)["name"] != "Lightning Mast" or Q.completed_count(state, seat, "A") == 0 or state["gen"] < 3)]
    masons = [m for m in places if C.LOCATIONS.get(m["loc"], {}).get("category") == "builders_office"]
    if affordable and masons:
        return min(masons, key=lambda m: (len(m["pieces"]), m["pieces"] == ["self"]))
    # 3. Journal goals
    records = [m for m in places if m["loc"] == "record_knowledge"]
    for track, goal in JOURNAL_GOAL.items():
        if pl["journal"][track] < goal and (state["gen"] < 3 or state["round"] < 2):
            rs = [m for m in records if m["track"] == track]
            if rs:
                return min(rs, key=lambda m: ("caretaker", "servant", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    # 4. hire Servants early in the Generation
    hires = [m for m in places if C.LOCATIONS.get(m["loc"], {}).get("category") == "laborers_union"]
    if hires and state["round"] < 3 and pl["money"] >= 2:
        lost = len(Q.lost_servant_types(state, seat))
        if lost:
            best = [m for m in hires if m["pieces"] == ["self"]] if lost >= 2 and pl["money"] >= 4 else []
            best = best or [m for m in hires if len(m["pieces"]) == 1 and m["pieces"] != ["self"]] or hires
            return best[0]
    # 5. gather what the climb lacks (keeping a piece that can perform the next card)
    town = [m for m in places if m["loc"] in C.LOCATIONS]
    if next_cards(state, seat, 1):
        kept = [m for m in town if workers_left(state, seat, m["pieces"]) > 0]
        town = kept if kept or state["round"] == 3 else town
    scored = [(town_value(state, seat, m, want), m) for m in town]
    scored = [(v - 0.15 * len(m["pieces"]) - (0.9 if m["pieces"] == ["self"] else 0), m) for v, m in scored]
    # 6. draw cards when the climb has none
    if not next_cards(state, seat, 1) and wanted_level(state, seat) is not None:
        draws = [m for m in places if m["loc"] == "estate_affairs" and m["mode"] == "draw"]
        if draws:
            return min(draws, key=lambda m: ("servant", "caretaker", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    if scored:
        v, m = max(scored, key=lambda x: x[0])
        if v > 0.3:
            return m
    # 7. leftovers: an A Experiment for Knowledge, Estate Affairs
    extra = [m for m in exps if level_of(m["card"]) == "A" or m["card"] in next_cards(state, seat, 4)]
    if extra:
        return min(extra, key=lambda m: ("caretaker", "servant", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    draws = [m for m in places if m["loc"] == "estate_affairs" and m["mode"] == "draw"]
    if draws and (wanted_level(state, seat) is not None or len(next_cards(state, seat, 4)) < 2):
        return min(draws, key=lambda m: ("servant", "caretaker", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    money = [m for m in places if m["loc"] == "estate_affairs" and m["mode"] == "money"]
    if money:
        return min(money, key=lambda m: ("servant", "caretaker", "self").index(C.PIECE_TYPE[m["pieces"][0]]))
    return next((m for m in moves if m["type"] == "pass"), None)


def masterwork_completed(state, facts):
    return any(f.get("type") == "ExperimentCompleted" and f.get("level") == "D" for f in facts)


SEED = 40


@pytest.fixture(scope="module")
def game():
    """Seed 40 played to the end: the states just before and just after seat 0's Masterwork move and
    that move's facts, the move at the end of Generation II that stored seat 0's Experiment (its
    facts and the state after it), how many later turns seat 0 had and the Experiments it was
    offered in them."""
    seen = {"at": None, "stored": None, "moves": 0, "later_turns": 0, "later_performs": []}
    last = {"state": None}

    def watch(state, facts):
        seen["moves"] += 1
        if seen["at"] is None and masterwork_completed(state, facts):
            seen.update(before=last["state"], at=copy_state(state), move_facts=facts, move=seen["moves"])
        elif seen["at"] is not None:
            moves = RULES.legal_moves(state, 0)
            seen["later_turns"] += any(m["type"] == "place" for m in moves)
            seen["later_performs"] += [m for m in moves if m.get("loc") == "perform_experiment"]
        if any(f.get("type") == "ExperimentStored" and f["seat"] == 0 for f in facts):
            seen.update(stored=copy_state(state), store_facts=facts, before_store=last["state"])
        last["state"] = copy_state(state)
        return False

    result = bot_playout("my_fathers_work", 2, SEED, ["normal", "random"], stop=watch, nudge=masterwork_plan)
    assert seen["at"] is not None, "seat 0 completes its Masterwork"
    return dict(result, **seen)


@pytest.mark.slow
@pytest.mark.rule("MFW-EXPERIMENT-06", "MFW-EXPERIMENT-07", "MFW-JOURNAL-14", "MFW-AMB-34")
def test_the_plan_completes_the_masterwork_with_its_prerequisites_met(game):
    before, at = game["before"], game["at"]
    pl = at["players"][0]
    assert (at["gen"], at["round"], game["move"]) == (2, 3, 97)
    completion = [f for f in game["move_facts"] if f.get("type") == "ExperimentCompleted" and f["level"] == "D"]
    assert [(f["seat"], f["card"]) for f in completion] == [(0, pl["masterwork"])]
    # MFW-EXPERIMENT-07: completed this Generation + stored + free levels, per level
    this_generation = {lv: sum(1 for c in before["players"][0]["completed"] if level_of(c) == lv) for lv in LEVELS}
    assert this_generation == {"A": 1, "B": 0, "C": 3}
    assert [level_of(c) for c in pl["stored"]] == ["A"]                   # stored at the end of Generation I
    assert "Drafting Room" in Q.tile_names(at, 0)                        # a free B
    assert pl["journal"]["engineering"] == 2                              # MFW-JOURNAL-14: a free B
    counts = {lv: Q.completed_count(before, 0, lv) for lv in LEVELS}
    assert counts == {"A": 2, "B": 2, "C": 3}
    assert Q.prerequisites_met(before, 0, "D")                            # MFW-EXPERIMENT-06
    # each B is needed: without the Drafting Room or Engineering level 2 the Masterwork is out of
    # reach, and the C completed this Generation count as C only (MFW-AMB-34)
    without_room = copy_state(before)
    p = without_room["players"][0]
    p["plots"] = [None if t is not None and C.tile(t)["name"] == "Drafting Room" else t for t in p["plots"]]
    assert Q.completed_count(without_room, 0, "B") == 1 and not Q.prerequisites_met(without_room, 0, "D")
    without_eng = copy_state(before)
    without_eng["players"][0]["journal"]["engineering"] = 1
    assert Q.completed_count(without_eng, 0, "B") == 1 and not Q.prerequisites_met(without_eng, 0, "D")
    one_c_less = copy_state(before)
    one_c_less["players"][0]["completed"].remove(next(c for c in pl["completed"] if level_of(c) == "C"))
    assert not Q.prerequisites_met(one_c_less, 0, "D")


@pytest.mark.slow
@pytest.mark.rule("MFW-EXPERIMENT-21", "MFW-AMB-30", "MFW-EXPERIMENT-18", "MFW-EXPERIMENT-19")
def test_a_completed_masterwork_is_flagged_scored_and_never_performed_again(game):
    at = game["at"]
    pl = at["players"][0]
    card = pl["masterwork"]
    assert pl["mw_done"] is True                               # MFW-AMB-30: the permanent flag
    assert card in pl["completed"] and card not in pl["hand"]  # face-up in the completed area
    reward = sum(e["n"] for e in C.EXPERIMENTS[card]["rewards"] if e.get("gain") == "vp")
    scored = [f for f in game["move_facts"] if f.get("type") == "Scored" and f["seat"] == 0]
    assert [f["n"] for f in scored if f["reason"] == "reward"] == [reward]
    assert not any(f["reason"] == "C bonus" for f in scored)  # the Generation II bonus is for C only
    assert at["players"][0]["score"] == game["before"]["players"][0]["score"] + sum(f["n"] for f in scored)
    # MFW-EXPERIMENT-21: completed only once; it is never offered again, in Generation III neither
    final = game["state"]
    assert final["over"] and final["players"][0]["mw_done"] is True
    assert not Q.can_perform(at, 0, card)
    assert game["later_turns"] > 0 and not any(m["card"] == card for m in game["later_performs"])
    assert sum(1 for facts in game["facts"] for f in facts
               if f.get("type") == "ExperimentCompleted" and f.get("card") == card) == 1


@pytest.mark.slow
@pytest.mark.rule("MFW-AMB-30", "MFW-ENDGEN-05", "MFW-ENDGEN-06", "MFW-ENDGEN-07", "MFW-ENDGEN-08")
def test_the_masterwork_is_stored_as_a_d_at_the_end_of_generation_two(game):
    before, after, facts = game["before_store"], game["stored"], game["store_facts"]
    card = after["players"][0]["masterwork"]
    assert before["gen"] == 2
    completed = before["players"][0]["completed"]
    assert card in completed and len(completed) > 1
    # MFW-ENDGEN-05: exactly one of this Generation's completed Experiments is stored: the D
    assert [f["card"] for f in facts if f.get("type") == "ExperimentStored" and f["seat"] == 0] == [card]
    assert after["players"][0]["stored"] == before["players"][0]["stored"] + [card]
    # MFW-ENDGEN-06: the others go to the bottom of their decks; there is no D deck (MFW-AMB-30)
    bottom = [f["card"] for f in facts if f.get("type") == "CardToBottom" and f["seat"] == 0 and f["card"] in completed]
    assert sorted(bottom) == sorted(c for c in completed if c != card)
    assert all(c in after["decks"][level_of(c)] for c in bottom)
    assert not any(card in deck for deck in after["decks"].values())
    assert after["players"][0]["completed"] == []
    # MFW-ENDGEN-07: stored for good, the flag stays set and the card stays face-up as the Masterwork
    final = game["state"]["players"][0]
    assert card in final["stored"] and final["masterwork"] == card and final["mw_done"] is True
    # MFW-ENDGEN-08: a stored D counts as one D and nothing else; the next Generation starts with
    # the stored A, the two free B levels and no C
    assert [level_of(c) for c in after["players"][0]["stored"]] == ["A", "D"]
    assert {lv: Q.completed_count(after, 0, lv) for lv in "ABCD"} == {"A": 1, "B": 2, "C": 0, "D": 1}


@pytest.mark.slow
@pytest.mark.rule("MFW-ENDGAME-06", "MFW-ENDGAME-07", "MFW-ENDGAME-08", "MFW-ENDGAME-09")
def test_the_completed_masterwork_breaks_a_tie(game):
    final = game["state"]
    assert final["over"]
    scores = [p["score"] for p in final["players"]]
    assert scores[0] != scores[1]
    assert RULES.winners(final) == [max(range(2), key=lambda s: scores[s])]     # MFW-ENDGAME-06
    # a tie on points, seat 1 with one Estate Upgrade more than seat 0
    tied = copy_state(final)
    tied["players"][1]["score"] = tied["players"][0]["score"]
    owned = {t for p in tied["players"] for t in p["plots"] if t}
    spare = iter(sorted(t for t, r in C.UPGRADES.items() if r["set"] == "gen3" and t not in owned))
    plots = tied["players"][1]["plots"]
    while len(Q.tiles_of(tied, 1)) <= len(Q.tiles_of(tied, 0)):
        plots[plots.index(None)] = next(spare)
    assert RULES.winners(tied) == [0]         # MFW-ENDGAME-07: the completed Masterwork first ...
    tied["players"][0]["mw_done"] = False
    assert RULES.winners(tied) == [1]         # ... and only then the most Estate Upgrades (MFW-ENDGAME-08)
    plots[max(i for i, t in enumerate(plots) if t)] = None
    assert RULES.winners(tied) == [0, 1]      # MFW-ENDGAME-09: still tied, a shared win
