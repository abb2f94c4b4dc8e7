"""Loading and validating the Abomination content pack (board.toml, cards.toml).

Everything the rulebook leaves to data (locations, dials, anatomy, cards, story entries) is
read here once at import and exposed as plain lookups on `C`. Tests may monkeypatch `C`'s
dicts to install the catalog's FIXTURE values.
"""

from __future__ import annotations

from domain.engine import ContentError, load_toml, require, require_one_of, require_unique_ids

STAGES = ["I", "II", "III", "IV"]  # ABOM-MATERIALS-04: I freshest, IV most decayed, in this order
TYPES = ["blood", "bone", "organ", "muscle", "animal"]  # ABOM-MATERIALS-01: the 5 material types
STAGED = ["blood", "organ", "muscle", "animal"]
ATTRS = ["humanity", "reputation", "expertise"]
PARTS = ["head", "torso", "arm", "leg"]
SIDES = ["muscle", "skin"]
DECKS = ["cemetery", "morgue", "hospital", "publicSquare"]
ICONS = ["GAIN_ASSISTANT", "PROMOTE_ASSISTANT", "GAIN_REPUTATION", "LOSE_REPUTATION", "LOSE_ASSISTANT",
         "BLUE_DIE", "VP"]
FACES = ["DAMAGE", "ALIVE", "SWITCH_EXTRA", "BLANK"]
CONDITIONS = ["lowestHumanity", "highestReputation", "mostFrancs", "fewestFrancs", "highestExpertise",
              "negativeHumanity", "hasAlivePart"]
OPS = {"francs", "attribute", "gainMaterials", "takeCadaver", "drawCard", "takeScoundrel", "gainJar",
       "chargeJars", "gainIce", "meeple", "gotoEntry", "choice", "each", "passCreature", "releaseSetAside"}
TIMINGS = ["cityTurn", "lab", "setup"]
MITIGATIONS = ["reroll", "ignore", "setAlive"]


class Content:
    """All lookups the rules need; filled by `load()`."""


def _effects(effects, where, entries=None):
    if not isinstance(effects, list):
        raise ContentError(f"{where}: effects should be a list")
    for i, eff in enumerate(effects):
        w = f"{where}[{i}]"
        op = require_one_of(eff, "op", sorted(OPS), w)
        if op == "attribute":
            require_one_of(eff, "attr", ATTRS, w)
            require(eff, "n", int, w)
        elif op == "francs":
            require(eff, "n", int, w)
        elif op == "gainMaterials":
            _materials(require(eff, "items", list, w), w)
        elif op == "takeCadaver":
            require_one_of(eff, "deck", DECKS, w)
            require_one_of(eff, "from", ["top", "display"], w)
        elif op == "drawCard":
            require_one_of(eff, "deck", ["humanity", "research"], w)
            require_one_of(eff, "from", ["top", "display"], w)
        elif op == "chargeJars":
            require(eff, "n", int, w)
        elif op == "meeple":
            require_one_of(eff, "kind", ["gainAssistant", "promote", "loseAssistant"], w)
        elif op == "gotoEntry":
            require(eff, "entry", int, w)
        elif op == "choice":
            for j, option in enumerate(require(eff, "options", list, w)):
                _effects(option, f"{w}.options[{j}]")
        elif op == "each":
            _effects(require(eff, "effects", list, w), f"{w}.effects")


def _materials(items, where):
    for i, item in enumerate(items):
        w = f"{where}.items[{i}]"
        kind = require_one_of(item, "type", TYPES, w)
        if require(item, "count", int, w) < 1:
            raise ContentError(f"{w}: count must be at least 1")
        if kind == "bone":
            if item.get("stage") is not None:
                raise ContentError(f"{w}: bone has no decay stage")
        else:
            require_one_of(item, "stage", STAGES, w)


def _space(space, where, location):
    require(space, "id", str, where)
    require(space, "scientistOnly", bool, where)
    if require(space, "francCost", int, where) < 0:
        raise ContentError(f"{where}: francCost must be >= 0")
    _effects(require(space, "effects", list, where), f"{where}.effects")
    return {**space, "location": location}


def _faces(card, where):
    covered = []
    for i, face in enumerate(require(card, "faces", list, where)):
        lo, hi = require(face, "rounds", list, f"{where}.faces[{i}]")
        covered.extend(range(lo, hi + 1))
    if sorted(covered) != list(range(1, 13)):
        raise ContentError(f"{where}: faces must cover rounds 1-12 exactly once, cover {sorted(covered)}")


def load() -> Content:
    board = load_toml(__package__, "board.toml")
    cards = load_toml(__package__, "cards.toml")
    c = Content()
    # Locations and spaces.
    require_unique_ids(board["locations"], "board.locations")
    c.locations = {loc["id"]: loc for loc in board["locations"]}
    c.spaces = {}
    for loc in board["locations"]:
        for j, space in enumerate(require(loc, "spaces", list, f"location {loc['id']}")):
            c.spaces[space["id"]] = _space(space, f"location {loc['id']}.spaces[{j}]", loc["id"])
    for name in ["cemetery", "morgue", "hospital", "publicSquare", "docks", "academy", "saintRoch"]:
        if name not in c.locations:
            raise ContentError(f"board.locations: the rulebook location {name!r} is missing")
    lab = board["lab"]
    c.lab_spaces = {}
    for j, space in enumerate(require(lab, "spaces", list, "board.lab")):
        c.lab_spaces[space["id"]] = _space(space, f"board.lab.spaces[{j}]", "lab")
    c.preservation_cap = require(lab, "preservationCap", int, "board.lab")
    c.decay_cap = require(lab, "decayCap", int, "board.lab")
    c.max_jars = require(lab, "maxLeydenJars", int, "board.lab")
    c.preserved_usable = require(lab, "preservedUsableForBuild", bool, "board.lab")
    c.bump = {}
    for track in board["bumpTracks"]:
        c.bump[require(track, "playerCount", int, "bumpTracks")] = list(require(track, "costs", list, "bumpTracks"))
    for n in (2, 3, 4):
        if n not in c.bump:
            raise ContentError(f"bumpTracks: no track for {n} players")
    c.rounds = require(board["story"], "roundSpaces", int, "story")
    c.dice = {}
    for color in ("grey", "blue"):
        faces = require(board["dice"][color], "faces", list, f"dice.{color}")
        if len(faces) != 6 or any(f not in FACES for f in faces):
            raise ContentError(f"dice.{color}: six faces from {FACES} expected")
        c.dice[color] = faces
    if not (c.dice["blue"].count("DAMAGE") <= c.dice["grey"].count("DAMAGE")
            and c.dice["blue"].count("ALIVE") >= c.dice["grey"].count("ALIVE") and c.dice["blue"] != c.dice["grey"]):
        raise ContentError("dice.blue: a blue die must be better than a grey one (fewer DAMAGE or more ALIVE)")
    c.switch_extra = board["switchExtra"]["effects"]
    _effects(c.switch_extra, "switchExtra.effects")
    c.dials = {}
    for attr in ATTRS:
        dial = board["dials"][attr]
        w = f"dials.{attr}"
        lo, hi, start = (require(dial, k, int, w) for k in ("min", "max", "start"))
        icons = []
        for i, icon in enumerate(require(dial, "icons", list, w)):
            at = require(icon, "at", int, f"{w}.icons[{i}]")
            kind = require_one_of(icon, "icon", ICONS, f"{w}.icons[{i}]")
            if not lo <= at <= hi or at == start:
                raise ContentError(f"{w}.icons[{i}]: position {at} outside {lo}..{hi} or on the start")
            if kind == "VP":
                require(icon, "n", int, f"{w}.icons[{i}]")
            icons.append({"at": at, "icon": kind, "n": icon.get("n", 0)})
        c.dials[attr] = {"min": lo, "max": hi, "start": start, "icons": icons}
    if c.dials["expertise"]["max"] < 27:
        raise ContentError("dials.expertise: must reach at least 27")
    c.anatomy = {}
    for part in PARTS:
        data = board["anatomy"][part]
        for side in SIDES:
            ps = data[side]
            w = f"anatomy.{part}.{side}"
            require(ps, "expertiseRequirement", int, w)
            if any(k not in ("blood", "bone", "organ", "muscle") for k in ps["materials"]):
                raise ContentError(f"{w}: requirements list only blood/bone/organ/muscle")
            if require(ps, "animalPenalty", int, w) not in (1, 2):
                raise ContentError(f"{w}: animalPenalty must be 1 or 2")
            for s in STAGES:
                require(ps["vpByStage"], s, int, f"{w}.vpByStage")
        c.anatomy[part] = data
    c.part_limits = {p: c.anatomy[p]["maxOnTable"] for p in PARTS}
    c.animal_substitutes = board["anatomyRules"]["animalSubstitutes"]
    require_unique_ids(board["objectives"], "objectives")
    if len(board["objectives"]) != 6:
        raise ContentError("objectives: exactly 6 bonus objectives expected")
    c.objectives = {o["id"]: o for o in board["objectives"]}
    # Cards.
    c.cards = {}
    c.cadavers = {}
    for i, card in enumerate(cards["cadavers"]):
        w = f"cadavers[{i}]"
        require_one_of(card, "deck", DECKS, w)
        _effects(require(card, "cost", list, w), f"{w}.cost")
        if require(card, "expertiseValue", int, w) < 1:
            raise ContentError(f"{w}: expertiseValue must be >= 1")
        _materials(require(card, "materials", list, w), w)
        if any(m["type"] == "blood" and m["stage"] in ("III", "IV") for m in card["materials"]):
            raise ContentError(f"{w}: blood is granted at stage I or II only (ABOM-AMB-42)")
        c.cadavers[card["id"]] = card
    aside = [k for k, v in c.cadavers.items() if v.get("setAsideAtSetup")]
    if len(aside) != 1 or c.cadavers[aside[0]]["deck"] != "publicSquare":
        raise ContentError("cadavers: exactly 1 publicSquare card must be setAsideAtSetup")
    c.set_aside = aside[0]
    if sum(1 for v in c.cadavers.values() if v["deck"] == "hospital") < 4:
        raise ContentError("cadavers: the hospital deck needs at least 4 cards")
    c.scoundrels = {s["id"]: s for s in cards["scoundrels"]}
    c.research = {s["id"]: s for s in cards["research"]}
    c.humanity = {s["id"]: s for s in cards["humanity"]}
    for kind, table in (("research", c.research), ("humanity", c.humanity)):
        for cid, card in table.items():
            require_one_of(card, "timing", TIMINGS, f"{kind} {cid}")
            _effects(card["effects"], f"{kind} {cid}.effects")
            _effects(card["icons"], f"{kind} {cid}.icons")
    for cid, card in c.research.items():
        require_one_of(card["diceMitigation"], "kind", MITIGATIONS, f"research {cid}.diceMitigation")
    for cid, card in c.scoundrels.items():
        _effects(card["hireCost"], f"scoundrel {cid}.hireCost")
        _effects(card["effects"], f"scoundrel {cid}.effects")
    c.characters = {ch["id"]: ch for ch in cards["characters"]}
    for cid, ch in c.characters.items():
        if require_one_of(ch["ability"], "timing", ["lab"], f"character {cid}.ability") == "lab":
            _effects(ch["ability"]["effects"], f"character {cid}.ability.effects")
    if sum(1 for ch in c.characters.values() if ch["notForFirstTwoPlayerGames"]) < 2:
        raise ContentError("characters: at least 2 must be notForFirstTwoPlayerGames")
    if len(c.characters) < 4:
        raise ContentError("characters: at least 4 are needed")
    c.entries = {e["number"]: e for e in cards["entries"]}
    for num, entry in c.entries.items():
        for ch in entry.get("choices", []):
            if ch["next"] not in c.entries or ch["next"] <= num:
                raise ContentError(f"entry {num}: choice points to {ch['next']} (missing or not later: cycle)")
        _effects(entry.get("effects", []), f"entry {num}.effects")
    c.events = {e["id"]: e for e in cards["events"]}
    for eid, ev in c.events.items():
        _faces(ev, f"event {eid}")
        for face in ev["faces"]:
            _effects(face["immediate"], f"event {eid}.immediate")
    c.encounters = {e["id"]: e for e in cards["encounters"]}
    for eid, en in c.encounters.items():
        _faces(en, f"encounter {eid}")
        for face in en["faces"]:
            if face["entry"] not in c.entries:
                raise ContentError(f"encounter {eid}: entry {face['entry']} does not exist")
            trig = face["trigger"]
            if trig["kind"] == "location" and trig["locationId"] not in c.locations:
                raise ContentError(f"encounter {eid}: unknown trigger location {trig['locationId']}")
            if face["target"]["kind"] == "condition":
                require_one_of(face["target"], "condition", CONDITIONS, f"encounter {eid}.target")
    if len(c.events) <= 8 or len(c.encounters) <= 4:
        raise ContentError("the pack needs more than 8 event cards and more than 4 encounter cards")
    if len(c.scoundrels) < 3 or len(c.research) < 2 or len(c.humanity) < 2:
        raise ContentError("scoundrel/research/humanity decks are too small for their displays")
    for table in (c.cadavers, c.scoundrels, c.research, c.humanity, c.characters, c.events, c.encounters):
        for cid, card in table.items():
            if cid in c.cards:
                raise ContentError(f"duplicate card id {cid!r}")
            c.cards[cid] = card
    return c


C = load()
