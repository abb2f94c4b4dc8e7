"""One plain sentence per move, built from the move (in the state it was played in) and the facts it produced.

Said in content names through words.py: PCs, body cards, Items, NPCs, Karma cards, and area and
Terrain names from content/layout.toml, never ids. The last move of a chapter says how it ended,
by which condition, and the final scores. Stored descriptions of old moves stay as recorded.
"""

from __future__ import annotations

import re

from .evolve import RENAMED
from .words import ask, area_name, card_name, join, materials, npc_name, option, pc_name, plural, sentence, upper_first

_CARD_REF = re.compile(r"\bcard (\d+)")


def _reason(s: dict, reason: str) -> str:
    """A stored end reason ("the defeat condition of card 110 is fulfilled") in card names."""
    reason = reason or ""
    if _CARD_REF.fullmatch(reason):                      # DEFEAT / VICTORY printed on a card
        return "by " + card_name(s, int(reason.split()[1]))
    return _CARD_REF.sub(lambda m: card_name(s, int(m.group(1))), reason)


def _final(s: dict, outcome: str) -> str:
    points = 100 if outcome == "victory" else 0
    players = s.get("players", 1)
    scores = ", ".join(f"Seat {k} {points}" for k in range(players))
    return f"Final scores: {scores}"


def _fact(s: dict, f: dict) -> str | None:
    t = RENAMED.get(f["type"], f["type"])
    if t == "CardTaken" and f.get("zone") != "pc":
        return f"{card_name(s, f['card'])} comes into play"
    if t == "CardFlipped":
        return f"{card_name(s, f['card'])} is flipped"
    if t == "CardBurned":
        return f"{card_name(s, f['card'])} is burned"
    if t == "CardAnchored":
        return f"{card_name(s, f['card'])} is anchored on the Timeline"
    if t == "HourglassMoved":
        return f"the Hourglass moves onto {card_name(s, f['card'])}"
    if t == "ItemDropped" and f.get("ref"):
        return f"{card_name(s, f['item'])} lies in {area_name(f['area'])}"
    if t == "ItemEquipped":
        return f"{pc_name(s, f['pc'])} equips {card_name(s, f['item'])}"
    if t == "PcMaterials":
        return f"{pc_name(s, f['pc'])} {'gains' if f['delta'] > 0 else 'pays'} {materials(abs(f['delta']))}"
    if t == "PcMoved" and f.get("reason") not in ("terrain", "start"):
        return f"{pc_name(s, f['pc'])} reaches {area_name(f['area'])}"
    if t == "Attack":
        karma = card_name(s, f["karma"]).replace("the Karma card ", "") if f.get("karma") else None
        drawn = f", Karma {karma}" if karma else ""
        return (f"the attack totals {f['total']} against Defence {f.get('defence', 0)}{drawn}: "
                f"{'a hit' if f['success'] else 'a miss'}")
    if t == "DamagePlaced":
        return f"{pc_name(s, f.get('pc'))} takes 1 Damage" if f.get("pc") else None
    if t == "NpcDamaged":
        return f"{npc_name(s, f['npc'])} takes {plural(f.get('amount', 1), 'Damage', 'Damage')}" if "npc" in f else None
    if t == "SevereInjury":
        return f"{pc_name(s, f['pc'])} suffers a severe injury"
    if t == "NpcSlain":
        return f"{npc_name(s, f['npc'])} dies"
    if t == "NpcPlaced":
        return f"{npc_name(s, f['npc'])} appears in {area_name(f.get('area'))}" if f.get("area") else None
    if t == "NpcMoved" and f.get("reason") != "terrain":
        return f"{npc_name(s, f['npc'])} moves to {area_name(f['area'])}"
    if t == "TerrainPlaced":
        return f"the Terrain {card_name(s, f['terrain']).replace('the Terrain ', '')} is laid out" \
            if "terrain" in f else None
    if t == "GameEnded":
        won = f["outcome"] == "victory"
        how = _reason(s, f.get("reason", ""))
        end = "the chapter is won" if won else "the chapter is lost"
        return f"{end}{': ' + how if how else ''}. {_final(s, f['outcome'])}"
    if t == "PendingPushed":
        return "now to decide: " + ask(s, f["pending"])
    return None


def describe(s: dict, seat: int, move: dict, facts: list) -> str:
    kind = move.get("type")
    if kind == "choose":
        p = s.get("pending") or {}
        opts = p.get("options", [])
        k = move.get("option", 0)
        said = option(s, p, opts[k]) if isinstance(k, int) and 0 <= k < len(opts) else "an option"
        head = f"Seat {seat} decides: {said}"
    elif kind == "end_window":
        head = f"Seat {seat} ends the action window"
    else:
        head = sentence(s, seat, move)
    parts = [head]
    ending = None
    for f in facts:
        if f["type"] == "PcMoved" and kind == "move":
            continue                                      # the label already says where the PC walks
        said = _fact(s, f)
        if said is None:
            continue
        if f["type"] == "GameEnded":
            ending = said
        elif said not in parts[1:] or f["type"] in ("DamagePlaced", "PcMaterials"):
            parts.append(said)
    if len(parts) > 10:
        parts = parts[:9] + [f"and {len(parts) - 9} more things happen"]
    if ending:
        parts.append(ending)
    return upper_first("; ".join(parts)) + "."
