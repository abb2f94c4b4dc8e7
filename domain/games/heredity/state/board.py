"""The Terrain as a graph of areas, derived from the Terrain cards on the table.

Area ids are "<terrain>:<area>". Areas of adjacent cards whose facing edge segments are
both "open" merge into one area (HER-AREA-07, HER-EXPLORE-07); `canon` maps every raw
area id to its merged representative. Lines carry colours (HER-AREA-01, HER-AREA-02, HER-AREA-03,
HER-AREA-04, HER-AREA-05, HER-AREA-06); Level Change links join areas that are not adjacent (HER-LEVEL-01,
HER-LEVEL-02, HER-LEVEL-03, HER-LEVEL-04, HER-LEVEL-05).
"""

from __future__ import annotations

from collections import deque

from .memo import kept


PASSABLE = ("white", "green", "red")


STRENGTH = {"open": 0, "white": 1, "green": 2, "red": 3, "blue": 4, "black": 5}


OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


DELTA = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


_CACHE: dict = {}


class Board:
    def __init__(self, content, state: dict) -> None:
        self.capacity: dict[str, int] = {}
        self.adj: dict[str, dict[str, str]] = {}
        self.links: dict[str, set] = {}
        self.lof: dict[str, dict[str, list]] = {}
        self.icons: list[tuple[int, int, dict]] = []   # (terrain, index, icon)
        self.face_of: dict[int, str] = {}
        parent: dict[str, str] = {}

        def find(a: str) -> str:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        placed = state["terrains"]
        faces = {}
        for key, pos in placed.items():
            number = int(key)
            side = state["cards"][key]["face"]
            face = content.face(number, side)
            faces[number] = (face, pos)
            self.face_of[number] = side
            for area, info in face["areas"].items():
                aid = f"{number}:{area}"
                parent[aid] = aid
                self.capacity[aid] = info["capacity"]
            for i, icon in enumerate(face["icons"]):
                self.icons.append((number, i, icon))
        raw_edges: list[tuple[str, str, str]] = []
        for number, (face, pos) in faces.items():
            for line in face["lines"]:
                raw_edges.append((f"{number}:{line['a']}", f"{number}:{line['b']}", line["colour"]))
            for a, row in face["lof"].items():
                for b, lines in row.items():
                    # an area of another Terrain is written "<terrain>:<area>" (a straight line across cards)
                    qa, qb = (x if ":" in x else f"{number}:{x}" for x in (a, b))
                    self.lof.setdefault(qa, {})[qb] = lines
        grid = {(p["x"], p["y"], p.get("level", 0)): n for n, (f, p) in faces.items()}
        for number, (face, pos) in faces.items():
            for side in ("E", "S"):
                dx, dy = DELTA[side]
                other = grid.get((pos["x"] + dx, pos["y"] + dy, pos.get("level", 0)))
                if other is None:
                    continue
                ofaces = faces[other][0]["edges"].get(OPPOSITE[side], [])
                for seg in face["edges"].get(side, []):
                    for oseg in ofaces:
                        if seg["span"][0] < oseg["span"][1] and oseg["span"][0] < seg["span"][1]:
                            a, b = f"{number}:{seg['area']}", f"{other}:{oseg['area']}"
                            colours = (seg["colour"], oseg["colour"])
                            if colours == ("open", "open"):
                                ra, rb = find(a), find(b)
                                if ra != rb:
                                    parent[max(ra, rb)] = min(ra, rb)
                            else:
                                colour = max(colours, key=lambda c: STRENGTH[c])
                                raw_edges.append((a, b, colour))
        self.canon = {a: find(a) for a in parent}
        merged_cap: dict[str, int] = {}
        for a, cap in self.capacity.items():
            merged_cap[self.canon[a]] = merged_cap.get(self.canon[a], 0) + cap
        self.capacity = merged_cap
        for rep in merged_cap:
            self.adj[rep] = {}
            self.links[rep] = set()
        for a, b, colour in raw_edges:
            ca, cb = self.canon[a], self.canon[b]
            if ca == cb:
                continue
            prev = self.adj[ca].get(cb)
            # Several segments between two areas: the most permissive one governs movement.
            if prev is None or STRENGTH[colour] < STRENGTH[prev]:
                self.adj[ca][cb] = colour
                self.adj[cb][ca] = colour
        by_link: dict[str, list[str]] = {}
        for number, i, icon in self.icons:
            if icon["kind"] == "levelChange":
                by_link.setdefault(icon["link"], []).append(self.canon[f"{number}:{icon['area']}"])
        for areas in by_link.values():
            for a in areas:
                for b in areas:
                    if a != b:
                        self.links[a].add(b)

    def c(self, area: str | None) -> str | None:
        return None if area is None else self.canon.get(area, area)

    def step_colour(self, a: str, b: str) -> str | None:
        """Colour of the line between two merged areas, 'level' for a Level Change, None if not adjacent."""
        a, b = self.c(a), self.c(b)
        if b in self.adj.get(a, {}):
            return self.adj[a][b]
        if b in self.links.get(a, ()):
            return "level"
        return None

    def neighbours(self, a: str):
        """Areas reachable by one legal movement step: (area, colour)."""
        a = self.c(a)
        for b, colour in self.adj.get(a, {}).items():
            if colour in PASSABLE:
                yield b, colour
        for b in sorted(self.links.get(a, ())):
            yield b, "level"

    def distances(self, start: str) -> dict[str, int]:
        start = self.c(start)
        dist = {start: 0}
        queue = deque([start])
        while queue:
            a = queue.popleft()
            for b, _ in self.neighbours(a):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    queue.append(b)
        return dist

    def shortest_paths(self, start: str, goal: str, limit: int = 24) -> list[list[str]]:
        """All shortest paths (lists of areas after start) from start to goal."""
        start, goal = self.c(start), self.c(goal)
        back = self.distances(goal)
        if start not in back:
            return []
        paths: list[list[str]] = []

        def walk(a: str, acc: list[str]) -> None:
            if len(paths) >= limit:
                return
            if a == goal:
                paths.append(acc)
                return
            for b, _ in sorted(self.neighbours(a)):
                if back.get(b) == back[a] - 1:
                    walk(b, acc + [b])

        walk(start, [])
        return paths

    def red_count(self, start: str, path: list[str]) -> int:
        count, prev = 0, self.c(start)
        for a in path:
            if self.step_colour(prev, a) == "red":
                count += 1
            prev = a
        return count

    # HER-RANGED-04, HER-RANGED-05, HER-RANGED-06: a straight line from the content, Characters never block, no line
    # through a Level Change
    def line_of_fire(self, a: str, b: str) -> list | None:
        """Colours of the lines a straight line crosses from a to b, or None (HER-AMB-36)."""
        a, b = self.c(a), self.c(b)
        if a == b:
            return []
        colour = self.adj.get(a, {}).get(b)
        if colour is not None:
            return [colour]
        for ra in [r for r, c in self.canon.items() if c == a]:
            for rb in [r for r, c in self.canon.items() if c == b]:
                if rb in self.lof.get(ra, {}):
                    return self.lof[ra][rb]
        return None

    # HER-RANGED-03: only black lines block; every line crossed counts
    def in_range(self, a: str, b: str, rng: int) -> bool:
        lines = self.line_of_fire(a, b)
        return lines is not None and "black" not in lines and len(lines) <= rng


def board(content, state: dict) -> Board:
    return kept(state, "board", lambda: _board(content, state))


def _board(content, state: dict) -> Board:
    key = (content.id, tuple(sorted((k, state["cards"][k]["face"], v["x"], v["y"], v.get("level", 0))
                                    for k, v in state["terrains"].items())))
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 512:
            _CACHE.clear()
        found = _CACHE[key] = Board(content, state)
    return found
