"""The initial state, player-count control and chapter setup (HER-SETUP-01, HER-SETUP-02, ...).
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .timeline import arrival_ops
from ..content import chapter, has_chapter
from ..lang import KARMA_TYPES
from ..resolver import Ctx, new_turn, push, run
from ..effects.items import initialise


OPTIONS = ("chapter", "campaign", "control")
#: The keys of the carried-over block (view.campaign writes exactly these); any other key is a
#: typo or a guess and is refused by name rather than silently ignored.
CAMPAIGN_KEYS = ("chapter", "karma", "karma_burned", "inventories")
INVENTORY_KEYS = ("materials", "items")
ITEM_KEYS = ("card", "face", "anchor", "damage")


def unknown_keys(given: dict, known: tuple[str, ...]) -> list[str]:
    return sorted(str(key) for key in given if key not in known)


DEFAULT_CHAPTER = "swan-1"


def control_map(content, players: int, custom=None) -> dict:
    """Which seats control each PC, by player count (and HER-AMB-28 for the shared PC with 3 players)."""
    pcs = content.pc_ids
    if custom:
        if players != 2:
            raise IllegalMove("HER-CONTROL-03", "a custom division of the PCs is only for 2 players")
        if sorted(custom) != sorted(pcs) or any(v not in (0, 1) for v in custom.values()):
            raise IllegalMove("HER-CONTROL-03", "give every PC exactly one of seats 0 and 1")
        return {pc: [custom[pc]] for pc in pcs}
    if players == 1:
        return {pc: [0] for pc in pcs}                                         # HER-CONTROL-04
    if players == 2:                                                           # HER-CONTROL-03
        parents = [p["id"] for p in content.pcs if p["role"] == "parent"]
        children = [p["id"] for p in content.pcs if p["role"] == "child"]
        out = {}
        for seat in (0, 1):
            for group in (parents, children):
                if seat < len(group):
                    out[group[seat]] = [seat]
        for pc in pcs:
            out.setdefault(pc, [len(out) % 2])
        return out
    if players == 3:
        return {pc: ([i] if i < 3 else [0, 1, 2]) for i, pc in enumerate(pcs)}   # HER-CONTROL-02, HER-AMB-28
    return {pc: [i] for i, pc in enumerate(pcs)}                                # HER-CONTROL-01


def check_campaign(content, campaign: dict) -> None:
    """The carried-over block must describe this content's cards (HER-CAMPAIGN-01, HER-CAMPAIGN-02, HER-CAMPAIGN-03,
    HER-SETUP-06)."""
    def bad(rule, detail):
        raise IllegalMove(rule, f"campaign: {detail}")
    unknown = unknown_keys(campaign, CAMPAIGN_KEYS)
    if unknown:
        bad("HER-CAMPAIGN-01", f"unknown key {unknown[0]!r} (the keys are {', '.join(CAMPAIGN_KEYS)})")
    number = campaign.get("chapter", content.number)
    if not isinstance(number, int) or not 1 <= number <= 5:
        bad("HER-CAMPAIGN-01", "chapter must be 1 to 5")
    if "karma" in campaign:
        karma = campaign["karma"]
        if not isinstance(karma, list) or any(not isinstance(n, int) or content.cards.get(n, {}).get("kind") != "karma"
                                               for n in karma):
            bad("HER-SETUP-06", "karma must list Karma cards of the Secrets deck")
        if sorted(content.card(n)["type"] for n in karma) != sorted(KARMA_TYPES):
            bad("HER-KARMA-01", "the Karma deck holds exactly one card of each type")
    burned = campaign.get("karma_burned", [])
    if not isinstance(burned, list) or any(content.cards.get(n, {}).get("kind") != "karma" for n in burned
                                           if isinstance(n, int)) or not all(isinstance(n, int) for n in burned):
        bad("HER-CAMPAIGN-03", "karma_burned must list Karma cards")
    inventories = campaign.get("inventories", {})
    if not isinstance(inventories, dict):
        bad("HER-CAMPAIGN-02", "inventories must map PCs to their Items and Materials")
    seen = set()
    for pc, held in inventories.items():
        if pc not in content.pc_ids or not isinstance(held, dict):
            bad("HER-CAMPAIGN-02", f"unknown PC {pc!r}")
        if unknown_keys(held, INVENTORY_KEYS):
            bad("HER-CAMPAIGN-02", f"{pc}: unknown key {unknown_keys(held, INVENTORY_KEYS)[0]!r} "
                                   f"(the keys are {', '.join(INVENTORY_KEYS)})")
        if not isinstance(held.get("materials", 0), int) or held.get("materials", 0) < 0:
            bad("HER-CAMPAIGN-02", f"{pc}: materials must be a count")
        for item in held.get("items", []):
            card = item.get("card") if isinstance(item, dict) else None
            if isinstance(item, dict) and unknown_keys(item, ITEM_KEYS):
                bad("HER-CAMPAIGN-02", f"{pc}: unknown item key {unknown_keys(item, ITEM_KEYS)[0]!r} "
                                       f"(the keys are {', '.join(ITEM_KEYS)})")
            if content.cards.get(card, {}).get("kind") != "item" or card in seen:
                bad("HER-CAMPAIGN-02", f"{pc}: {card!r} is not an Item of this content (or is held twice)")
            seen.add(card)
            if item.get("face", "front") not in ("front", "back"):
                bad("HER-CAMPAIGN-02", f"{pc}: Item {card} face must be front or back")
            anchor = str(item.get("anchor"))
            parts = anchor.split(":")
            pc_cards = content.pc(pc)["cards"].values()
            if len(parts) != 3 or not parts[0].isdigit() or int(parts[0]) not in pc_cards \
                    or parts[1] not in ("left", "right") or not parts[2].isdigit():
                bad("HER-CAMPAIGN-02", f"{pc}: Item {card} anchor {anchor!r} is not one of {pc}'s anchors")
            hearts = [sl["id"] for sl in content.face(card, item.get("face", "front"))["slots"] if sl["heart"]]
            damage = item.get("damage", [])
            if not isinstance(damage, list) or len(set(map(str, damage))) != len(damage) \
                    or any(d not in hearts for d in damage):
                bad("HER-CAMPAIGN-02", f"{pc}: Item {card} damage must list distinct heart slots of {hearts}")


def initial_state(players: int, options) -> dict:
    if not 1 <= players <= 4:
        raise IllegalMove("HER-CONTROL-01", "1 to 4 players")
    options = dict(options or {})
    for key in options:
        if key not in OPTIONS:
            raise IllegalMove("HER-SETUP-01", f"unknown option {key!r}; allowed: {list(OPTIONS)}")
    chapter_id = options.get("chapter", DEFAULT_CHAPTER)
    if not has_chapter(chapter_id):
        raise IllegalMove("HER-SETUP-08", f"unknown chapter {chapter_id!r}")
    content = chapter(chapter_id)
    campaign = options.get("campaign") or {}
    if not isinstance(campaign, dict):
        raise IllegalMove("HER-CAMPAIGN-01", "campaign must be an object (the 'campaign' block of a finished game's view)")
    check_campaign(content, campaign)
    return {
        "chapter": chapter_id, "players": players,
        "control": control_map(content, players, options.get("control")),
        "chapter_number": int(campaign.get("chapter", content.number)),
        "campaign_in": campaign,
        "over": None, "reason": "",
        # HER-TIMELINE-01, HER-TIMELINE-02: the Family card first, the Hourglass on it
        "cards": {}, "revealed": {}, "timeline": [], "hourglass": 0,
        "terrains": {}, "markers": [], "area_materials": {},
        # HER-ACTION-09: a token is available, on a slot or in the middle; HER-MATERIAL-02: each PC its own
        # Materials
        "pcs": {pc: {"area": None, "tokens": ["avail"] * 3, "materials": 0} for pc in content.pc_ids},
        "slots": {}, "npcs": {}, "karma": {"deck": [], "discard": [], "burned": []},
        "window": None, "stack": [], "pending": None, "declined": [],
        "actions": [], "mods": [], "bind": {}, "initialised": [], "slain": 0, "purple": None,
    }


def setup(state: dict, rng) -> list:
    turn = new_turn(state)
    t = Ctx(turn, rng)
    content = chapter(state["chapter"])
    campaign = state["campaign_in"]
    fam = content.card(content.family)["front"]
    blocks = fam["blocks"]
    line = [{"colour": None, "card": content.family,
             "below": [{"colour": b["colour"], "card": None} for b in blocks if b["direction"] == "below"]}]
    line += [{"colour": b["colour"], "card": None, "below": []} for b in blocks if b["direction"] == "right"][:1]
    t.emit("CardTaken", card=content.family, zone="timeline")                 # HER-SETUP-01
    t.emit("TimelineStarted", timeline=line)
    for pc in content.pcs:                                                     # HER-SETUP-02, HER-SETUP-03
        for part in ("head", "torso", "feet"):
            t.emit("CardTaken", card=pc["cards"][part], zone="pc")
    karma = campaign.get("karma") or content.karma_base                       # HER-SETUP-05, HER-SETUP-06
    order = rng.shuffled(sorted(karma))                                        # HER-AMB-53
    t.emit("KarmaShuffled", order=order, random=True, private_to=[], public={"count": len(order)})
    for burned in campaign.get("karma_burned", []):
        t.emit("KarmaBurnedBefore", card=burned)
    for pc, held in sorted((campaign.get("inventories") or {}).items()):      # HER-CAMPAIGN-02
        if held.get("materials"):
            t.emit("PcMaterials", pc=pc, delta=held["materials"])
        for item in held.get("items", []):
            t.emit("CardTaken", card=item["card"], zone="table")
            if item.get("face") == "back":
                t.emit("CardFlipped", card=item["card"], face="back")
            t.emit("ItemEquipped", item=item["card"], pc=pc, anchor=item["anchor"])
            for sid in item.get("damage", []):                # the Item keeps its Damage tokens (HER-CAMPAIGN-02)
                t.emit("DamagePlaced", pc=pc, slot=f"{item['card']}.{sid}")
    # Frames run top first: opening card, Secrets setup card, held Items' Initialise, then the Family Event.
    push(t, arrival_ops(t.s, 0), content.family, None, "event")              # HER-SETUP-12
    # HER-ITEM-06, HER-CAMPAIGN-04: held Items initialise again; PC cards were set front up above
    for pc, held in sorted((campaign.get("inventories") or {}).items()):      # HER-SETUP-10
        for item in held.get("items", []):
            initialise(t, pc, item["card"])
    setup_card = content.chapter_setup.get(state["chapter_number"])
    if setup_card is not None and state["chapter_number"] > 1:                 # HER-SETUP-09
        push(t, [{"op": "take", "card": setup_card}], None, None, "card")
    push(t, [{"op": "take", "card": content.first_card}], None, None, "card")   # HER-SETUP-08
    run(t)
    return turn.facts
