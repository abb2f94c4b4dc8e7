"""A board picture as zones a person reads at their real size (issue 24).

A game's `picture.py` builds a `Board` of `Zone`s: the shared board, the market, each player's area,
the hand. Each zone is drawn at its real size in CSS px (`ZONE_W` wide, so it fits a 390 px phone
without scaling and two sit side by side on a desktop), with text of 12 px and more. The page
(api/web/static/js/board.js) lifts each zone out of the one SVG document and lets the browser lay them
out: stacked on a phone, in columns on a desktop. `GET /games/{id}/board.svg` stays one SVG: the
zones are nested `<svg>` elements placed in two columns.

Everything that shows a card, tile, space, location, character or token is a group with
`data-detail="<glossary key>"` (the page opens its words) and, where a move can involve it,
`data-target="<key>"` (the page marks it playable). Each top-level group or line of a zone is one item
of the page's text board (`board-text`), so the text for a screen reader is the picture's own words.

Text is wrapped by an estimate of its width (`fit`); nothing here measures fonts (domain/ is pure).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

from .svg import Svg, _attrs, _escape, seat_colour

ZONE_W = 340            # fits a 390 px phone (348 px of board) at scale 1; two fit a desktop's board
PAD = 10
INK, MUTED, PAPER, LINE = "#1f1a17", "#4f4740", "#fbf8f1", "#c9bba6"
CHAR_W = 0.53           # the average glyph width of system-ui / DejaVu Sans, in em (errs a little wide)


def _n(value: float) -> str:
    """A coordinate in at most one decimal (shorter pictures, same look)."""
    return str(value) if type(value) is int else f"{value:.1f}".removesuffix(".0")


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_W


def fit(text: str, width: float, size: float, max_lines: int = 99) -> list[str]:
    """`text` broken into lines that fit `width` px at `size`; the last kept line ends in "…" when cut."""
    return list(_fit(str(text), int(width), size, max_lines))


@lru_cache(maxsize=8192)
def _fit(text: str, width: int, size: float, max_lines: int) -> tuple[str, ...]:
    """`fit`, remembered: content texts repeat from one picture to the next (pure, so safe to cache)."""
    per_line = max(4, int(width / (size * CHAR_W)))
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        words, line = paragraph.split(), ""
        for word in words:
            while len(word) > per_line:  # a word longer than a line is cut where it must be
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:per_line - 1] + "-")
                word = word[per_line - 1:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= per_line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        lines[-1] = (last if len(last) < per_line else last[:per_line - 1].rstrip()) + "…"
    return tuple(lines)


@dataclass
class Item:
    """One thing drawn as a box: a card, a tile, a space, a location, a character.

    `key` is its glossary key (None for a face-down card: nothing about it may show); `target` the key a
    move names it by (defaults to `key`); `lines` its words under the title; `pieces` the markers on it
    as (seat or None, letter, label) circles; `badge` a short corner text (a price, a count)."""
    title: str
    key: str | None = None
    lines: Sequence[str] = ()
    fill: str = "#fffdf7"
    stroke: str = "#8a7a66"
    ink: str = INK
    pieces: Sequence[tuple] = ()
    badge: str | None = None
    target: str | None = None
    say: str | None = None          # the words for a screen reader, when not the drawn ones
    strong: bool = False            # a thick border: the active one, the current one
    max_lines: int = 4
    stripe: str | None = None       # a colour band on the left edge (a kind, a colour of the rulebook)
    extra: dict = field(default_factory=dict)


class Zone(Svg):
    """One zone of a board, drawn top to bottom: `heading`, `line`s and rows of `items`."""

    def __init__(self, zone_id: str, title: str, *, width: int = ZONE_W, colour: str | None = None,
                 background: str = PAPER) -> None:
        super().__init__(width, 0, title=title, background=background)
        self._parts = []                        # the background is drawn at render, once the height is known
        self.zone_id, self.title, self.colour, self.background = zone_id, title, colour, background
        self.y = 0.0

    def text(self, x: float, y: float, text: str, *, size: int = 13, fill: str | None = None,
             font_weight: str | None = None, text_anchor: str | None = None, **attrs) -> None:
        """A text node, written directly (the bulk of every zone); the font is set once by the root or page."""
        if attrs:
            attrs.setdefault("font_family", None)
            super().text(x, y, text, size=size, fill=fill, font_weight=font_weight, text_anchor=text_anchor, **attrs)
            return
        extra = (f' fill="{fill}"' if fill else "") + (' font-weight="bold"' if font_weight else "") + \
            (f' text-anchor="{text_anchor}"' if text_anchor else "")
        self._parts.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}"{extra}>{_escape(str(text))}</text>')

    def rect(self, x: float, y: float, w: float, h: float, *, rx: float | None = None, fill: str | None = None,
             stroke: str | None = None, stroke_width: float | None = None, **attrs) -> None:
        if attrs:
            super().rect(x, y, w, h, rx=rx, fill=fill, stroke=stroke, stroke_width=stroke_width, **attrs)
            return
        extra = (f' rx="{rx}"' if rx else "") + (f' fill="{fill}"' if fill else "") + \
            (f' stroke="{stroke}"' if stroke else "") + (f' stroke-width="{stroke_width}"' if stroke_width else "")
        self._parts.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{extra}/>')

    def line_between(self, x1: float, y1: float, x2: float, y2: float, stroke: str, dash: str | None = None,
                     width: float = 2) -> None:
        """A straight stroke (`line` is a paragraph of text in a zone)."""
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self._parts.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{stroke}" '
                           f'stroke-width="{width}"{extra}/>')

    # ---- flowing content

    def heading(self, text: str, *, sub: str | None = None, colour: str | None = None, key: str | None = None,
                target: str | None = None) -> None:
        """The zone's band: its name (16 px bold) in the seat's or the zone's colour, and a short line under."""
        colour = colour or self.colour or "#5b4636"
        h = 30 if not sub else 48
        self._open_item(key, target, text + (f". {sub}" if sub else ""))
        self.rect(0, self.y, self.width, h, fill=colour)
        self.text(PAD, self.y + 21, fit(text, self.width - 2 * PAD, 16, 1)[0], size=16, font_weight="bold",
                  fill="#ffffff")
        if sub:
            self.text(PAD, self.y + 40, fit(sub, self.width - 2 * PAD, 13, 1)[0], size=13, fill="#ffffff")
        self._close_item(key, target)
        self.y += h + 8

    def line(self, text: str, *, size: int = 13, bold: bool = False, fill: str = INK, key: str | None = None,
             target: str | None = None, indent: float = 0, max_lines: int = 6, dot: str | None = None) -> None:
        """A paragraph, wrapped to the zone; `dot` draws a coloured disc before it (a seat, a colour)."""
        x = PAD + indent + (16 if dot else 0)
        lines = fit(text, self.width - x - PAD, size, max_lines)
        self._open_item(key, target, text)
        if dot:
            self.circle(PAD + indent + 6, self.y + size * 0.62, 6, fill=dot, stroke="#222")
        for i, part in enumerate(lines):
            self.text(x, self.y + size + i * (size + 4), part, size=size, fill=fill,
                      font_weight="bold" if bold else None)
        self._close_item(key, target)
        self.y += len(lines) * (size + 4) + 4

    def gap(self, px: float = 6) -> None:
        self.y += px

    def items(self, items: Iterable[Item], *, per_row: int = 2, title_size: int = 13, size: int = 12,
              height: float | None = None) -> None:
        """Boxes in rows of `per_row`; a row is as tall as its tallest box (or `height`)."""
        items = list(items)
        gap = 6
        w = (self.width - 2 * PAD - gap * (per_row - 1)) / per_row
        for start in range(0, len(items), per_row):
            row = items[start:start + per_row]
            laid = [self._lay(item, w, title_size, size) for item in row]
            h = height or max(box_h for _, _, box_h in laid)
            for i, (item, (title, body, _)) in enumerate(zip(row, laid)):
                self._box(item, PAD + i * (w + gap), self.y, w, h, title, body, title_size, size)
            self.y += h + gap

    # ---- drawing one box

    def _lay(self, item: Item, w: float, title_size: int, size: int):
        inner = w - 12 - (6 if item.stripe else 0)
        badge_w = text_width(item.badge, size) + 8 if item.badge else 0
        title = fit(item.title, (inner - badge_w) / 1.1, title_size, 2)   # bold runs about a tenth wider
        body: list[str] = []
        for text in item.lines:
            body += fit(text, inner, size, item.max_lines)
        body = body[:item.max_lines + 1]
        h = 8 + len(title) * (title_size + 3) + len(body) * (size + 3) + (26 if item.pieces else 0) + 6
        return title, body, h

    def _box(self, item: Item, x: float, y: float, w: float, h: float, title: list[str], body: list[str],
             title_size: int, size: int) -> None:
        words = item.say or ". ".join([item.title, *item.lines])
        self._open_item(item.key, item.target, words, **item.extra)
        self.rect(x, y, w, h, rx=5, fill=item.fill, stroke=item.stroke, stroke_width=3 if item.strong else 1.2)
        tx = x + 6
        if item.stripe:
            self.rect(x + 1, y + 1, 6, h - 2, rx=2, fill=item.stripe)
            tx += 6
        if item.badge:
            self.text(x + w - 6, y + title_size + 5, item.badge, size=size, fill=item.ink, font_weight="bold",
                      text_anchor="end")
        ty = y + 5 + title_size
        for part in title:
            self.text(tx, ty, part, size=title_size, font_weight="bold", fill=item.ink)
            ty += title_size + 3
        for part in body:
            self.text(tx, ty, part, size=size, fill=item.ink)
            ty += size + 3
        for i, piece in enumerate(item.pieces):
            seat, letter = piece[0], piece[1]
            token(self, tx + 10 + i * 24, y + h - 15, seat, letter)
        self._close_item(item.key, item.target)

    def _open_item(self, key: str | None, target: str | None, words: str, **extra) -> None:
        target = key if target is None else (target or None)   # "" : shown, but no move names it here
        if key or target or extra:
            self._parts.append(f"<g{_attrs({'data_detail': key, 'data_target': target, 'aria_label': words, **extra})}>")
        else:
            self._parts.append(f"<g{_attrs({'aria_label': words})}>")

    def _close_item(self, key, target) -> None:
        self._parts.append("</g>")

    def nested(self, x: float, y: float) -> str:
        """This zone as a nested `<svg>` at (x, y) of the board document."""
        h = self.height
        head = (f'<svg data-zone="{_escape(self.zone_id)}"{_attrs({"data_title": self.title})} x="{x}" y="{y}" '
                f'width="{self.width}" height="{h}" viewBox="0 0 {self.width} {h}">'
                f'<rect x="0" y="0" width="{self.width}" height="{h}" rx="8" fill="{self.background}" '
                f'stroke="{self.colour or LINE}" stroke-width="2"/>')
        return head + "".join(self._parts) + "</svg>"

    @property
    def height(self) -> int:  # type: ignore[override]
        return int(self.y + 4)

    @height.setter
    def height(self, value) -> None:  # Svg.__init__ sets it; the height follows the content
        pass


def token(pic: Svg, x: float, y: float, seat: int | None, letter: str, r: float = 10) -> None:
    """A player's piece: a disc in the seat's colour with a letter (a neutral grey disc without a seat)."""
    pic.circle(x, y, r, fill=seat_colour(seat) if seat is not None else "#777", stroke="#111")
    pic.text(x, y + 4.5, letter, size=13, fill="#fff", font_weight="bold", text_anchor="middle")


class Board:
    """The zones of one picture, in reading order; `render` gives the one SVG document."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.zones: list[Zone] = []

    def zone(self, zone_id: str, title: str, **options) -> Zone:
        zone = Zone(zone_id, title, **options)
        self.zones.append(zone)
        return zone

    def render(self, columns: int = 2) -> str:
        """Zones in `columns` columns (each zone to the shortest column, in reading order)."""
        gap = 12
        tops = [0.0] * columns
        placed = []
        for zone in self.zones:
            col = min(range(columns), key=lambda c: (tops[c], c))
            placed.append(zone.nested(col * (ZONE_W + gap), tops[col]))
            tops[col] += zone.height + gap
        width = columns * ZONE_W + (columns - 1) * gap
        height = int(max(tops) or 1)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
                f'height="{height}" role="group" data-board="zones" font-family="system-ui, sans-serif">'
                f'<title>{_escape(self.title)}</title>{"".join(placed)}</svg>')


def seats_named(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"
