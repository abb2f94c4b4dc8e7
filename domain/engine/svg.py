"""A small SVG writer shared by the games' board pictures.

Pictures are schematic: boxes, circles, lines and text, placed by layout data beside each
game's content. This module only escapes and serialises; what to draw is the game's job.
Every text node is XML-escaped here, so a player name with markup cannot break a picture.
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

#: Colours for seats 0..5, chosen to stay distinguishable for common colour-vision deficiencies.
SEAT_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


#: Characters that `quoteattr` would change or that pick its quoting; a value without them is
#: written as is between double quotes (the same bytes `quoteattr` gives, much faster).
_ATTR_SPECIAL = re.compile(r'[&<>"\n\r\t]').search
_TEXT_SPECIAL = re.compile(r"[&<>]").search
_NUMBERS = frozenset({int, float})  # the types written as they are (bool is not one of them)
_NAMES: dict[str, str] = {}  # font_size -> font-size, class_ -> class: computed once per keyword


def _name(key: str) -> str:
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def _escape(text: str) -> str:
    """`xml.sax.saxutils.escape`, with a fast path for the usual text that needs none."""
    return escape(text) if _TEXT_SPECIAL(text) else text


def _attrs(attrs: dict[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        kind = type(value)
        if kind is int or kind is float:  # numbers (most attributes) need no escaping
            parts.append(f' {_name(key)}="{value}"')
            continue
        value = str(value)
        parts.append(f" {_name(key)}={quoteattr(value)}" if _ATTR_SPECIAL(value) else f' {_name(key)}="{value}"')
    return "".join(parts)


class Svg:
    """An SVG document built element by element.

    >>> pic = Svg(200, 100, title="Board")
    >>> pic.rect(0, 0, 10, 10, fill="#eee"); pic.text(5, 5, "A < B")
    >>> pic.render().startswith("<svg")
    True
    """

    def __init__(self, width: int, height: int, *, title: str, background: str = "#fbf8f1") -> None:
        self.width, self.height = width, height
        self._parts: list[str] = [f"<title>{escape(title)}</title>",
                                  f'<rect x="0" y="0" width="{width}" height="{height}" fill="{background}"/>']
        self._open = 0

    def element(self, tag: str, text: str | None = None, **attrs: Any) -> None:
        if text is None:
            self._parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self._parts.append(f"<{tag}{_attrs(attrs)}>{_escape(str(text))}</{tag}>")

    # rect, circle and text write their numeric coordinates directly (the bulk of every picture);
    # anything else goes through `element`, which gives the same bytes.

    def rect(self, x: float, y: float, w: float, h: float, **attrs: Any) -> None:
        if type(x) in _NUMBERS and type(y) in _NUMBERS and type(w) in _NUMBERS and type(h) in _NUMBERS:
            self._parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}"{_attrs(attrs)}/>')
        else:
            self.element("rect", x=x, y=y, width=w, height=h, **attrs)

    def circle(self, cx: float, cy: float, r: float, **attrs: Any) -> None:
        if type(cx) in _NUMBERS and type(cy) in _NUMBERS and type(r) in _NUMBERS:
            self._parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}"{_attrs(attrs)}/>')
        else:
            self.element("circle", cx=cx, cy=cy, r=r, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: Any) -> None:
        self.element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def text(self, x: float, y: float, text: str, *, size: int = 12, **attrs: Any) -> None:
        attrs.setdefault("font_family", "system-ui, sans-serif")
        if text is not None and type(x) in _NUMBERS and type(y) in _NUMBERS and type(size) in _NUMBERS:
            self._parts.append(f'<text x="{x}" y="{y}" font-size="{size}"{_attrs(attrs)}>{_escape(str(text))}</text>')
        else:
            self.element("text", text, x=x, y=y, font_size=size, **attrs)

    def group(self, title: str | None = None, **attrs: Any) -> None:
        """Open a `<g>`; a title makes the group's name show on hover and to screen readers."""
        self._parts.append(f"<g{_attrs(attrs)}>")
        if title:
            self._parts.append(f"<title>{escape(title)}</title>")
        self._open += 1

    def end(self) -> None:
        self._parts.append("</g>")
        self._open -= 1

    def render(self) -> str:
        body = "".join(self._parts) + "</g>" * self._open
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
                f'width="{self.width}" height="{self.height}" role="img">{body}</svg>')
