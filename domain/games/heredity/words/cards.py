"""The card language read aloud: a card's compiled instructions (lang.py's JSON AST, GRAMMAR.md) as
plain English sentences, in the chapter's names (never a card number, an area id or an op name).

`face_text(content, number, side)` is what one face of a card does, whole: its instructions when it
is taken, its Event, its actions, what persists while it is in play, its defeat condition, and an NPC's
attitude, AI and death. The sentences are ours, written from the data; the narrative lines of a card
(its flavour, read aloud when it is taken) are the chapter's own and are quoted as such.

Names come from names.py through a card-free state of the chapter (`{"chapter": id, "cards": {}}`),
so a card is named by the face it shows first, exactly as a player who takes it would call it.
"""

from __future__ import annotations

from domain.engine.text import join, plural

from .names import area_name, card_name, pc_name, possessive, terrain_name

ICON_VERB = {"watch": "Watch", "speak": "Speak", "interact": "Interact", "move": "Move", "heal": "Heal",
             "attack": "Attack"}
CMP = {"=": "exactly", "!=": "other than", "<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}
TOKEN_KIND = {"generic": "token", "lamp_oil": "lamp-oil token", "hostile": "Hostile token", "ally": "Ally token",
              "damage": "Damage token"}
CARD_ICON = {"watch": "Watch", "speak": "Speak", "interact": "Interact"}


class Reader:
    """Reads one card's AST in the names of its chapter; `this` is the card being read."""

    def __init__(self, content, this: int | None = None, known: set | None = None) -> None:
        self.content = content
        self.s = {"chapter": content.id, "cards": {}, "pcs": {}, "npcs": {}}
        self.this = this
        self.known = known            # card numbers the reader has seen (None: every card, for the book itself)

    def hidden(self, number) -> bool:
        return self.known is not None and number is not None and number != self.this and int(number) not in self.known

    # -- names -----------------------------------------------------------------------------
    def card(self, number) -> str:
        if number is None or number == self.this:
            return "this card"
        if self.hidden(number):
            return "a card not yet revealed"
        try:
            if self.content.card(int(number))["kind"] == "terrain":
                return terrain_name(number)
        except (KeyError, TypeError, ValueError):
            return "a card"
        return card_name(self.s, number, "front")

    def npc(self, number) -> str:
        if self.hidden(number):
            return "a Character not yet revealed"
        try:
            sec = self.content.face(int(number), "front").get("npc") or {}
        except (KeyError, TypeError, ValueError):
            sec = {}
        return sec.get("name", "the NPC") if number != self.this or sec else "this NPC"

    def area(self, ref) -> str:
        if ref in (None, "HERE"):
            return "the area where it stood"
        if isinstance(ref, str) and ":" in ref and self.hidden(ref.partition(":")[0]):
            return "an area not yet revealed"
        return area_name(ref)

    def pc(self, ref) -> str:
        return pc_name(self.s, ref)

    def target(self, t: dict) -> str:
        if "area" in t:
            return self.area(t["area"])
        return self.card(t.get("card"))

    def tokens(self, n: int, kind: str) -> str:
        return plural(n, TOKEN_KIND.get(kind, kind.replace("_", " ") + " token"))

    def recipient(self, r: str) -> str:
        if r in (None, "ACTING_PC"):
            return "the acting PC"
        if r == "ALLOCATE":
            return "a PC of the players' choice"
        if r.startswith("AREA:"):
            return self.area(r[5:])
        return self.pc(r)

    # -- blocks ------------------------------------------------------------------------------
    def block(self, ops: list) -> str:
        """A block as sentences, each ending in a full stop."""
        said = [self.op(op) for op in ops]
        said = [s for s in said if s]
        return " ".join(_sentence(s) for s in said)

    def phrase(self, ops: list) -> str:
        """A block as one phrase (inside a sentence)."""
        said = [self.op(op) for op in ops]
        said = [s for s in said if s]
        return join(said) if said else "nothing happens"

    def op(self, op: dict) -> str:
        kind = op.get("op")
        fn = getattr(self, "op_" + str(kind), None)
        return fn(op) if fn else ""

    # -- the instructions --------------------------------------------------------------------
    def op_else(self, op):
        first, second = self.op(op["first"]), self.op(op["second"])
        return f"{first}; if that is not possible, {second}" if second else first

    def op_seq(self, op):
        return f"{self.phrase(op['body'])} (all of it, or none)"

    def op_if(self, op):
        then, other = self.phrase(op["then"]), self.phrase(op["else"]) if op["else"] else ""
        out = f"if {self.cond(op['cond'])}, {then}"
        return out + (f"; otherwise {other}" if other else "")

    def op_take(self, op):
        return f"take {self.card(op['card'])}"

    def op_flip(self, op):
        return f"flip {self.card(op['card'])}"

    def op_burn(self, op):
        return f"burn {self.card(op['card'])} (it leaves the chapter)"

    def op_anchor(self, op):
        where = "below a card of the Timeline" if op.get("vertical") else "in the Timeline"
        return f"anchor this card on a free {op['colour']} slot {where}"

    def op_addTokens(self, op):
        return f"put {self.tokens(op['count'], op['kind'])} on {self.target(op['target'])}"

    def op_removeTokens(self, op):
        return f"remove {self.tokens(op['count'], op['kind'])} from {self.target(op['target'])}"

    def op_placeNpc(self, op):
        where = f" in {self.area(op['area'])}" if op.get("area") else ""
        return f"place {self.npc(op['npc'])} on the Terrain{where}"

    def op_setAttitude(self, op):
        return f"{self.npc(op['npc'])} becomes {'an ally' if op['attitude'] == 'ally' else 'Hostile'}"

    def op_damage(self, op):
        sel, arg = op["selector"], op.get("arg")
        who = {"ACTING_PC": "the acting PC", "ALL_PCS": "every PC", "ALL_CHARACTERS": "every Character",
               "CHOSEN_PC": "a PC of the players' choice (not a Dying one)",
               "CHARACTERS_IN": f"every Character in {self.area(arg)}",
               "NPC": self.npc(int(arg)) if arg and str(arg).isdigit() else "the NPC"}.get(sel) or self.pc(sel)
        tag = f" ({op['tag']}: those immune to {op['tag']} ignore it)" if op.get("tag") else ""
        return f"{who} takes {plural(op['amount'], 'Damage', 'Damage')}, whatever their Defence{tag}"

    def op_gainItem(self, op):
        r = op.get("recipient")
        if isinstance(r, str) and r.startswith("AREA:"):
            return f"{self.card(op['item'])} is left lying in {self.area(r[5:])}"
        return f"{self.recipient(r)} gains {self.card(op['item'])}"

    def op_gainMaterials(self, op):
        r = op.get("recipient")
        if isinstance(r, str) and r.startswith("AREA:"):
            return f"put {plural(op['count'], 'Material')} in {self.area(r[5:])}"
        return f"{self.recipient(r)} gains {plural(op['count'], 'Material')}"

    def op_payMaterials(self, op):
        return f"the acting PC pays {plural(op['count'], 'Material')}"

    def op_placeMaterials(self, op):
        return f"put {plural(op['count'], 'Material')} in {self.area(op['area'])}"

    def op_placeTerrain(self, op):
        return f"lay {self.card(op['terrain'])} out on the table"

    def op_makeAction(self, op):
        a = op["action"]
        return f"from now on, {action_words(self, a)}"

    def op_persistent(self, op):
        said = persistent_words(op["modifier"])
        return f"while this card is in play: {said}" if said else ""

    def op_drawKarma(self, op):
        return "draw a Karma card"

    def op_karmaEffect(self, op):
        return "apply the drawn Karma card's own effect"

    def op_karmaEvolve(self, op):
        return f"the Karma deck evolves: {self.card(op['card'])} replaces the card of the same type"

    def op_attack(self, op):
        reach = f" at a range of up to {op['range']}" if op.get("range") else " in the same area"
        return f"attack a Character{reach} with Power {op['power']}"

    def op_retrieveActions(self, op):
        return "every PC takes back its Action tokens"

    def op_actionWindow(self, op):
        return "the action window opens: the PCs spend their Action tokens"

    def op_checkDefeat(self, op):
        return "check whether the chapter is lost"

    def op_victory(self, op):
        return "the family wins the chapter"

    def op_defeat(self, op):
        return "the family loses the chapter"

    def op_purple(self, op):
        return f"the purple Action token becomes {possessive(self.pc(op['pc']))} fourth token"

    def op_narrate(self, op):
        return f"the story says \u201c{op['text']}\u201d"

    def op_aiMove(self, op):
        return f"it moves up to {plural(op['x'], 'area')} toward its target"

    def op_aiMelee(self, op):
        return f"it attacks its target in the same area with Power {op['power']}"

    def op_aiRanged(self, op):
        return f"it shoots at its target up to {plural(op['range'], 'area')} away with Power {op['power']}"

    # -- conditions --------------------------------------------------------------------------
    def cond(self, c: dict) -> str:
        kind = c.get("c")
        if kind == "tokens":
            what = TOKEN_KIND.get(c["kind"], c["kind"].replace("_", " ") + " token") + "s"
            return f"{self.target(c['target'])} holds {CMP[c['cmp']]} {c['k']} {what}"
        if kind == "in_play":
            return f"{self.card(c['card'])} is in play"
        if kind == "in_timeline":
            return f"{self.card(c['card'])} is in the Timeline"
        if kind == "burned":
            return f"{self.card(c['card'])} is burned"
        if kind == "hostile":
            return f"{self.npc(c['card'])} is Hostile"
        if kind == "dead":
            return f"{self.npc(c['card'])} is dead"
        if kind == "face":
            return f"{self.card(c['card'])} shows its {'first' if c['side'] == 'front' else 'second'} side"
        if kind == "pc_in":
            who = self.pc(c["pc"]) if c.get("pc") else "a PC"
            return f"{who} is in {self.area(c['area'])}"
        if kind == "npc_in":
            return f"{self.npc(c['npc'])} is in {self.area(c['area'])}"
        if kind == "dying":
            return f"{self.pc(c['pc'])} is Dying"
        if kind == "any_dying":
            return "a PC is Dying"
        if kind == "has_item":
            who = self.pc(c["pc"]) if c.get("pc") else "the acting PC"
            return f"{who} holds {self.card(c['item'])}"
        if kind == "materials":
            who = self.pc(c["pc"]) if c.get("pc") else "the acting PC"
            return f"{who} has {CMP[c['cmp']]} {plural(c['k'], 'Material')}"
        if kind == "karma_type":
            return f"the Karma card drawn is of the type {c['type']}"
        if kind == "karma_value":
            return f"the Karma card drawn is worth {CMP[c['cmp']]} {c['k']}"
        if kind == "karma_fails":
            return "the Karma card drawn fails"
        if kind == "true":
            return "always"
        if kind == "false":
            return "never"
        if kind == "not":
            return f"it is not so that {self.cond(c['a'])}"
        if kind in ("and", "or"):
            return f"{self.cond(c['a'])} {kind} {self.cond(c['b'])}"
        return "a condition holds"


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def persistent_words(m: dict) -> str:
    kind = m.get("kind")
    if kind == "defence":
        return f"Defence {m['value']:+d}" if m["value"] else ""
    if kind == "immune":
        return f"protects from {m['tag']}"
    if kind == "override":
        return f"a rule of the chapter changes to {m['value']}"
    if kind == "text":
        return m["text"]
    return ""


def action_words(r: Reader, a: dict) -> str:
    """An action a card offers: who may take it, where, with which icon, and what it does."""
    icon = ICON_VERB.get(a["icon"], a["icon"].title())
    slot = f"an {icon} slot" if icon[0] in "AEIOU" else f"a {icon} slot"
    link = a.get("link") or {}
    where = ""
    if link.get("kind") == "terrain":
        where = " in " + r.area(str(link["terrain"]) + ":" + str(link["area"]))
    elif link.get("kind") == "npc":
        where = f" beside {r.npc(link['npc'])}"
    together = ""
    if a.get("combined"):
        together = f", {a['combined'].get('participants', 2)} PCs together (each spends a token)"
    return f"a PC{where} may put an Action token on {slot}{together} to: {r.phrase(a['body'])}"


def face_text(content, number: int, side: str = "front", known: set | None = None) -> str:
    """What one face of a card does, in sentences (empty when it does nothing by itself). `known`: the
    card numbers the reader has seen; any other card it names is called "a card not yet revealed"
    (HER-HIDDEN-01, HER-HIDDEN-05: its number is public, never its words)."""
    rec = content.card(number)
    f = content.face(number, side) or {}
    r = Reader(content, number, known)
    kind = rec["kind"]
    parts: list[str] = []
    if kind in ("narrative", "family"):
        if f.get("instructions"):
            parts.append("When taken: " + r.block(f["instructions"]))
        ev = f.get("event")
        if ev:
            when = _trigger(ev.get("trigger"))
            parts.append(f"Event ({when}): " + r.block(ev["ops"]))
        for a in f.get("actions") or []:
            parts.append(_sentence(action_words(r, a)))
        for m in f.get("persistent") or []:
            said = persistent_words(m)
            if said:
                parts.append(_sentence("while this card is in play: " + said))
        if f.get("defeat"):
            parts.append(f"The chapter is lost when {r.cond(f['defeat'])}.")
        npc = f.get("npc")
        if npc:
            parts.append(npc_text(r, npc))
    elif kind == "item":
        parts.append(item_text(r, f))
    elif kind == "karma":
        parts.append(karma_text(r, rec))
    return " ".join(p for p in parts if p)


def _trigger(trigger) -> str:
    if not trigger:
        return "when the Hourglass reaches it"
    if trigger.get("when") == "afterHostStep":
        return f"after step {trigger.get('step')} of the card above it"
    return "when its condition is met"


def npc_text(r: Reader, npc: dict) -> str:
    att = "an ally of the family" if npc.get("ally") else ("Hostile" if npc.get("hostile") else "Neutral")
    many = f" ({npc['standees']} standees)" if npc.get("standees", 1) > 1 else ""
    out = [f"{npc['name']}{many}: {att}, Life {npc['life']}, Defence {npc.get('defence', 0)}."]
    if npc.get("ai"):
        out.append("On its turn: " + r.block(npc["ai"]))
    if npc.get("death"):
        out.append("When it dies: " + r.block(npc["death"]))
    return " ".join(out)


def item_text(r: Reader, f: dict) -> str:
    out = [f"Worth {plural(f.get('value', 0), 'Material')}; hangs on a {f.get('anchor')}."]
    for sl in f.get("slots") or []:
        bits = []
        if sl.get("attack"):
            a = sl["attack"]
            reach = f", range {a['range']}" if a.get("range") else ", in the same area"
            many = f", up to {a['targets']} targets" if a.get("targets", 1) > 1 else ""
            bits.append(f"an attack with Power {a['power']}{reach}{many}")
        if sl.get("icons"):
            icons = "/".join(ICON_VERB.get(i, i) for i in sl["icons"])
            bits.append(("an " if icons[0] in "AEIOU" else "a ") + icons + " slot")
        if sl.get("effect"):
            bits.append("using it: " + r.phrase(sl["effect"]))
        if sl.get("heart"):
            bits.append("it can take Damage")
        if not sl.get("accepts", True):
            bits.append("it never takes an Action token")
        if bits:
            out.append(_sentence(join(bits, "and")) if len(bits) < 3 else _sentence("; ".join(bits)))
    for m in f.get("permanent") or []:
        said = persistent_words(m)
        if said:
            out.append(_sentence("while held: " + said))
    if f.get("initialise"):
        out.append("When it comes into play: " + r.block(f["initialise"]))
    for up in f.get("upgrades") or []:
        out.append(f"Upgrade for {plural(up['cost'], 'Material')}: " + r.block(up["effect"]))
    return " ".join(out)


def karma_text(r: Reader, rec: dict) -> str:
    if rec.get("fails"):
        out = f"A Karma card of the type {rec['type']}: an attack drawing it fails."
    else:
        out = f"A Karma card of the type {rec['type']}: adds {rec.get('value', 0):+d} to the Power of an attack."
    if rec.get("effect"):
        out += " Its own effect, when a card calls for it: " + r.block(rec["effect"])
    if rec.get("evolution"):
        out += " An evolution: it replaces the card of its type when the chapter says so."
    return out
