"""Terrain icon actions (Watch, Speak, Interact), card actions and combined actions.
"""

from __future__ import annotations

from domain.engine import IllegalMove

from .combat import ask_consent, check_attack_slot, check_participants
from .common import check_pc, check_slot, check_window, place_token, token_index
from ..resolver import push
from ..state.queries import find_action, same_area
from ..state.reach import action_place_ok, first_blocker, marker_icon


def check_icon_action(s: dict, seat: int, move: dict) -> tuple:
    kind = move["type"]
    rule = {"watch": "HER-WATCH-01", "speak": "HER-SPEAK-01", "interact": "HER-INTERACT-01"}[kind]
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    terrain, icon = marker_icon(s, move.get("marker"))
    if icon is None or icon["kind"] != kind or move["marker"] not in s["markers"]:
        raise IllegalMove(rule, f"no available {kind} icon {move.get('marker')!r} (HER-TERRAIN-03)")
    area = f"{terrain}:{icon['area']}"
    if not same_area(s, s["pcs"][pc]["area"], area):
        raise IllegalMove(rule, f"{pc} is not in the area of that {kind} icon")
    token_index(s, pc)
    check_slot(s, pc, move.get("slot"), kind)
    return pc, icon, area


# HER-WATCH-02, HER-SPEAK-02, HER-INTERACT-02: a token on the slot, then the icon's card is taken
def do_icon_action(t, seat: int, move: dict) -> None:
    pc, icon, area = check_icon_action(t.s, seat, move)
    place_token(t, pc, move["slot"])
    t.emit("MarkerRemoved", marker=move["marker"])                     # HER-TERRAIN-03
    vars_ = {"speak_area": area} if move["type"] == "speak" else {}
    push(t, [{"op": "take", "card": icon["card"]}], None, pc, "action", vars_)


def check_card_action(s: dict, seat: int, move: dict) -> tuple:
    pc = move.get("pc")
    check_pc(s, seat, pc)
    check_window(s)
    action = find_action(s, move.get("card"), move.get("action"))
    if action is None:
        raise IllegalMove("HER-INSTR-09", f"card {move.get('card')} offers no action {move.get('action')}")
    if action.get("combined"):
        raise IllegalMove("HER-INSTR-13", "a combined action needs every participant in one command")
    if not action_place_ok(s, pc, move["card"], action):
        rule = "HER-INSTR-12" if action["link"]["kind"] == "npc" else "HER-INSTR-10"
        raise IllegalMove(rule, f"{pc} is not where this action can be performed")
    token_index(s, pc)
    icon = action["icon"]
    if icon == "attack":
        check_attack_slot(s, pc, move.get("slot"))
    else:
        check_slot(s, pc, move.get("slot"), icon)
    blocker = first_blocker(s, pc, action["body"], move.get("target"))
    if blocker:
        raise blocker
    return pc, action


def do_card_action(t, seat: int, move: dict) -> None:
    pc, action = check_card_action(t.s, seat, move)
    place_token(t, pc, move["slot"])
    push(t, list(action["body"]), move["card"], pc, "action", {"target": move.get("target")}, track_face=True)


def check_combined_action(s: dict, seat: int, move: dict) -> tuple:
    """HER-INSTR-13, HER-DECIDE-18."""
    check_window(s)
    action = find_action(s, move.get("card"), move.get("action"))
    if action is None or not action.get("combined"):
        raise IllegalMove("HER-INSTR-13", "no such combined action")
    parts = move.get("participants") or []
    pcs = [p.get("pc") for p in parts]
    need = action["combined"].get("participants", 2)
    if len(pcs) != need or len(set(pcs)) != len(pcs):
        raise IllegalMove("HER-INSTR-13", f"this combined action needs exactly {need} different PCs")
    areas = action["combined"].get("areas")
    if not areas and pcs != sorted(pcs):
        raise IllegalMove("HER-INSTR-13", "list the participants in PC order (no designated areas)")
    check_participants(s, seat, move)
    for k, p in enumerate(parts):
        token_index(s, p["pc"])
        check_slot(s, p["pc"], p.get("slot"), action["icon"])
        where_ok = same_area(s, s["pcs"][p["pc"]]["area"], areas[k]) if areas else action_place_ok(s, p["pc"], move["card"], action)
        if not where_ok:
            raise IllegalMove("HER-INSTR-13", f"{p['pc']} is not in its designated area")
    return parts, action


def do_combined_action(t, seat: int, move: dict) -> None:
    parts, action = check_combined_action(t.s, seat, move)
    if ask_consent(t, seat, move):
        return
    apply_combined_action(t, move)


def apply_combined_action(t, move: dict) -> None:
    action = find_action(t.s, move["card"], move["action"])
    parts = move["participants"]
    for p in parts:
        place_token(t, p["pc"], p["slot"])
    push(t, list(action["body"]), move["card"], parts[0]["pc"], "action", {"allocate": True}, track_face=True)
