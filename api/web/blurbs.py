"""One line per game for the lobby, used until a game declares `GameMeta.blurb` itself."""

from __future__ import annotations

LINES = {
    "my_fathers_work": "Three generations of a mad scientist's family race to finish the great work "
                       "before the village turns against them.",
    "abomination": "Rival scientists gather parts by night to give a creature life, and pay for it "
                   "in humanity.",
    "adas_dream": "Engineers travel Victorian Britain, win partners and build the machine Ada "
                  "imagined.",
    "heredity": "A cooperative story campaign: a family keeps its book and its land together "
                "across the chapters.",
}


def blurb_for(game: str) -> str:
    return LINES.get(game, "A game served by Heirloom.")
