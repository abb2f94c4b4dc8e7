"""Charts drawn on the server as SVG (no chart library, nothing from another origin).

Two kinds cover every page: a line chart (scores over the steps of a game, average score
over a game's course) and a horizontal bar chart (win rates, action frequencies, game
lengths). Text goes through `domain.engine.svg.Svg`, which escapes it, so player names
and action names cannot break a page.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from domain.engine.svg import Svg, seat_colour

FONT = 14


def _nice_ceiling(value: float) -> float:
    """A round number at or above `value` for the top of an axis."""
    if value <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return step * magnitude
    return 10 * magnitude


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _tag(svg: str, testid: str | None, **data: object) -> str:
    """Put a `data-testid` (and `data-*` attributes) on the root `<svg>`."""
    attrs = "".join(f' data-{k.replace("_", "-")}="{v}"' for k, v in data.items())
    if testid:
        attrs = f' data-testid="{testid}"' + attrs
    return svg.replace("<svg ", f"<svg{attrs} ", 1)


def line_chart(series: Sequence[tuple[str, Sequence[float]]], *, title: str, x_label: str,
               x_values: Sequence[float] | None = None, marker: int | None = None,
               testid: str | None = None, width: int = 520, height: int = 280) -> str:
    """One line per (name, values); values share the x positions `x_values` (default 0..n-1).

    With `marker` (an index into the x values) a vertical line marks that position; the root
    carries `data-left`, `data-plot-width` and `data-last` so a page can move it without
    asking the server again.
    """
    left, right, top, bottom = 52, 120, 30, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    count = max((len(values) for _, values in series), default=0)
    xs = list(x_values) if x_values is not None else list(range(count))
    x_min, x_max = (xs[0], xs[-1]) if xs else (0, 1)
    span_x = (x_max - x_min) or 1
    flat = [v for _, values in series for v in values] or [0.0, 1.0]
    low, high = min(flat), max(flat)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    tick = _nice_ceiling((high - low) / 4)
    if tick < 1 and all(float(v).is_integer() for v in flat):
        tick = 1.0  # whole points: no half-point grid lines
    y_min, y_max = math.floor(low / tick) * tick, math.ceil(high / tick) * tick
    span_y = (y_max - y_min) or 1
    rows = max(1, round(span_y / tick))

    def px(x: float) -> float:
        return round(left + (x - x_min) / span_x * plot_w, 2)

    def py(y: float) -> float:
        return round(top + plot_h - (y - y_min) / span_y * plot_h, 2)

    pic = Svg(width, height, title=title, background="#ffffff")
    pic.text(left, 19, title, size=15, font_weight="bold", fill="#222")
    for i in range(rows + 1):  # horizontal grid with labels
        value = y_min + tick * i
        pic.line(left, py(value), left + plot_w, py(value), stroke="#e3e3e3")
        pic.text(left - 6, py(value) + 4, _number(round(value, 2)), size=FONT - 1, text_anchor="end", fill="#555")
    pic.line(left, top + plot_h, left + plot_w, top + plot_h, stroke="#888")
    for x in _ticks(x_min, x_max):
        pic.text(px(x), top + plot_h + 16, _number(x), size=FONT - 1, text_anchor="middle", fill="#555")
    pic.text(left + plot_w / 2, height - 6, x_label, size=FONT, text_anchor="middle", fill="#333")
    for index, (name, values) in enumerate(series):
        colour = seat_colour(index)
        points = " ".join(f"{px(x)},{py(v)}" for x, v in zip(xs, values))
        pic.group(title=f"{name}: " + ", ".join(_number(v) for v in values[-1:]))
        if len(values) == 1:
            pic.circle(px(xs[0]), py(values[0]), 3, fill=colour)
        else:
            pic.element("polyline", points=points, fill="none", stroke=colour, stroke_width=2.5,
                        stroke_dasharray=None if index % 2 == 0 else "6 3")
        pic.end()
        ly = top + 14 + 20 * index
        pic.line(left + plot_w + 12, ly - 4, left + plot_w + 32, ly - 4, stroke=colour, stroke_width=3,
                 stroke_dasharray=None if index % 2 == 0 else "6 3")
        pic.text(left + plot_w + 38, ly, _short(name, 9), size=FONT, fill="#222")
    data: dict[str, object] = {"left": left, "plot_width": plot_w, "last": max(len(xs) - 1, 0)}
    if marker is not None and xs:
        x = px(xs[min(max(marker, 0), len(xs) - 1)])
        pic.element("line", x1=x, y1=top, x2=x, y2=top + plot_h, stroke="#b00020", stroke_width=2,
                    data_role="step-marker")
    return _tag(pic.render(), testid, **data)


def bar_chart(bars: Iterable[tuple[str, float]], *, title: str, unit: str = "", percent: bool = False,
              testid: str | None = None, width: int = 520) -> str:
    """Horizontal bars, one per (label, value), in the order given."""
    bars = list(bars)
    left, right, top, row = 160, 64, 32, 28
    height = top + row * max(len(bars), 1) + 12
    plot_w = width - left - right
    top_value = 1.0 if percent else _nice_ceiling(max((v for _, v in bars), default=1.0))
    pic = Svg(width, height, title=title, background="#ffffff")
    pic.text(8, 19, title, size=15, font_weight="bold", fill="#222")
    if not bars:
        pic.text(8, top + 16, "nothing yet", size=FONT, fill="#555")
    for index, (label, value) in enumerate(bars):
        y = top + row * index
        shown = f"{value * 100:.0f}%" if percent else f"{_number(round(value, 2))}{unit}"
        bar = max(0.0, value / top_value * plot_w) if top_value else 0.0
        pic.group(title=f"{label}: {shown}")
        pic.text(left - 8, y + 18, _short(label, 20), size=FONT, text_anchor="end", fill="#222")
        pic.rect(left, y + 3, plot_w, row - 6, fill="#f1f1f1")
        pic.rect(left, y + 3, round(bar, 2), row - 6, fill=seat_colour(index if percent else 0))
        pic.text(left + plot_w + 6, y + 18, shown, size=FONT, fill="#222")
        pic.end()
    return _tag(pic.render(), testid)


def _ticks(low: float, high: float, most: int = 8) -> list[float]:
    if high <= low:
        return [low]
    step = _nice_ceiling((high - low) / most)
    step = max(1.0, step) if float(high - low).is_integer() else step
    ticks, value = [], low
    while value <= high + 1e-9:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _short(text: str, limit: int) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
