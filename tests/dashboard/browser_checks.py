"""Readability checks of the dashboard's Plotly charts, from boxes measured in a real browser (issue 18, "Done when").

``CHART_BOXES`` is the JavaScript that measures, in every ``.js-plotly-plot`` of a page, the corners (in page pixels)
of the tick labels, axis titles, chart and subplot titles, legend boxes and subplot plot areas. The checks are pure
functions of those corners, so they are tested with boxes made by hand, without a browser:

- ``label_overlaps``: no two labels of one chart overlap (rotated labels are compared as the rotated rectangles
  they are, not by their axis-aligned bounding boxes);
- ``legend_overlaps``: no legend box covers a subplot's plot area.
"""

from __future__ import annotations

from dataclasses import dataclass

TOLERANCE = 1.0  # px: boxes that only touch (text boxes include the font's ascent and descent) do not overlap

Point = tuple[float, float]


@dataclass(frozen=True)
class Box:
    """A convex quadrilateral on the page (an SVG element's box mapped by its screen transform), with its text."""

    text: str
    kind: str  # "tick x", "tick y2", "axis title", "title", "annotation", "legend", "plot area"
    corners: tuple[Point, ...]

    @classmethod
    def rect(cls, text: str, kind: str, x: float, y: float, w: float, h: float) -> Box:
        """An axis-aligned box with its top-left corner at (x, y)."""
        return cls(text, kind, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _axes(corners: tuple[Point, ...]) -> list[Point]:
    """The edge normals of a convex polygon (the separating axes to try)."""
    out = []
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        if length > 0:
            out.append((-dy / length, dx / length))
    return out


def penetration(a: Box, b: Box) -> float:
    """How deep two convex boxes overlap, in px: the smallest overlap of their projections over the separating axes
    (0 or less: they do not overlap). The separating axis theorem for convex polygons."""
    depth = float("inf")
    for nx, ny in _axes(a.corners) + _axes(b.corners):
        pa = [x * nx + y * ny for x, y in a.corners]
        pb = [x * nx + y * ny for x, y in b.corners]
        depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
        if depth <= 0:
            return depth
    return depth if depth != float("inf") else 0.0


def label_overlaps(labels: list[Box], tolerance: float = TOLERANCE) -> list[tuple[Box, Box]]:
    """Every pair of labels (ticks, axis titles, titles, annotations) of one chart that overlap by more than
    ``tolerance`` px."""
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if penetration(a, b) > tolerance]


def legend_overlaps(legends: list[Box], plots: list[Box], tolerance: float = TOLERANCE) -> list[tuple[Box, Box]]:
    """Every (legend, plot area) pair where the legend box covers the plot area by more than ``tolerance`` px."""
    return [(leg, plot) for leg in legends for plot in plots if penetration(leg, plot) > tolerance]


def _quote(box: Box) -> str:
    text = " ".join(box.text.split())
    return f"{box.kind} {text[:60] + '...' if len(text) > 60 else text!r}"


def chart_problems(where: str, chart: dict) -> list[str]:
    """The findings of one chart measured by ``CHART_BOXES``, as lines naming the chart and the boxes."""
    boxes = {k: [Box(b["text"], b["kind"], tuple(map(tuple, b["corners"]))) for b in chart[k]]
             for k in ("labels", "legends", "plots")}
    name = f"{where}, chart {chart['index']}" + (f" ({chart['title']!r})" if chart["title"] else "")
    return ([f"{name}: {_quote(a)} overlaps {_quote(b)} by {penetration(a, b):.1f} px"
             for a, b in label_overlaps(boxes["labels"])]
            + [f"{name}: the legend ({_quote(leg)}) covers a plot area by {penetration(leg, plot):.1f} px"
               for leg, plot in legend_overlaps(boxes["legends"], boxes["plots"])])


# Measured in the page: for each Plotly chart in document order, its index, title, and the boxes of its labels,
# legends and plot areas. A box is an element's getBBox() mapped by getScreenCTM() (rotation included); a text's box
# is cut to the font size per line (its em box: the glyphs, without the line's ascent and descent margins, so labels
# a line apart do not count as overlapping); hidden or empty elements are left out. Tick labels of every axis (x, x2, y3, ...) are found by their group's class.
CHART_BOXES = """
() => {
  const shown = (el, svg) => {
    for (let e = el; e && e !== svg.parentNode; e = e.parentNode) {
      if (e.nodeType !== 1) continue;
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) === 0) return false;
      if (e.getAttribute('opacity') === '0' || e.getAttribute('display') === 'none') return false;
    }
    return true;
  };
  const corners = (el) => {
    const b = el.getBBox(), m = el.getScreenCTM();
    if (!m || b.width <= 0 || b.height <= 0) return null;
    let top = b.y, bottom = b.y + b.height;
    if (el.tagName === 'text') {  // the em box of its first and last lines: the font's ascent and descent left out
      const lines = Math.max(1, el.querySelectorAll('tspan.line').length);
      const inset = Math.max(0, (b.height / lines - parseFloat(getComputedStyle(el).fontSize)) / 2);
      top += inset;
      bottom -= inset;
    }
    return [[b.x, top], [b.x + b.width, top], [b.x + b.width, bottom], [b.x, bottom]].map(
      ([x, y]) => [m.a * x + m.c * y + m.e + window.scrollX, m.b * x + m.d * y + m.f + window.scrollY]);
  };
  const box = (el, kind, text, root) => {
    if (!shown(el, root)) return null;
    const c = corners(el);
    const lines = [...el.querySelectorAll('tspan.line')].map((t) => t.textContent.trim());
    return c && {kind, text: text !== undefined ? text : lines.length ? lines.join(' ') : el.textContent.trim(), corners: c};
  };
  const charts = [];
  document.querySelectorAll('.js-plotly-plot').forEach((plot, index) => {
    const r = plot.getBoundingClientRect();
    const title = plot.querySelector('.g-gtitle text');
    const chart = {index, title: title ? title.textContent.trim() : '', labels: [], legends: [], plots: [],
                   visible: r.width > 0 && r.height > 0};
    charts.push(chart);
    if (!chart.visible) return;
    const add = (list, b) => { if (b && (b.text || list === chart.plots || list === chart.legends)) list.push(b); };
    plot.querySelectorAll('g').forEach((g) => {
      const tick = [...g.classList].find((c) => /^[xy][0-9]*tick$/.test(c));
      if (tick) g.querySelectorAll(':scope > text').forEach((t) => add(chart.labels, box(t, 'tick ' + tick.slice(0, -4), undefined, plot)));
    });
    plot.querySelectorAll('text').forEach((t) => {
      const c = [...t.classList].find((c) => /^[xy][0-9]*title$/.test(c));
      if (c) add(chart.labels, box(t, 'axis title ' + c.slice(0, -5), undefined, plot));
    });
    if (title) add(chart.labels, box(title, 'title', undefined, plot));
    plot.querySelectorAll('.annotation-text').forEach((t) => add(chart.labels, box(t, 'annotation', undefined, plot)));
    plot.querySelectorAll('g.legend').forEach((g) => {
      const bg = g.querySelector('rect.bg');
      const names = [...g.querySelectorAll('.legendtext')].map((t) => t.textContent.trim()).join(', ');
      if (bg) add(chart.legends, box(bg, 'legend', names, plot));
    });
    let areas = plot.querySelectorAll('.nsewdrag');
    if (!areas.length) areas = plot.querySelectorAll('.bglayer rect');
    areas.forEach((a) => add(chart.plots, box(a, 'plot area', a.getAttribute('data-subplot') || '', plot)));
  });
  return charts;
}
"""
