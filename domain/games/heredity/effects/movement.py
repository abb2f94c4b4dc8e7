"""The crossings of a committed Move and explorations (HER-AMB-17, HER-AMB-18, HER-AMB-20).
"""

from __future__ import annotations

from .cards import place_terrain
from ..resolver import push
from ..state.board import board
from ..state.queries import C, face, is_full, override
from ..state.reach import explore_options, immediate_events


def op_pc_step(t, op):
    """One crossing of a committed Move (HER-AMB-17, HER-AMB-18)."""
    s = t.s
    pc, to = op["pc"], op["to"]
    b = board(C(s), s)
    colour = b.step_colour(s["pcs"][pc]["area"], to)
    if colour not in ("white", "green", "red", "level") or (op["last"] and is_full(s, to)):
        t.emit("MoveStopped", pc=pc, at=s["pcs"][pc]["area"])
        t.emit("ResolverPopped")
        return
    enter(t, pc, to, colour)


def enter(t, pc: str, to: str, colour: str | None) -> None:
    s = t.s
    t.emit("PcMoved", pc=pc, area=to, line=colour)
    events = immediate_events(s, to)
    for terrain, ops in reversed(events):                            # HER-TERRAIN-07
        push(t, ops, terrain, pc, "event", track_face=True)
    if colour == "red":
        amount = override(s, "red_line_damage", 1)
        push(t, [{"op": "hit", "pc": pc}] * amount, None, pc)       # HER-AREA-06 (resolved first)


def op_pc_explore(t, op):
    """The last crossing of a committed Move explores (HER-AMB-20)."""
    opts = [o for o in explore_options(t.s, op["pc"]) if o["marker"] == op["marker"]]
    if not opts:
        t.emit("MoveStopped", pc=op["pc"], at=t.s["pcs"][op["pc"]]["area"])
        return
    explore(t, op["pc"], opts[0])


def explore(t, pc: str, opt: dict) -> None:
    """HER-EXPLORE-01, HER-EXPLORE-05, HER-EXPLORE-06, HER-LEVEL-04."""
    s = t.s
    icon, terrain = opt["icon"], opt["terrain"]
    pos = s["terrains"][str(terrain)]
    new = icon["terrain"]
    if icon["kind"] == "explore":
        dx, dy = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[icon["edge"]]
        place_terrain(t, new, [pos["x"] + dx, pos["y"] + dy], pos.get("level", 0))
        opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[icon["edge"]]
        span = opt["seg"]["span"]
        segs = face(t.s, new)["edges"].get(opposite, [])
        dest = next((g["area"] for g in segs if g["span"][0] < span[1] and span[0] < g["span"][1]),
                    segs[0]["area"] if segs else next(iter(face(t.s, new)["areas"])))
        colour = "white"
    else:
        place_terrain(t, new, [pos["x"] + 50, pos["y"]], pos.get("level", 0) + 1)     # HER-LEVEL-04
        dest = next(i["area"] for i in face(t.s, new)["icons"]
                    if i["kind"] == "levelChange" and i["link"] == icon["link"])
        colour = "level"
    enter(t, pc, f"{new}:{dest}", colour)
