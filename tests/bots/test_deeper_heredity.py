"""Heredity chapter 1 won by its second route (issue 15.7, "a Heredity victory by each route"), with
replay = live after every move.

The Salt Orchard (content/chapter1.toml) prints VICTORY twice: on The Warden's death (132, the route
of tests/bots/test_deeper.py) and on the iron chest (122): "IF HAS_ITEM 142 THEN VICTORY ELSE (TAKE
132 ELSE ...)". The chest is the Interact icon of the loft (103:h2), reached by the ladder of 102:b3
(a Level Change that lays 103 out) after exploring 102 east of 101:o3. The Swan Key (142) is sold by
Ada the Trader (130) for 2 Materials (her Interact action); Ada enters when a PC Speaks at 102:b2; the
2 Materials lie in 101:o2, where Djamal starts. The chest's icon is used once (HER-TERRAIN-03): opened
without the key, it brings The Warden in and can never be opened again, and that route is closed.

Plain bots do not take this route on purpose: in seed 1 with the plan's own steps but no refusals,
a bot dropped the key Djamal had just bought, another picked it up and Nell opened the chest while
Brick held it; bots also drop Materials for free (seed 6: seven drops in 50 moves) and walk the
buyer away. So a scripted plan (`chest_plan`, a nudge of tests/bots/playout.py) steers. Every move
it returns is one of the seat's legal moves, chosen from what the team sees (`knowledge`: the Karma
deck only by its composition, HER-HIDDEN-08); what the chapter's cards hold is the plan's script, as
a family that has read the book would know it. The plan moves one PC (`Steps.active`: the key's
holder, else the buyer, the PC with the price nearest to Ada; without the key, Djamal); any PC at
Ada's Speak icon speaks, any PC picks up the price or the key where it stands. Where the plan has no
step for the seat's PCs, the seat's `normal` bot chooses (asked by the plan, from seeds of its own)
among the legal moves minus those the plan refuses: opening the chest by a PC not holding the key,
dropping the key or (while it is not bought) Materials, moving the plan's PC or spending it in a
combined attack or action, and ending the window while the other seat has a plan step and this seat
still has something to do besides drops and injuries (the playout alternates the seats, and either
seat's `end_window` closes the window for the team).

Seed 2 (two `normal` bots; bots and rules are deterministic for a seed): 25 moves, 8 of them the
plan's; the keyless game (Swan attacked first) stops when The Warden is taken. With this plan seeds 1-8 all
win by the chest (25 to 51 moves) and seeds 1-4 all bring The Warden without the key.
"""

from __future__ import annotations

import pytest

from domain.bots import choose
from domain.engine import IllegalMove, derive_seed, play
from domain.games import load_all
from domain.games.heredity.bot import knowledge
from domain.games.heredity.state import C, board, card_zone, face, standees
from domain.games.heredity.state.reach import marker_icon

from .playout import bot_playout

load_all()

SEED = 2
KEY, CHEST, TRADER, WARDEN = 142, 122, 130, 132
ORCHARD_EAST, LOFT = 102, 103              # 102 is explored from 101:o3; 103 by the ladder of 102:b3
PRICE = 2                                   # Ada's Interact action: PAY_MATERIALS 2; GAIN_ITEM 142 ACTING_PC
OPENER = "djamal"                           # who opens the chest without the key (second test)
SWAPPED = 105                               # 113 (the smoke) swaps 105 in for 102; its c3 keeps the ladder


def holder(state: dict, item: int) -> str | None:
    rec = state["cards"].get(str(item), {})
    return rec.get("pc") if rec.get("zone") == "inventory" else None


def icon_marker(state: dict, card: int):
    """(marker, area) of the visible Watch/Speak/Interact icon that takes `card`, else (None, None)."""
    b = board(C(state), state)
    for marker in state["markers"]:
        terrain, icon = marker_icon(state, marker)
        if icon is not None and icon.get("card") == card:
            return marker, b.c(f"{terrain}:{icon['area']}")
    return None, None


def gateways(state: dict, terrain: int) -> set:
    """The areas whose Explore or Level Change icon lays `terrain` out (HER-EXPLORE-04, HER-LEVEL-04)."""
    b = board(C(state), state)
    out = set()
    for number, _, icon in b.icons:
        if icon.get("terrain") != terrain:
            continue
        if icon["kind"] == "levelChange":
            out.add(b.c(f"{number}:{icon['area']}"))
        elif icon["kind"] == "explore":
            out |= {b.c(f"{number}:{seg['area']}") for seg in face(state, number)["edges"].get(icon["edge"], [])
                    if seg["colour"] not in ("black", "blue")}
    return out


def explored_terrain(state: dict, move: dict) -> int | None:
    """The Terrain a Move or an exploration lays out, if it ends by exploring."""
    if move["type"] == "explore":
        marker = move["marker"]
    elif move["type"] == "move" and move["path"][-1].startswith("explore:"):
        marker = move["path"][-1][len("explore:"):]
    else:
        return None
    _, icon = marker_icon(state, marker)
    return icon.get("terrain") if icon else None


def opens_chest(state: dict, move: dict) -> bool:
    return move["type"] == "interact" and move["marker"] == icon_marker(state, CHEST)[0]


class Steps:
    """The plan's step for each PC, from the team's knowledge `k`, among the seat's `legal` moves."""

    def __init__(self, k: dict, legal: list[dict], with_key: bool = True):
        self.k, self.legal, self.b, self.with_key = k, legal, board(C(k), k), with_key

    def of(self, pc: str, kind: str) -> list[dict]:
        return [m for m in self.legal if m.get("pc") == pc and m["type"] == kind]

    def walk(self, pc: str, goals) -> dict | None:
        """The plain Move of `pc` that ends nearest `goals` (nearer than it stands), fewest crossings and red
        lines (HER-AREA-06) first."""
        b, start = self.b, self.k["pcs"][pc]["area"]
        dist: dict = {}
        for goal in goals:
            for area, d in b.distances(goal).items():
                dist[area] = min(d, dist.get(area, d))
        here = dist.get(b.c(start))
        best = None
        for m in self.of(pc, "move"):
            end = m["path"][-1]
            d = None if end.startswith("explore:") else dist.get(b.c(end))
            if d is None or (here is not None and d >= here):
                continue
            rank = (d, b.red_count(start, m["path"]), len(m["path"]))
            if best is None or rank < best[0]:
                best = (rank, m)
        return best[1] if best else None

    def reach(self, pc: str, terrain: int) -> dict | None:
        """Lay `terrain` out (explore / Level Change) or walk to where that can be done."""
        onto = [m for m in self.legal if m.get("pc") == pc and explored_terrain(self.k, m) == terrain]
        if onto:
            return min(onto, key=lambda m: len(m.get("path", [])))
        return self.walk(pc, gateways(self.k, terrain))

    def to_chest(self, pc: str) -> dict | None:
        """Explore to the loft, walk to the chest, open it."""
        k = self.k
        if str(LOFT) not in k["terrains"]:
            if card_zone(k, ORCHARD_EAST) == "deck" and card_zone(k, SWAPPED) == "deck":
                return self.reach(pc, ORCHARD_EAST)
            return self.reach(pc, LOFT)
        marker, area = icon_marker(k, CHEST)
        if marker is None:
            return None
        opening = [m for m in self.of(pc, "interact") if m["marker"] == marker]
        return opening[0] if opening else self.walk(pc, [area])

    def goal(self) -> set:
        """Where the key is to be had now: Ada, else her Speak icon, else the way to 102."""
        k = self.k
        ada = standees(k, TRADER)
        if ada:
            return {self.b.c(ada[0][1])}
        marker, area = icon_marker(k, TRADER)
        if marker is not None:
            return {area}
        return gateways(k, ORCHARD_EAST)

    def active(self) -> str | None:
        """The PC the plan moves: the key's holder, else the buyer (the PC holding the price nearest to
        Ada), else nobody; without the key, the opener."""
        k = self.k
        if not self.with_key:
            return OPENER
        keeper = holder(k, KEY)
        if keeper is not None or card_zone(k, KEY) != "deck":
            return keeper
        rich = [pc for pc in sorted(k["pcs"]) if k["pcs"][pc]["materials"] >= PRICE and k["pcs"][pc]["area"]]
        if not rich:
            return None
        dist: dict = {}
        for goal in self.goal():
            for area, d in self.b.distances(goal).items():
                dist[area] = min(d, dist.get(area, d))
        return min(rich, key=lambda pc: dist.get(self.b.c(k["pcs"][pc]["area"]), 99))

    def step(self, pc: str) -> dict | None:
        k, me = self.k, self.k["pcs"][pc]
        if me["area"] is None:
            return None
        active = self.active()
        if not self.with_key or holder(k, KEY) is not None:   # to the chest, and open it
            return self.to_chest(pc) if pc == active else None
        zone = card_zone(k, KEY)
        if zone == "area":                           # dropped, or left by a dead NPC: pick it up
            lying = self.b.c(k["cards"][str(KEY)]["area"])
            if self.b.c(me["area"]) == lying:
                picks = [m for m in self.of(pc, "pickup") if KEY in m["items"]]
                return max(picks, key=lambda m: m["materials"]) if picks else None
            return None
        if zone != "deck":
            return None
        marker, area = icon_marker(k, TRADER)
        if marker is not None and not standees(k, TRADER):      # any PC there Speaks: Ada enters (HER-SPEAK-03)
            speak = [m for m in self.of(pc, "speak") if m["marker"] == marker]
            if speak:
                return speak[0]
        if active is None:                           # the price: pick up Materials where the PC stands
            here = sum(n for a, n in k["area_materials"].items() if self.b.c(a) == self.b.c(me["area"]))
            picks = [m for m in self.of(pc, "pickup") if me["materials"] + m["materials"] >= PRICE]
            return min(picks, key=lambda m: m["materials"]) if here and picks else None
        if pc != active:
            return None
        if standees(k, TRADER):                      # buy the key (an action on the NPC: same area, HER-INSTR-12)
            buy = [m for m in self.of(pc, "card_action") if m["card"] == TRADER and m["action"] == 0]
            return buy[0] if buy else self.walk(pc, self.goal())
        if marker is not None:
            return self.walk(pc, [area])
        if card_zone(k, ORCHARD_EAST) == "deck":
            return self.reach(pc, ORCHARD_EAST)
        return None


def chest_plan(seed: int, level: str = "normal", with_key: bool = True, log: list | None = None):
    """A nudge (see `bot_playout`) that gets the Swan Key and opens the iron chest with it (`with_key`),
    or has Djamal open the chest while no PC may get the key; every other move is the `normal` bot's
    (asked here, from seeds of its own, among the moves the plan allows)."""
    asked = [0]

    def plan_step(state, seat, legal):
        k = knowledge(state, seat)
        steps = Steps(k, legal, with_key)
        for pc in sorted(k["pcs"]):
            if seat in k["control"][pc]:
                move = steps.step(pc)
                if move is not None:
                    return move
        return None

    def others_have_a_step(rules, state, seat) -> bool:
        return any(plan_step(state, other, rules.legal_moves(state, other)) is not None
                   for other in range(state["players"]) if other != seat)

    def allowed(rules, state, k, seat, legal) -> list[dict]:
        """The legal moves minus those the plan refuses (see the module's docstring)."""
        keeper = holder(k, KEY)
        if with_key:
            out = [m for m in legal if not (opens_chest(k, m) and m["pc"] != keeper)
                   and not (m["type"] == "drop" and m.get("item") == KEY)
                   and not (m["type"] == "drop" and "materials" in m and card_zone(k, KEY) == "deck")]
        else:
            out = [m for m in legal if not (m["type"] == "card_action" and m["card"] == TRADER and m["action"] == 0)
                   and not (m["type"] == "pickup" and KEY in m["items"])]
        active = Steps(k, legal, with_key).active()       # the plan alone moves it and spends it in groups
        out = [m for m in out if not (m["type"] in ("move", "explore") and m["pc"] == active)
               and not (active in [p["pc"] for p in m.get("participants", [])])]
        acts = [m for m in out if m["type"] not in ("end_window", "drop", "injure")]
        if acts and others_have_a_step(rules, state, seat):
            out = [m for m in out if m["type"] != "end_window"]
        return out

    def nudge(rules, state, seat):
        legal = rules.legal_moves(state, seat)
        move = plan_step(state, seat, legal) if state["pending"] is None else None
        who = "plan"
        if move is None:
            k = knowledge(state, seat)
            options = allowed(rules, state, k, seat, legal)
            who = "bot" if len(options) == len(legal) else "bot (steered)"
            asked[0] += 1
            move = choose(rules, k, seat, options, level, derive_seed(seed, f"chest/{asked[0]}"),
                          len(rules.scores(state)))
        assert move in legal
        if log is not None:
            log.append((who, seat, move, state))         # the state the move was chosen in (play leaves it as is)
        return move

    return nudge


def kinds(facts: list[dict]) -> list:
    return [(f["type"], f.get("card", f.get("item", f.get("npc")))) for f in facts]


SWAN = 133                                  # the family's ally, anchored blue: "ANCHOR blue ELSE BURN"


def attacks_swan(move: dict) -> bool:
    target = move.get("target", move.get("targets"))
    return move["type"] in ("attack", "combined_attack") and str(SWAN) in str(target)


def swan_first(then):
    """A nudge that has the team attack Swan while she stands (the most PCs the list allows in one
    attack), then hands over to `then` (another nudge). The Warden (132) anchors green, else blue,
    else she is burned: with the storm (110) on the green slot and Swan on the blue one, opening the
    chest without the key burns The Warden and the chapter can no longer be won; Swan's death frees
    the blue slot (it costs the team 2 storm tokens, card 133's death effect)."""
    def nudge(rules, state, seat):
        swan = state["cards"].get(str(SWAN), {})
        if swan.get("zone") == "timeline" and not swan.get("dead"):
            if state["pending"] is not None:
                return None
            hits = [m for m in rules.legal_moves(state, seat) if attacks_swan(m)]
            return max(hits, key=lambda m: len(m.get("participants", []))) if hits else None
        return then(rules, state, seat)
    return nudge


@pytest.mark.slow
@pytest.mark.rule("HER-GEN-06", "HER-INSTR-05", "HER-INTERACT-02", "HER-TERRAIN-03", "HER-INSTR-12", "HER-MATERIAL-03",
                  "HER-INV-01", "HER-SPEAK-03")
def test_a_team_of_normal_bots_buys_the_swan_key_and_opens_the_iron_chest():
    """Seed 2: Djamal picks up the 2 Materials of 101:o2 and (Brick has explored 102) walks to 102:b2;
    next window he speaks to Ada and buys the key, and walks to the ladder; the third window he climbs
    to the loft and opens the chest (25 moves): VICTORY printed on 122."""
    log: list = []
    result = bot_playout("heredity", 2, SEED, ["normal", "normal"], nudge=chest_plan(SEED, log=log))
    state, facts, rules = result["state"], result["facts"], result["rules"]
    assert len(log) == result["moves"] == len(facts)        # the plan chose every move (its own or the bot's)
    assert state["over"] == "victory", state["reason"]

    # HER-SPEAK-03: Ada enters in the area of the Speak icon that took her (102:b2).
    spoke = next(i for i, (_, _, m, _) in enumerate(log) if m["type"] == "speak"
                 and icon_marker(log[i][3], TRADER)[0] == m["marker"])
    assert ("NpcPlaced", TRADER) in kinds(facts[spoke])
    assert standees(log[spoke + 1][3], TRADER)[0][1] == "102:b2"

    # The key is bought: Ada's action is performed from her area (HER-INSTR-12), the price is paid
    # from the buyer's own Materials (HER-MATERIAL-03), the key goes to the buyer (HER-INV-01).
    bought = [i for i, fs in enumerate(facts) if ("ItemEquipped", KEY) in kinds(fs)]
    assert bought, "the Swan Key was never collected"
    _, _, buy, before = log[bought[0]]
    buyer = buy["pc"]
    assert buy["type"] == "card_action" and buy["card"] == TRADER and buy["action"] == 0
    assert board(C(before), before).c(before["pcs"][buyer]["area"]) == standees(before, TRADER)[0][1]
    assert before["pcs"][buyer]["materials"] >= PRICE
    paid = [f for f in facts[bought[0]] if f["type"] == "PcMaterials"]
    assert paid == [{"type": "PcMaterials", "pc": buyer, "delta": -PRICE}]
    equipped = next(f for f in facts[bought[0]] if f["type"] == "ItemEquipped")
    assert equipped["pc"] == buyer

    # The last move opens the chest, by the PC holding the key (HER-INTERACT-02: a token on a free
    # Interact slot, then the card is taken; HER-TERRAIN-03: the icon's marker is removed).
    _, seat, opening, before = log[-1]
    opener = opening["pc"]
    marker, chest_area = icon_marker(before, CHEST)
    assert opening["type"] == "interact" and opening["marker"] == marker
    assert holder(before, KEY) == opener, "the chest is opened by the PC holding the Swan Key"
    assert board(C(before), before).c(before["pcs"][opener]["area"]) == chest_area == "103:h2"
    last = facts[-1]
    order = kinds(last)
    token = next(i for i, f in enumerate(last) if f["type"] == "TokenPlaced")
    assert last[token]["pc"] == opener and last[token]["slot"] == opening["slot"]
    assert order.index(("MarkerRemoved", None)) > token
    assert order.index(("CardTaken", CHEST)) > token
    assert marker not in state["markers"]

    # HER-INSTR-05: the condition holds, only the THEN branch applies: VICTORY, The Warden never comes.
    ended = [f for f in last if f["type"] == "GameEnded"]
    assert ended == [{"type": "GameEnded", "outcome": "victory", "reason": f"card {CHEST}"}]
    assert order.index(("GameEnded", None)) > order.index(("CardTaken", CHEST))
    assert state["reason"] == f"card {CHEST}", "the victory printed on the iron chest"
    assert not any(("CardTaken", WARDEN) in kinds(fs) for fs in facts)
    assert str(WARDEN) not in state["npcs"]
    assert holder(state, KEY) == opener

    # HER-GEN-06: the outcome is recorded and every further command is refused.
    assert rules.winners(state) == [0, 1]
    assert all(rules.legal_moves(state, s) == [] for s in range(state["players"]))
    with pytest.raises(IllegalMove):
        play(rules, state, seat, {"type": "end_window"}, SEED, result["moves"] + 1)


def took_the_warden(state, facts) -> bool:
    return any(f.get("type") == "CardTaken" and f.get("card") == WARDEN for f in facts)


@pytest.mark.slow
@pytest.mark.rule("HER-INSTR-05", "HER-CARDS-02", "HER-NPC-02", "HER-TERRAIN-03")
def test_the_iron_chest_opened_without_the_swan_key_brings_the_warden():
    """Seed 2, no PC may buy or pick up the key, and the team first attacks Swan (`swan_first`: her
    death frees the blue slot The Warden may anchor on); then Djamal explores 102, walks to the
    ladder, climbs to the loft and opens the chest. The ELSE branch
    applies: TAKE 132, The Warden enters on the loft's placement icon (103:h2), no victory, and the
    chest's icon is gone for the rest of the chapter."""
    log: list = []
    result = bot_playout("heredity", 2, SEED, ["normal", "normal"], stop=took_the_warden,
                         nudge=swan_first(chest_plan(SEED, with_key=False, log=log)))
    state, facts, rules = result["state"], result["facts"], result["rules"]
    assert took_the_warden(state, facts[-1]), (state["over"], state["reason"])
    _, seat, opening, before = log[-1]
    marker, _ = icon_marker(before, CHEST)
    assert opening == {**opening, "type": "interact", "pc": OPENER, "marker": marker}
    assert not any(holder(before, KEY) == pc for pc in before["pcs"]), "no PC holds the Swan Key"

    # HER-INSTR-05: the ELSE branch only: the Warden's card is taken (HER-CARDS-02: front up, its
    # instructions applied), no VICTORY.
    last = facts[-1]
    order = kinds(last)
    assert order.index(("CardTaken", WARDEN)) > order.index(("CardTaken", CHEST))
    assert not any(f["type"] == "GameEnded" for f in last)
    assert state["over"] is None
    assert state["cards"][str(WARDEN)]["face"] == "front" and state["cards"][str(WARDEN)]["zone"] == "timeline"
    # HER-NPC-02: her standee goes on the placement icon of the loft.
    assert [f["area"] for f in last if f["type"] == "NpcPlaced" and f["npc"] == WARDEN] == ["103:h2"]
    assert standees(state, WARDEN) == [(0, "103:h2")]
    # HER-TERRAIN-03: the chest's Interact icon has lost its marker: it can never be opened again.
    assert marker not in state["markers"] and icon_marker(state, CHEST) == (None, None)
    assert not any(m["type"] == "interact" and m.get("marker") == marker
                   for s in range(state["players"]) for m in rules.legal_moves(state, s))


@pytest.mark.slow
@pytest.mark.rule("HER-INSTR-14", "HER-ANCHOR-02")
def test_the_warden_is_burned_when_no_green_or_blue_slot_is_free():
    """Seed 2, Swan alive, no PC may get the key: the chest's ELSE branch takes The Warden, whose
    "ANCHOR green ELSE (ANCHOR blue ELSE BURN)" finds the storm (110) on the green slot and Swan (133)
    on the blue one: she is burned at once, never placed, and with the chest's icon gone the chapter
    can no longer be won (both of its VICTORY instructions are out of play)."""
    result = bot_playout("heredity", 2, SEED, ["normal", "normal"], stop=took_the_warden,
                         nudge=chest_plan(SEED, with_key=False))
    state, last = result["state"], result["facts"][-1]
    order = kinds(last)
    assert order.index(("CardBurned", WARDEN)) > order.index(("CardTaken", WARDEN))
    held = {slot["colour"]: slot["card"] for slot in state["timeline"]}
    assert held["green"] == 110 and held["blue"] == SWAN             # HER-ANCHOR-02: no free matching slot
    assert card_zone(state, WARDEN) == "burned"                       # HER-INSTR-14: ELSE BURN
    assert not any(f["type"] == "NpcPlaced" for f in last) and standees(state, WARDEN) == []
    assert state["over"] is None and icon_marker(state, CHEST) == (None, None)
