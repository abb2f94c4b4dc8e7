"""The card instruction language: surface syntax -> JSON AST (see GRAMMAR.md).

Authors write instructions as text in the content TOML; this module compiles them once
at load time into JSON-native AST nodes (dicts discriminated by "op"), which the
interpreter (`interp.py`) executes step by step.
"""

from __future__ import annotations

import re

from domain.engine import ContentError

COLOURS = ("blue", "green", "yellow", "red", "purple")
ICONS = ("watch", "speak", "interact", "move", "heal", "attack")
CMPS = ("=", "!=", "<", "<=", ">", ">=")
KARMA_TYPES = ("Violence", "Brute", "Pacifist", "Dodge", "Treasure Hunter", "Looter", "Social", "Scar", "Memory")

_TOKEN = re.compile(r'"[^"]*"|!=|<=|>=|[;(){},=<>]|[^\s;(){},=<>!]+')


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


class Parser:
    def __init__(self, text: str, where: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.where = where

    # -- helpers ---------------------------------------------------------
    def err(self, msg: str):
        near = " ".join(self.toks[self.i:self.i + 4])
        raise ContentError(f"{self.where}: {msg} (near {near!r})")

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> str:
        tok = self.peek()
        if tok is None:
            self.err("unexpected end of instructions")
        self.i += 1
        return tok

    def expect(self, word: str) -> None:
        tok = self.next()
        if tok.upper() != word:
            self.i -= 1
            self.err(f"expected {word}")

    def accept(self, word: str) -> bool:
        tok = self.peek()
        if tok is not None and tok.upper() == word:
            self.i += 1
            return True
        return False

    def is_int(self, k: int = 0) -> bool:
        tok = self.peek(k)
        return tok is not None and re.fullmatch(r"-?\d+", tok) is not None

    def int(self) -> int:
        if not self.is_int():
            self.err("expected a number")
        return int(self.next())

    def word(self) -> str:
        tok = self.next()
        if tok in ";(){},":
            self.i -= 1
            self.err("expected a word")
        return tok

    # -- blocks ------------------------------------------------------------
    def parse_all(self) -> list:
        ops = self.block(stop=())
        if self.peek() is not None:
            self.err("unexpected text")
        return ops

    def block(self, stop: tuple, in_then: bool = False) -> list:
        ops = []
        while True:
            tok = self.peek()
            if tok is None or tok.upper() in stop:
                return ops
            if tok == ";":
                self.i += 1
                continue
            ops.append(self.instr(in_then))
            tok = self.peek()
            if tok == ";":
                self.i += 1
            elif tok is not None and tok.upper() not in stop:
                self.err("expected ';'")

    def instr(self, in_then: bool) -> dict:
        first = self.simple()
        if not in_then and self.accept("ELSE"):
            return {"op": "else", "first": first, "second": self.instr(in_then)}
        return first

    def simple(self) -> dict:
        if self.accept("IF"):
            cond = self.cond()
            self.expect("THEN")
            then = self.block(stop=("ELSE", "END"), in_then=True)
            other = []
            if self.accept("ELSE"):
                other = self.block(stop=("END",))
            self.expect("END")
            return {"op": "if", "cond": cond, "then": then, "else": other}
        if self.peek() == "(":
            self.i += 1
            body = self.block(stop=(")",))
            if self.next() != ")":
                self.err("expected ')'")
            return body[0] if len(body) == 1 else {"op": "seq", "body": body}
        return self.atom()

    def braces(self) -> list:
        if self.next() != "{":
            self.i -= 1
            self.err("expected '{'")
        body = self.block(stop=("}",))
        self.next()
        return body

    # -- atoms ---------------------------------------------------------------
    def target(self):
        tok = self.peek()
        if tok is not None and tok.lower() == "self":
            self.i += 1
            return {"card": None}
        if self.accept("NPC"):
            return {"card": self.int()}
        if self.accept("AREA"):
            return {"area": self.word()}
        return {"card": self.int()}

    def recipient(self):
        tok = self.peek()
        if tok is None or tok in (";", ")", "}") or tok.upper() in ("ELSE", "END"):
            return "ACTING_PC"
        up = tok.upper()
        if up in ("ACTING_PC", "ALLOCATE"):
            self.i += 1
            return up
        if up == "AREA":
            self.i += 1
            return "AREA:" + self.word()
        return self.word()

    def atom(self) -> dict:
        w = self.next().upper()
        if w == "TAKE":
            return {"op": "take", "card": self.int()}
        if w in ("FLIP", "BURN"):
            return {"op": w.lower(), "card": self.int() if self.is_int() else None}
        if w == "ANCHOR":
            colour = self.word().lower()
            if colour not in COLOURS:
                self.err(f"anchor colour must be one of {COLOURS}")
            return {"op": "anchor", "colour": colour, "vertical": self.accept("VERTICAL")}
        if w in ("ADD", "REMOVE"):
            count = self.int()
            kind = self.word().lower()
            self.expect("TO" if w == "ADD" else "FROM")
            return {"op": "addTokens" if w == "ADD" else "removeTokens", "count": count, "kind": kind,
                    "target": self.target()}
        if w == "PLACE_NPC":
            npc = self.int()
            return {"op": "placeNpc", "npc": npc, "area": self.word() if self.accept("AT") else None}
        if w in ("HOSTILE", "ALLY"):
            return {"op": "setAttitude", "npc": self.int(), "attitude": w.lower()}
        if w == "DAMAGE":
            amount = self.int()
            sel = self.word()
            arg = None
            if sel.upper() in ("NPC", "CHARACTERS_IN"):
                arg = self.word()
            tag = self.word().lower() if self.accept("TAG") else None
            return {"op": "damage", "amount": amount, "selector": sel.upper() if sel.upper() in
                    ("ACTING_PC", "ALL_CHARACTERS", "ALL_PCS", "CHARACTERS_IN", "NPC", "CHOSEN_PC") else sel,
                    "arg": arg, "tag": tag}
        if w == "GAIN_ITEM":
            return {"op": "gainItem", "item": self.int(), "recipient": self.recipient()}
        if w == "GAIN_MATERIALS":
            return {"op": "gainMaterials", "count": self.int(), "recipient": self.recipient()}
        if w == "PAY_MATERIALS":
            return {"op": "payMaterials", "count": self.int()}
        if w == "PLACE_MATERIALS":
            count = self.int()
            self.expect("IN")
            return {"op": "placeMaterials", "count": count, "area": self.word()}
        if w == "PLACE_TERRAIN":
            card = self.int()
            at = None
            if self.accept("AT"):
                at = [self.int(), self.int()]
            level = self.int() if self.accept("LEVEL") else 0
            return {"op": "placeTerrain", "terrain": card, "at": at, "level": level}
        if w in ("TERRAIN_ACTION", "NPC_ACTION", "ACTION"):
            link: dict = {"kind": "none"}
            if w == "TERRAIN_ACTION":
                terrain = self.int()
                link = {"kind": "terrain", "terrain": terrain, "area": self.word()}
            elif w == "NPC_ACTION":
                link = {"kind": "npc", "npc": self.int()}
            icon = self.word().lower()
            if icon not in ICONS:
                self.err(f"action icon must be one of {ICONS}")
            combined = None
            if self.accept("COMBINED"):
                combined = {"participants": self.int()}
            return {"op": "makeAction", "action": {"icon": icon, "link": link, "combined": combined,
                                                   "body": self.braces()}}
        if w == "PERSISTENT":
            kind = self.word().upper()
            if kind == "DEFENCE":
                return {"op": "persistent", "modifier": {"kind": "defence", "value": self.int()}}
            if kind == "IMMUNE":
                return {"op": "persistent", "modifier": {"kind": "immune", "tag": self.word().lower()}}
            if kind == "OVERRIDE":
                rule = self.word()
                return {"op": "persistent", "modifier": {"kind": "override", "rule": rule, "value": self.int()}}
            if kind == "TEXT":
                return {"op": "persistent", "modifier": {"kind": "text", "text": self.word().strip('"')}}
            self.err("PERSISTENT takes DEFENCE k, IMMUNE tag, OVERRIDE rule k or TEXT \"...\"")
        if w == "DRAW_KARMA":
            return {"op": "drawKarma", "bind": self.word() if self.accept("AS") else None}
        if w == "KARMA_EVOLVE":
            return {"op": "karmaEvolve", "card": self.int()}
        if w == "KARMA_EFFECT":
            return {"op": "karmaEffect", "bind": self.word()}
        if w == "ATTACK":
            rng = self.int() if self.accept("RANGE") else None
            self.expect("POWER")
            return {"op": "attack", "range": rng, "power": self.int()}
        simple = {"RETRIEVE_ACTIONS": "retrieveActions", "ACTION_WINDOW": "actionWindow",
                  "CHECK_DEFEAT": "checkDefeat", "VICTORY": "victory", "DEFEAT": "defeat"}
        if w in simple:
            return {"op": simple[w]}
        if w == "PURPLE_TOKEN":
            return {"op": "purple", "pc": self.word()}
        if w == "NARRATE":
            return {"op": "narrate", "text": self.next().strip('"')}
        if w == "MOVE":
            return {"op": "aiMove", "x": self.int()}
        if w == "MELEE":
            return {"op": "aiMelee", "power": self.int()}
        if w == "RANGED":
            rng = self.int()
            return {"op": "aiRanged", "range": rng, "power": self.int()}
        self.i -= 1
        self.err(f"unknown instruction {w!r}")

    # -- conditions ------------------------------------------------------------
    def cond(self) -> dict:
        left = self.cond_and()
        while self.accept("OR"):
            left = {"c": "or", "a": left, "b": self.cond_and()}
        return left

    def cond_and(self) -> dict:
        left = self.cond_not()
        while self.accept("AND"):
            left = {"c": "and", "a": left, "b": self.cond_not()}
        return left

    def cond_not(self) -> dict:
        if self.accept("NOT"):
            return {"c": "not", "a": self.cond_not()}
        if self.peek() == "(":
            self.i += 1
            inner = self.cond()
            if self.next() != ")":
                self.err("expected ')'")
            return inner
        return self.cond_atom()

    def cmp(self) -> tuple[str, int]:
        op = self.next()
        if op not in CMPS:
            self.i -= 1
            self.err(f"expected a comparison {CMPS}")
        return op, self.int()

    def cond_atom(self) -> dict:
        w = self.next().upper()
        if w == "TOKENS":
            if self.next() != "(":
                self.err("expected '('")
            target = self.target()
            kind = "generic"
            if self.peek() == ",":
                self.i += 1
                kind = self.word().lower()
            if self.next() != ")":
                self.err("expected ')'")
            op, k = self.cmp()
            return {"c": "tokens", "target": target, "kind": kind, "cmp": op, "k": k}
        if w in ("IN_PLAY", "IN_TIMELINE", "BURNED", "HOSTILE?", "DEAD?"):
            return {"c": w.lower().rstrip("?"), "card": self.int()}
        if w == "FACE":
            return {"c": "face", "card": self.int(), "side": self.word().lower()}
        if w == "PC_IN":
            pc = None if ":" in (self.peek() or "") else self.word()
            return {"c": "pc_in", "pc": pc, "area": self.word()}
        if w == "NPC_IN":
            return {"c": "npc_in", "npc": self.int(), "area": self.word()}
        if w == "DYING?":
            return {"c": "dying", "pc": self.word()}
        if w == "ANY_DYING":
            return {"c": "any_dying"}
        if w == "HAS_ITEM":
            pc = None if self.is_int() else self.word()
            return {"c": "has_item", "pc": pc, "item": self.int()}
        if w == "MATERIALS":
            pc = None if (self.peek() in CMPS) else self.word()
            op, k = self.cmp()
            return {"c": "materials", "pc": pc, "cmp": op, "k": k}
        if w == "KARMA":
            var = self.word()
            if self.accept("TYPE"):
                return {"c": "karma_type", "bind": var, "type": self.word().replace("_", " ")}
            if self.accept("VALUE"):
                op, k = self.cmp()
                return {"c": "karma_value", "bind": var, "cmp": op, "k": k}
            self.expect("FAILS")
            return {"c": "karma_fails", "bind": var}
        if w in ("TRUE", "FALSE"):
            return {"c": w.lower()}
        self.i -= 1
        self.err(f"unknown condition {w!r}")


def compile_block(text: str, where: str) -> list:
    """Compile an instruction block; an empty string is an empty block."""
    if not isinstance(text, str):
        raise ContentError(f"{where}: instructions must be a string, got {text!r}")
    return Parser(text, where).parse_all()


def compile_cond(text: str, where: str) -> dict:
    parser = Parser(text, where)
    cond = parser.cond()
    if parser.peek() is not None:
        parser.err("unexpected text after condition")
    return cond
