"""The initial state and read-only queries on a state (no facts, no randomness here)."""

from __future__ import annotations

from domain.engine import IllegalMove

from . import content as C

OPTIONS = {"scenario": str, "choose_masterwork": bool, "journal_occult_insanity": bool}


# MFW-SETUP-08 (the 10 Vanity tiles face up, 2 of each), MFW-SETUP-09 (Generation I, round 1), MFW-SETUP-19
# (Insanity Track on its Generation I/II side)
def initial_state(players: int, options) -> dict:
    options = dict(options or {})
    for key, value in options.items():
        if key not in OPTIONS:
            raise IllegalMove("MFW-SETUP-01", f"unknown option {key!r}; allowed: {sorted(OPTIONS)}")
        if not isinstance(value, OPTIONS[key]):
            raise IllegalMove("MFW-SETUP-01", f"option {key!r} must be {OPTIONS[key].__name__}")
    if not 2 <= players <= 4:
        raise IllegalMove("MFW-SETUP-01", f"My Father's Work takes 2 to 4 players, not {players}")
    scenario = options.get("scenario", C.DEFAULT_SCENARIO)
    if scenario not in C.SCENARIOS:
        raise IllegalMove("MFW-SETUP-01", f"unknown scenario {scenario!r}; known: {sorted(C.SCENARIOS)}")
    lo, hi = C.SCENARIOS[scenario]["players"]
    if not lo <= players <= hi:
        raise IllegalMove("MFW-SETUP-01", f"scenario {scenario} is for {lo} to {hi} players")
    return {
        "n": players,
        "scenario": scenario,
        "options": {"choose_masterwork": options.get("choose_masterwork", False),
                    "journal_occult_insanity": options.get("journal_occult_insanity", False)},
        "phase": "setup", "gen": 1, "round": 1, "start_player": 0, "active": 0,
        "passed": [False] * players, "turn": {"placed": False, "free_used": []},
        "mob": 0, "suspicion": 0, "page": "", "town": [], "added": [], "replaced": {},
        "decks": {"A": [], "B": [], "C": [], "comp": [], "comp_discard": [], "mal": [], "mal_discard": [],
                  "tiles": [], "gen3": []},
        "row": [None, None, None, None],
        "vanity": {name: 2 for name in C.VANITY_NAMES},
        "insanity_side": "gen12",
        "modifiers": {}, "fired": [], "messages": [],
        "pending": None, "queue": [], "commits": {},
        "final": None, "over": False,
        "players": [new_player() for _ in range(players)],
    }


# MFW-PIECES-01 (6 pieces each), MFW-SETUP-11 (2 Servants and 1 Caretaker in Lost), MFW-SETUP-13 (Creepy,
# Insanity, Score at 0), MFW-SETUP-14 (Journal markers at the start), MFW-SETUP-18 (no money, resources or
# cards), MFW-UPGRADE-01 (8 plots, 3 open)
def new_player() -> dict:
    return {
        "money": 0, "res": {k: 0 for k in C.RESOURCES},
        "journal": {t: 0 for t in C.TRACKS}, "creepy": 0, "insanity": 0, "score": 0,
        "hand": [], "ea": [], "comps": [], "mals": [], "final_mals": 0,
        "masterwork": None, "mw_done": False, "completed": [], "stored": [],
        "plots": [None] * 8, "open": 3, "tokens": [], "voting_token": "quarters",  # MFW-SETUP-12 (a vote is its hidden commit)
        "pieces": {"self": "quarters", "spouse": "quarters", "servant1": "lost", "servant2": "lost",
                   "caretaker1": "quarters", "caretaker2": "lost"},
    }


# ----------------------------------------------------------------------------- queries

def player(state, seat) -> dict:
    return state["players"][seat]


def order_from(state, first: int) -> list[int]:
    n = state["n"]
    return [(first + i) % n for i in range(n)]


def seat_order(state) -> list[int]:
    """Seat order starting with the Start Player (MFW-AMB-37)."""
    return order_from(state, state["start_player"])


def pieces_in(state, seat, zone: str) -> list[str]:
    return [p for p in C.PIECES if state["players"][seat]["pieces"][p] == zone]


def lost_servant_types(state, seat) -> list[str]:
    return [p for p in pieces_in(state, seat, "lost") if C.PIECE_TYPE[p] == "servant"]


def occupied(state, loc_id: str) -> bool:
    zone = "town:" + loc_id
    return any(z == zone for pl in state["players"] for z in pl["pieces"].values())


# MFW-TRACKS-01 (Creepy markers and the Mob share one track), MFW-TRACKS-07 and MFW-TRACKS-09 (worked out anew
# from the positions after every movement, for every player)
def overtaken(state, seat) -> bool:
    """MFW-TRACKS-04: Creepy position >= Angry Mob position."""
    return state["players"][seat]["creepy"] >= state["mob"]


def tiles_of(state, seat) -> list[str]:
    return [t for t in state["players"][seat]["plots"] if t is not None]


def tile_names(state, seat) -> list[str]:
    return [C.tile(t)["name"] for t in tiles_of(state, seat)]


# MFW-UPGRADE-12 (a new tile's ability works at once), MFW-UPGRADE-15 (tiles stay across Generations)
def abilities(state, seat, kind: str) -> list[tuple[str, dict]]:
    """(source id, ability) for every owned tile (left to right) and Storybook token of `kind`."""
    out = []
    for t in tiles_of(state, seat):
        for ab in C.tile(t).get("abilities", []):
            if ab["kind"] == kind:
                out.append((t, ab))
    for tok in state["players"][seat]["tokens"]:
        ab = C.TOKENS[tok]["ability"]
        if ab["kind"] == kind:
            out.append((tok, ab))
    return out


def estate_location(state, seat, loc: str) -> dict | None:
    """The Estate Location record for `loc` if the player has it (base or added by an Upgrade)."""
    if loc in C.ESTATE_LOCATIONS:
        return C.ESTATE_LOCATIONS[loc]
    if loc in tiles_of(state, seat):
        for ab in C.tile(loc).get("abilities", []):
            if ab["kind"] == "estate_location":
                return {"id": loc, **ab}
    return None


# MFW-EXPERIMENT-08 (prerequisites are counted, never used up), MFW-ENDGEN-08 (a stored Experiment counts as one
# completed of its level), MFW-JOURNAL-14 (Engineering level 2 counts as a completed B)
def completed_count(state, seat, level: str) -> int:
    """MFW-EXPERIMENT-07: completed this Generation + stored + free levels (exact level, MFW-AMB-34)."""
    pl = state["players"][seat]
    n = sum(1 for c in pl["completed"] if C.EXPERIMENTS[c]["level"] == level)
    n += sum(1 for c in pl["stored"] if C.EXPERIMENTS[c]["level"] == level)
    if level == "B" and pl["journal"]["engineering"] >= 2:
        n += 1
    for _, ab in abilities(state, seat, "passive"):
        if ab["prerequisite_credit"]["level"] == level:
            n += ab["prerequisite_credit"]["n"]
    return n


# MFW-EXPERIMENT-03 (an A Experiment has no prerequisite)
def prerequisites_met(state, seat, level: str) -> bool:
    return all(completed_count(state, seat, lv) >= n for lv, n in C.PREREQS[level].items())


# MFW-JOURNAL-09 (each level gives 1 free Knowledge of its type toward Experiments), MFW-JOURNAL-10 and
# MFW-JOURNAL-11 (levels and level-2 abilities are permanent)
def free_knowledge(state, seat, kind: str) -> int:
    return state["players"][seat]["journal"][kind]


# MFW-EXPERIMENT-25 (Occult causes Insanity only when used to pay for an Experiment), MFW-JOURNAL-15 (the Occult
# track has no level-2 ability)
def payment_plans(state, seat, card_id: str) -> list[dict]:
    """Every way to pay the Knowledge of `card_id` (MFW-EXPERIMENT-10, MFW-EXPERIMENT-11, MFW-EXPERIMENT-12, MFW-EXPERIMENT-13, MFW-FAQ-02, MFW-AMB-20).

    A plan maps each non-Occult Knowledge type to how many of its units are paid with Occult
    as wild (0 up to the whole requirement: the FAQ lets a player "always" substitute Occult,
    even for Knowledge their Journal gives for free). The other units are paid with free Journal
    Knowledge of the type first (never used up), then cubes. Occult units come from free Journal
    Occult first, then Occult cubes (each cube = +1 Insanity); when free Journal Occult causes no
    Insanity (MFW-AMB-19 off) and both sources could pay, the key "journal_occult" says how many free
    units are used, so a player may choose the Insanity of cubes instead (MFW-AMB-20: free Knowledge
    is optional).
    """
    card = C.EXPERIMENTS[card_id]
    pl = state["players"][seat]
    if any(pl["res"][k] < n for k, n in card["cost_ingredients"].items()):
        return []
    need_occ = card["cost_knowledge"].get("occult", 0)
    j_occ, c_occ = pl["journal"]["occult"], pl["res"]["occult"]
    ranges = []
    for k in ("chemistry", "biology", "engineering"):
        n = card["cost_knowledge"].get(k, 0)
        low = max(0, n - pl["journal"][k] - pl["res"][k])
        ranges.append((k, low, n))
    plans: list[dict] = [{}]
    for k, low, high in ranges:
        plans = [dict(p, **{k: w}) for p in plans for w in range(low, high + 1)]
    out = []
    choose_journal = not state["options"]["journal_occult_insanity"]
    for p in plans:
        units = need_occ + sum(p.values())
        if units > j_occ + c_occ:
            continue
        lo, hi = max(0, units - c_occ), min(j_occ, units)
        if choose_journal and hi > lo:
            out.extend(dict(p, journal_occult=j) for j in range(hi, lo - 1, -1))
        else:
            out.append(p)
    return out


def plan_cost(state, seat, card_id: str, plan: dict) -> dict:
    """What a plan spends: cubes per type and the Insanity it causes."""
    card = C.EXPERIMENTS[card_id]
    pl = state["players"][seat]
    cubes = {k: 0 for k in C.KNOWLEDGE}
    wild = 0
    for k in ("chemistry", "biology", "engineering"):
        n = card["cost_knowledge"].get(k, 0)
        w = plan.get(k, 0)
        wild += w
        cubes[k] = max(0, n - w - pl["journal"][k])
    occ_units = card["cost_knowledge"].get("occult", 0) + wild
    journal_occ = plan.get("journal_occult", min(pl["journal"]["occult"], occ_units))
    cubes["occult"] = occ_units - journal_occ
    insanity = cubes["occult"] + (journal_occ if state["options"]["journal_occult_insanity"] else 0)
    return {"cubes": cubes, "insanity": insanity}


def can_perform(state, seat, card_id: str) -> bool:
    pl = state["players"][seat]
    if card_id == pl["masterwork"]:
        if pl["mw_done"]:
            return False
    elif card_id not in pl["hand"]:
        return False
    return prerequisites_met(state, seat, C.EXPERIMENTS[card_id]["level"]) and bool(payment_plans(state, seat, card_id))


# MFW-UPGRADE-02 (plots 4-8 open for their printed cost), MFW-UPGRADE-06 and MFW-FAQ-06 (a plot opened once is
# not paid again), MFW-UPGRADE-08 and MFW-FAQ-05 (with no room, discard a tile to build)
def build_options(state, seat, tile_id: str, price: int) -> list[str]:
    """Where a tile could go (MFW-UPGRADE-03, MFW-UPGRADE-04, MFW-UPGRADE-09, MFW-UPGRADE-10, MFW-AMB-22, MFW-AMB-23): [] when it cannot be built."""
    pl = state["players"][seat]
    name = C.tile(tile_id)["name"]
    names = tile_names(state, seat)
    if pl["money"] < price:
        return []
    for plot in range(pl["open"]):
        if pl["plots"][plot] is None:
            return [] if name in names else [f"plot:{plot}"]
    out = []
    if pl["open"] < 8 and name not in names and pl["money"] >= price + C.ESTATE_COSTS[pl["open"]]:
        out.append("expand")
    for plot, t in enumerate(pl["plots"]):
        if t is None:
            continue
        if name in names and C.tile(t)["name"] != name:
            continue
        out.append(f"replace:{plot}")
    return out


def vanity_names(state, seat) -> list[str]:
    owned = tile_names(state, seat)
    return [n for n in C.VANITY_NAMES if state["vanity"][n] > 0 and n not in owned]


def vanity_tile_for(state, name: str) -> str:
    """The id of the supply copy of `name` that is taken next (copy 'a' then 'b')."""
    ids = sorted(i for i, r in C.VANITY.items() if r["name"] == name)
    return ids[2 - state["vanity"][name]]


# MFW-PLACE-11 (Estate Locations never cost the occupied fee), MFW-PLACE-16 (Town Locations have no capacity
# limit)
def fee(state, seat, loc_id: str, piece_type: str) -> int:
    """MFW-PLACE-07, MFW-PLACE-08, MFW-PLACE-09, MFW-PLACE-10: $1 (or a scenario's value) once for Servant-type pieces on an occupied Location,
    plus any Maladjustment surcharge on Town placements."""
    base = 0
    if piece_type == "servant" and occupied(state, loc_id):
        base = state["modifiers"].get("MFW-PLACE-07", {}).get("money", 1)
    for m in state["players"][seat]["mals"]:
        eff = C.MALADJUSTMENTS[m]["effect"]
        if eff.get("modifier") == "extra_cost" and eff.get("where") == "town":
            base += eff["money"]
    return base


def income(state, seat) -> int:
    money = state["modifiers"].get("MFW-ROUND-04", {}).get("money", 3)
    for m in state["players"][seat]["mals"]:
        eff = C.MALADJUSTMENTS[m]["effect"]
        if eff.get("modifier") == "income":
            money += eff["money"]
    return max(0, money)


def can_pay(state, seat, costs: list, times: int = 1) -> bool:
    pl = state["players"][seat]
    need: dict = {}
    for c in costs:
        if "pay" in c:
            key = "money" if c["pay"] == "money" else c["kind"]
            need[key] = need.get(key, 0) + c["n"] * times
    return all((pl["money"] if k == "money" else pl["res"][k]) >= v for k, v in need.items())


def nonempty_decks(state) -> list[str]:
    return [d for d in ("A", "B", "C") if state["decks"][d]]


def token_of(score: int) -> int:
    """MFW-SCORE-02, MFW-SCORE-03, MFW-AMB-31: the +50/+100 token derived from the total."""
    return 100 if score >= 100 else 50 if score >= 50 else 0


def setup(state, rng) -> list[dict]:
    """The setup facts (shuffles, deals, the first Generation's start) as one decision."""
    from domain.engine import Turn
    from .decide import FOLD
    from .flow import setup_facts
    from .effects import Ctx, run
    turn = Turn(FOLD, state)
    ctx = Ctx(turn, rng)
    setup_facts(ctx)
    run(ctx)
    return turn.facts


# ----------------------------------------------------------------------------- free actions and performances


def visit_refusal(s, seat, ab) -> IllegalMove | None:
    """A free action that targets a Town Location obeys the Town rules (MFW-AMB-12, MFW-AMB-42)."""
    for e in ab["effects"]:
        if "visit" not in e:
            continue
        rec = C.LOCATIONS[e["visit"]]
        if e["visit"] not in s["town"]:
            return IllegalMove("MFW-STORY-05", f"{rec['name']} is not in the current Town")
        if overtaken(s, seat) and rec["category"] != "church":
            return IllegalMove("MFW-TRACKS-05", "the Angry Mob has overtaken you: only the Church is open to you")
        if not can_pay(s, seat, ab["cost"] + rec["cost_per_use"]):
            return IllegalMove("MFW-FREE-02", f"you cannot pay for {rec['name']}")
    return None


def usable_free_actions(s, seat) -> list[str]:
    used = s["turn"]["free_used"]
    out = []
    for source, ab in abilities(s, seat, "free_action"):
        if used.count(source) < ab["uses"] and can_pay(s, seat, ab["cost"]) and visit_refusal(s, seat, ab) is None:
            out.append(source)
    return out


def performable(s, seat, loc) -> bool:
    rec = C.LOCATIONS[loc]
    if rec["category"] == "laborers_union" and not lost_servant_types(s, seat):
        return False  # MFW-AMB-07
    return can_pay(s, seat, rec["cost_per_use"])
