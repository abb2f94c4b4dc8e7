"""Loading and validating chapter content (TOML) into fast lookups.

A chapter is data: PCs, the Core deck (PC cards, Family card, Player Aids), the
Adventure deck (Terrain, Narrative/NPC and Item cards), the Secrets deck (cards > 900:
Karma cards, evolutions, setup cards). Instructions are compiled by `lang.py`.
Validation raises ContentError naming the faulty record.
"""

from __future__ import annotations

from domain.engine import ContentError, load_toml, require, require_one_of

from .lang import COLOURS, ICONS, KARMA_TYPES, compile_block, compile_cond

LINE_COLOURS = ("white", "green", "blue", "black", "red", "open")
EDGES = ("N", "E", "S", "W")
ACTION_ICONS = ("watch", "speak", "interact", "move", "heal")
PARTS = ("head", "torso", "feet")


def _anchors_vertically(ops: list) -> bool:
    for op in ops:
        if op.get("op") == "anchor" and op.get("vertical"):
            return True
        nested = [op.get(k) for k in ("first", "second")] + [op.get(k) for k in ("then", "else", "body")]
        for part in nested:
            if isinstance(part, dict) and _anchors_vertically([part]):
                return True
            if isinstance(part, list) and _anchors_vertically(part):
                return True
    return False


class Content:
    """One chapter's compiled content: `cards` maps a card number to its record."""

    def __init__(self, data: dict, name: str) -> None:
        self.name = name
        chapter = require(data, "chapter", dict, name)
        self.id = require(chapter, "id", str, f"{name} [chapter]")
        self.title = chapter.get("title", self.id)
        self.number = chapter.get("number", 1)
        self.first_card = require(chapter, "first_card", int, f"{name} [chapter]")
        self.special = dict(chapter.get("special", {}))
        self.chapter_setup = {int(k): v for k, v in chapter.get("chapter_setup", {}).items()}
        self.declared_secrets = chapter.get("secrets")
        self.cards: dict[int, dict] = {}
        self.pcs = [self._pc(p, i) for i, p in enumerate(require(data, "pc", list, name))]
        if len(self.pcs) != 4:
            raise ContentError(f"{name}: exactly 4 PCs are required (HER-GEN-04), found {len(self.pcs)}")
        self.pc_ids = [p["id"] for p in self.pcs]
        for rec in data.get("pc_card", []):
            self._add(self._pc_card(rec))
        fam = require(data, "family", dict, name)
        self.family = fam["number"]
        self._add(self._family(fam))
        for rec in data.get("aid", []):
            self._add({"number": rec["number"], "kind": "aid", "front": {"text": rec.get("text", "")}, "back": None})
        for rec in data.get("terrain", []):
            self._add(self._terrain(rec))
        for rec in data.get("narrative", []):
            self._add(self._narrative(rec))
        for rec in data.get("item", []):
            self._add(self._item(rec))
        for rec in data.get("karma", []):
            self._add(self._karma(rec))
        self.karma_base = [c["number"] for c in self.cards.values() if c["kind"] == "karma" and not c.get("evolution")]
        self._check()

    # -- records -----------------------------------------------------------------
    def _add(self, card: dict) -> None:
        number = card["number"]
        if number in self.cards:
            raise ContentError(f"{self.name}: duplicate card number {number}")
        self.cards[number] = card

    def _pc(self, rec: dict, index: int) -> dict:
        where = f"{self.name} pc[{index}]"
        for key in ("id", "name", "colour"):
            require(rec, key, str, where)
        require_one_of(rec, "role", ("parent", "child"), where)
        cards = {part: require(rec, part, int, where) for part in PARTS}
        return {"id": rec["id"], "name": rec["name"], "colour": rec["colour"], "role": rec["role"], "cards": cards}

    def _slots(self, raw: list, where: str) -> list:
        slots = []
        for i, s in enumerate(raw):
            w = f"{where}.slots[{i}]"
            sid = require(s, "id", str, w)
            icons = list(s.get("icons", []))
            for icon in icons:
                if icon not in ACTION_ICONS:
                    raise ContentError(f"{w}: icon {icon!r} not in {ACTION_ICONS}")
            attack = s.get("attack")
            if attack is not None:
                require(attack, "power", int, w + ".attack")
            accepts = bool(icons or attack)
            if s.get("effect") and not accepts:
                raise ContentError(f"{w}: a slot with an effect needs an action icon or an attack to take an Action "
                                   f"token (HER-ITEM-13, HER-AMB-23)")
            if s.get("effect_only"):
                accepts = False
            slots.append({"id": sid, "icons": icons, "heart": bool(s.get("heart", False)), "accepts": accepts,
                          "attack": {"power": attack["power"], "range": attack.get("range"),
                                     "targets": attack.get("targets", 1)} if attack else None,
                          "effect": compile_block(s.get("effect", ""), w + ".effect"),
                          "card": s.get("card")})
        return slots

    def _pc_card(self, rec: dict) -> dict:
        where = f"{self.name} pc_card {rec.get('number')}"
        number = require(rec, "number", int, where)
        require_one_of(rec, "part", PARTS, where)
        faces = {}
        for side in ("front", "back"):
            face = require(rec, side, dict, where)
            anchors = face.get("anchors", {})
            faces[side] = {"slots": self._slots(face.get("slots", []), f"{where}.{side}"),
                           "anchors": {"left": list(anchors.get("left", [])), "right": list(anchors.get("right", []))}}
        ids = [s["id"] for f in faces.values() for s in f["slots"]]
        if len(ids) != len(set(ids)):
            raise ContentError(f"{where}: slot ids must be unique across both faces")
        return {"number": number, "kind": "pc", "pc": rec["pc"], "part": rec["part"], **faces}

    def _blocks(self, raw: list, where: str) -> list:
        out = []
        for b in raw:
            require_one_of(b, "direction", ("right", "below"), where)
            require_one_of(b, "colour", COLOURS, where)
            out.append({"direction": b["direction"], "colour": b["colour"]})
        return out

    def _family(self, rec: dict) -> dict:
        where = f"{self.name} family"
        face = {"event": {"trigger": None, "ops": compile_block(require(rec, "event", str, where), where + ".event")},
                "defeat": compile_cond(require(rec, "defeat", str, where), where + ".defeat"),
                "blocks": self._blocks(rec.get("blocks", []), where), "instructions": [], "actions": [],
                "persistent": [], "npc": None, "anchor": None, "narrative": rec.get("text", "")}
        return {"number": rec["number"], "kind": "family", "front": face, "back": None}

    def _terrain_face(self, face: dict, where: str) -> dict:
        areas = {}
        for a in require(face, "areas", list, where):
            areas[require(a, "id", str, where)] = {"capacity": require(a, "capacity", int, where)}
        lines = []
        for ln in face.get("lines", []):
            require_one_of(ln, "colour", LINE_COLOURS[:-1], where)
            for key in ("a", "b"):
                if ln.get(key) not in areas:
                    raise ContentError(f"{where}: line area {ln.get(key)!r} is not an area of this face")
            lines.append({"a": ln["a"], "b": ln["b"], "colour": ln["colour"]})
        edges = {}
        for side, segs in face.get("edges", {}).items():
            if side not in EDGES:
                raise ContentError(f"{where}: edge {side!r} not in {EDGES}")
            edges[side] = []
            for seg in segs:
                require_one_of(seg, "colour", LINE_COLOURS, where)
                if seg.get("area") not in areas:
                    raise ContentError(f"{where}: edge area {seg.get('area')!r} unknown")
                edges[side].append({"area": seg["area"], "colour": seg["colour"], "span": list(seg.get("span", [0, 1]))})
        icons = []
        for i, icon in enumerate(face.get("icons", [])):
            w = f"{where}.icons[{i}]"
            kind = require_one_of(icon, "kind", ("watch", "speak", "interact", "materials", "explore", "levelChange",
                                                 "immediateEvent", "start", "npcPlacement", "symbol"), w)
            rec = dict(icon)
            if kind != "explore" and rec.get("area") not in areas:
                raise ContentError(f"{w}: area {rec.get('area')!r} unknown")
            if kind == "immediateEvent":
                rec["ops"] = compile_block(require(icon, "effect", str, w), w)
            if kind == "explore":
                require_one_of(icon, "edge", EDGES, w)
                require(icon, "terrain", int, w)
            icons.append(rec)
        regroup = face.get("regroup")
        if regroup is not None and regroup not in areas:
            raise ContentError(f"{where}: regroup area {regroup!r} unknown")
        lof = {}
        for entry in face.get("lof", []):
            for key in ("from", "to"):
                if ":" not in str(entry.get(key)) and entry.get(key) not in areas:
                    raise ContentError(f"{where}: line-of-fire area {entry.get(key)!r} unknown (another Terrain's "
                                       f"area is written '<terrain>:<area>')")
            for colour in entry.get("lines", []):
                if colour not in LINE_COLOURS[:-1]:
                    raise ContentError(f"{where}: line-of-fire colour {colour!r} not in {LINE_COLOURS[:-1]}")
            lof.setdefault(entry["from"], {})[entry["to"]] = list(entry["lines"])
            lof.setdefault(entry["to"], {})[entry["from"]] = list(reversed(entry["lines"]))
        return {"areas": areas, "lines": lines, "edges": edges, "icons": icons, "regroup": regroup,
                "area_map": dict(face.get("area_map", {})), "lof": lof}

    def _terrain(self, rec: dict) -> dict:
        where = f"{self.name} terrain {rec.get('number')}"
        number = require(rec, "number", int, where)
        front = self._terrain_face(require(rec, "front", dict, where), where + ".front")
        back = self._terrain_face(rec["back"], where + ".back") if "back" in rec else None
        return {"number": number, "kind": "terrain", "replaces": rec.get("replaces"), "front": front, "back": back}

    def _action(self, a: dict, where: str) -> dict:
        icon = require_one_of(a, "icon", ICONS, where)
        link = dict(a.get("link", {"kind": "none"}))
        combined = a.get("combined")
        return {"icon": icon, "link": link, "combined": combined,
                "body": compile_block(require(a, "body", str, where), where + ".body")}

    def _narrative_face(self, face: dict, where: str) -> dict:
        anchor = face.get("anchor")
        if anchor is not None:
            require_one_of(anchor, "colour", COLOURS, where + ".anchor")
        event = None
        if "event" in face:
            trigger = dict(face["trigger"]) if face.get("trigger") else None
            if trigger is not None:
                require_one_of(trigger, "when", ("onHostEvent", "beforeHostStep", "afterHostStep", "onCondition"),
                               where + ".trigger")
                if trigger["when"] == "onCondition":
                    trigger["cond"] = compile_cond(require(trigger, "cond", str, where + ".trigger"), where + ".trigger")
            event = {"trigger": trigger, "ops": compile_block(face["event"], where + ".event")}
        npc = None
        if "npc" in face:
            n = face["npc"]
            w = where + ".npc"
            npc = {"name": require(n, "name", str, w), "standees": n.get("standees", 1),
                   "placement": n.get("placement"), "hostile": bool(n.get("hostile", False)),
                   "ally": bool(n.get("ally", False)), "life": require(n, "life", int, w),
                   "defence": require(n, "defence", int, w), "ai": compile_block(n.get("ai", ""), w + ".ai"),
                   "death": compile_block(n.get("death", ""), w + ".death")}
        instructions = compile_block(face.get("instructions", ""), where + ".instructions")
        if event is not None and event["trigger"] is None and _anchors_vertically(instructions):
            raise ContentError(f"{where}: a vertically anchored card's Event section must state its trigger "
                               f"(HER-ANCHOR-08)")
        return {"reader": face.get("reader"), "narrative": face.get("narrative", ""),
                "instructions": instructions,
                "event": event, "blocks": self._blocks(face.get("blocks", []), where),
                "actions": [self._action(a, f"{where}.actions[{i}]") for i, a in enumerate(face.get("actions", []))],
                "persistent": list(face.get("persistent", [])),
                "defeat": compile_cond(face["defeat"], where + ".defeat") if "defeat" in face else None,
                "npc": npc, "anchor": anchor}

    def _narrative(self, rec: dict) -> dict:
        where = f"{self.name} narrative {rec.get('number')}"
        number = require(rec, "number", int, where)
        front = self._narrative_face(require(rec, "front", dict, where), where + ".front")
        back = self._narrative_face(rec["back"], where + ".back") if "back" in rec else None
        return {"number": number, "kind": "narrative", "front": front, "back": back}

    def _item_face(self, face: dict, where: str) -> dict:
        return {"name": require(face, "name", str, where), "value": face.get("value", 0),
                "anchor": require(face, "anchor", str, where), "slots": self._slots(face.get("slots", []), where),
                "permanent": list(face.get("permanent", [])),
                "initialise": compile_block(face.get("initialise", ""), where + ".initialise"),
                "upgrades": [{"cost": require(u, "cost", int, where), "effect": compile_block(u.get("effect", "FLIP"), where)}
                             for u in face.get("upgrades", [])]}

    def _item(self, rec: dict) -> dict:
        where = f"{self.name} item {rec.get('number')}"
        number = require(rec, "number", int, where)
        require_one_of(rec, "colour", ("brown", "grey"), where)
        front = self._item_face(require(rec, "front", dict, where), where + ".front")
        back = self._item_face(rec["back"], where + ".back") if "back" in rec else None
        return {"number": number, "kind": "item", "colour": rec["colour"], "front": front, "back": back}

    def _karma(self, rec: dict) -> dict:
        where = f"{self.name} karma {rec.get('number')}"
        number = require(rec, "number", int, where)
        if number <= 900:
            raise ContentError(f"{where}: Karma cards live in the Secrets deck (numbers > 900)")
        require_one_of(rec, "type", KARMA_TYPES, where)
        return {"number": number, "kind": "karma", "type": rec["type"], "name": require(rec, "name", str, where),
                "value": rec.get("value", 0), "fails": bool(rec.get("fails", False)),
                "effect": compile_block(rec.get("effect", ""), where + ".effect"),
                "evolution": bool(rec.get("evolution", False)), "front": {}, "back": None}

    def _check(self) -> None:
        for chapter_no, number in self.chapter_setup.items():
            if number not in self.cards or number <= 900:
                raise ContentError(f"{self.name}: chapter {chapter_no}'s setup card {number} must be a Secrets card "
                                   f"(a card of this content numbered above 900, HER-SETUP-09)")
        if self.first_card not in self.cards:
            raise ContentError(f"{self.name}: first_card {self.first_card} is not a card of the chapter")
        types = sorted(self.cards[n]["type"] for n in self.karma_base)
        if types != sorted(KARMA_TYPES):
            raise ContentError(f"{self.name}: the base Karma deck needs one card of each type (HER-KARMA-01), got {types}")
        for pc in self.pcs:
            for part, number in pc["cards"].items():
                card = self.cards.get(number)
                if card is None or card["kind"] != "pc" or card["part"] != part or card["pc"] != pc["id"]:
                    raise ContentError(f"{self.name}: PC {pc['id']} {part} card {number} is missing or mismatched")
        secrets = [n for n in self.cards if n > 900]
        declared = self.declared_secrets
        if declared is not None and len(secrets) != declared:
            raise ContentError(f"{self.name}: the Secrets deck must hold {declared} cards numbered above 900, "
                               f"found {len(secrets)}")

    # -- lookups -------------------------------------------------------------------
    # HER-SETUP-07, HER-CARDS-01: numbers above 900 come from the Secrets deck
    def card(self, number: int) -> dict:
        return self.cards[number]

    def face(self, number: int, side: str) -> dict:
        card = self.cards[number]
        return card["front"] if side == "front" or card.get("back") is None else card["back"]

    def pc(self, pc_id: str) -> dict:
        return self.pcs[self.pc_ids.index(pc_id)]


_CHAPTERS: dict[str, Content] = {}


def register_chapter(content: Content) -> Content:
    _CHAPTERS[content.id] = content
    return content


def chapter(chapter_id: str) -> Content:
    return _CHAPTERS[chapter_id]


def has_chapter(chapter_id: str) -> bool:
    return chapter_id in _CHAPTERS


def load_chapter(package: str, filename: str) -> Content:
    return register_chapter(Content(load_toml(package, filename), filename))


def content_from_dict(data: dict, name: str = "fixture") -> Content:
    return register_chapter(Content(data, name))
