"""Readability checks of the dashboard's Plotly charts, from boxes measured in a real browser.

``CHART_BOXES`` is the JavaScript that measures, in every ``.js-plotly-plot`` of a page, the corners (in page pixels)
of the tick labels, axis titles, chart and subplot titles, legend boxes and subplot plot areas. The checks are pure
functions of those corners, so they are tested with boxes made by hand, without a browser:

- ``label_overlaps``: no two labels of one chart overlap (rotated labels are compared as the rotated rectangles
  they are, not by their axis-aligned bounding boxes);
- ``legend_overlaps``: no legend box covers a subplot's plot area;
- ``toolbar_overlaps``: Plotly's toolbar (the modebar, shown while the chart is hovered) covers no title, axis title,
  annotation (subplot titles) or legend of its chart;
- ``frame_problems``: no label reaches beyond the chart's drawing (which clips it), and the drawing stays within the
  page element holding it.

The cut-text checks work the same way, from measurements of the page's DOM:

- ``CUT_TEXTS`` measures every button with a text label in the main area (and every HTML table, ``st.table``, and
  its cells); ``cut_texts`` finds those whose text needs more room than it is shown in (an element of the button
  whose ``scrollWidth`` exceeds its ``clientWidth``: Streamlit's labels are ``nowrap`` with an ellipsis, so a long
  label is cut with "...");
- ``TABLE_COLUMNS`` reads every ``st.dataframe`` (a canvas grid, glide-data-grid: its text is not in the DOM) through
  the grid's React props: each column's drawn width, its header and every cell's display text (up to ``MAX_ROWS``
  rows, not only those scrolled into view), measured with the grid's own fonts on a canvas, and whether its cells wrap
  (Streamlit wraps when ``row_height`` exceeds 4 rem). ``column_problems`` finds a header or a cell whose text is wider
  than its column minus the grid's padding (and header icon), or, where text wraps, one that needs more lines than a
  row holds (the grid's rule: a block of n lines is ``font + line_height x font x (n - 1)`` px tall, plus the
  vertical padding). A table wider than its frame (scrolled sideways) is not a cut text: ``scrolls_sideways`` says so,
  for the log.
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


TOOLBAR_COVERS = ("title", "axis title", "annotation", "legend")  # box kinds (prefixes) a toolbar must not cover


def toolbar_overlaps(toolbars: list[Box], labels: list[Box], tolerance: float = TOLERANCE) -> list[tuple[Box, Box]]:
    """Every (toolbar, label) pair where a chart's toolbar covers one of its titles, axis titles, annotations or
    legends by more than ``tolerance`` px (tick labels are left out: a toolbar sits in the chart's top corner)."""
    return [(bar, label) for bar in toolbars for label in labels
            if label.kind.startswith(TOOLBAR_COVERS) and penetration(bar, label) > tolerance]


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


def outside(inner: Box, outer: Box) -> float:
    """How far, in px, ``inner`` reaches beyond the axis-aligned box ``outer`` on any side (0 or less: within it)."""
    xs, ys = [x for x, _ in outer.corners], [y for _, y in outer.corners]
    return max(max(min(xs) - x, x - max(xs), min(ys) - y, y - max(ys)) for x, y in inner.corners)


def frame_problems(where: str, chart: dict, tolerance: float = TOLERANCE) -> list[str]:
    """The cut texts of one chart measured by ``CHART_BOXES``: a label reaching beyond the chart's drawing (its SVG
    clips it), and the drawing reaching beyond the page element that holds it (over the next element)."""
    name = f"{where}, chart {chart['index']}" + (f" ({chart['title']!r})" if chart["title"] else "")
    out = []
    frame, element = (Box(b["text"], b["kind"], tuple(map(tuple, b["corners"]))) if b else None
                      for b in (chart.get("frame"), chart.get("element")))
    if frame is not None:
        for b in chart["labels"]:
            label = Box(b["text"], b["kind"], tuple(map(tuple, b["corners"])))
            if outside(label, frame) > tolerance:
                out.append(f"{name}: {_quote(label)} is cut by the chart's edge "
                           f"({outside(label, frame):.1f} px beyond it)")
        if element is not None and outside(frame, element) > tolerance:
            out.append(f"{name}: the chart reaches {outside(frame, element):.1f} px beyond its page element")
    return out


def toolbar_problems(where: str, chart: dict) -> list[str]:
    """The toolbar findings of one chart measured by ``CHART_BOXES``, as lines naming the chart and the label."""
    bars = [Box(b["text"], b["kind"], tuple(map(tuple, b["corners"]))) for b in chart.get("toolbars", [])]
    labels = [Box(b["text"], b["kind"], tuple(map(tuple, b["corners"]))) for b in chart["labels"] + chart["legends"]]
    name = f"{where}, chart {chart['index']}" + (f" ({chart['title']!r})" if chart["title"] else "")
    return [f"{name}: the toolbar covers {_quote(label)} by {penetration(bar, label):.1f} px"
            for bar, label in toolbar_overlaps(bars, labels)]


# --- text cut in buttons and tables ----------------------------------------------------------------------------------


def cut_texts(items: list[dict], tolerance: float = TOLERANCE) -> list[dict]:
    """The buttons and HTML table cells (as measured by ``CUT_TEXTS``: what, text, the px their text needs and the px
    it is shown in) whose text is cut: it needs more than ``tolerance`` px beyond its room."""
    return [b for b in items if b["needed"] > b["shown"] + tolerance]


def text_problems(where: str, items: list[dict]) -> list[str]:
    """The findings of ``cut_texts``, as lines naming the button or cell and both widths."""
    return [f"{where}: the {b['what']} {_short(b['text'])!r} is cut: its text needs {b['needed']:.0f} px, shown in "
            f"{b['shown']:.0f} px" + (" (ends in an ellipsis)" if b.get("ellipsis") else "") for b in cut_texts(items)]


def _short(text: str, n: int = 60) -> str:
    text = " ".join(str(text).split())
    return text[:n] + "..." if len(text) > n else text


def lines_that_fit(row_height: float, font_height: float, line_height: float, padding: float) -> int:
    """How many wrapped lines a grid row shows whole: glide-data-grid draws n lines as a block
    ``font_height + line_height * font_height * (n - 1)`` px tall and clips it when that plus ``padding`` exceeds the
    row."""
    room = row_height - padding - font_height
    return 0 if room < 0 else int(room // (line_height * font_height) + 1e-9) + 1


def column_problems(where: str, table: dict, tolerance: float = TOLERANCE) -> list[str]:
    """The cut texts of one table measured by ``TABLE_COLUMNS``: a header wider than its column's room (its width less
    the padding on both sides and the header's icon), a cell that does not wrap and is wider than that room, or a
    cell that wraps onto more lines than a row holds."""
    name = f"{where}, table {table['index']}" + (f" ({_short(table['label'], 40)!r})" if table.get("label") else "")
    fit = lines_that_fit(table["row_height"], table["font_height"], table["line_height"], table["vpad"])
    out = []
    for col in table["columns"]:
        room = col["width"] - 2 * table["hpad"]
        title = f"column {_short(col['title'], 40)!r}"
        if col["header"] > room - col.get("icon", 0) + tolerance:
            out.append(f"{name}: {title}: the header needs {col['header']:.0f} px, has {room - col.get('icon', 0):.0f} "
                       f"(column {col['width']:.0f} px wide)")
        widest, tallest = col.get("widest"), col.get("tallest")
        if not col["wrap"] and widest and widest["width"] > room + tolerance:
            out.append(f"{name}: {title}: row {widest['row']} ({_short(widest['text'])!r}) needs {widest['width']:.0f} "
                       f"px, has {room:.0f} (column {col['width']:.0f} px wide)")
        if col["wrap"] and tallest and tallest["lines"] > fit:
            out.append(f"{name}: {title}: row {tallest['row']} ({_short(tallest['text'])!r}) wraps onto "
                       f"{tallest['lines']} lines, a row of {table['row_height']:.0f} px shows {fit}")
    return out


def scrolls_sideways(table: dict, tolerance: float = TOLERANCE) -> float:
    """How many px of a table's columns lie beyond its frame (reached by scrolling sideways), 0 if none."""
    over = sum(c["width"] for c in table["columns"]) - table["grid_width"]
    return over if over > tolerance else 0.0


# Measured in the page: for each Plotly chart in document order, its index, title, and the boxes of its labels,
# legends and plot areas. A box is an element's getBBox() mapped by getScreenCTM() (rotation included); a text's box
# is cut to the font size per line (its em box: the glyphs, without the line's ascent and descent margins, so labels
# a line apart do not count as overlapping); hidden or empty elements are left out. Tick labels of every axis (x, x2,
# y3, ...) are found by their group's class.
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
    // The toolbar (modebar): laid out while hidden, shown (opacity 1) on hover, so it is measured as it shows then;
    // left out only when it is not displayed at all (displayModeBar false).
    const bar = plot.querySelector('.modebar');
    let laidOut = !!bar;
    for (let e = bar; e && e !== plot.parentNode; e = e.parentNode) {
      const s = getComputedStyle(e);
      if (s.display === 'none' || s.visibility === 'hidden') laidOut = false;
    }
    const b = bar && bar.getBoundingClientRect();
    if (laidOut && b.width > 0 && b.height > 0) {
      const [x, y] = [b.x + window.scrollX, b.y + window.scrollY];
      chart.toolbars = [{kind: 'toolbar', text: 'modebar',
                         corners: [[x, y], [x + b.width, y], [x + b.width, y + b.height], [x, y + b.height]]}];
    } else chart.toolbars = [];
    // The drawing (its first SVG, which clips what lies beyond it) and the page element that holds the chart.
    const rect = (el, kind) => { if (!el) return null; const q = el.getBoundingClientRect();
      const [x, y] = [q.x + window.scrollX, q.y + window.scrollY];
      return {kind, text: '', corners: [[x, y], [x + q.width, y], [x + q.width, y + q.height], [x, y + q.height]]}; };
    chart.frame = rect(plot.querySelector('.main-svg'), 'frame');
    chart.element = rect(plot.closest('[data-testid="stElementContainer"]'), 'element');
  });
  return charts;
}
"""

MAX_ROWS = 500  # rows of a table measured (the dashboard's tables hold tens)

# Measured in the page: every visible button of the main area with a text label, every HTML table (st.table: wider
# than its frame, it is scrolled sideways, its right-hand columns cut) and each of its cells, as
# {what, text, needed, shown, ellipsis}: of the element and its descendants, the one whose content
# overflows most (scrollWidth - clientWidth), its content's width (needed) and its box's (shown), and whether it ends
# its text in an ellipsis.
CUT_TEXTS = """
() => [...document.querySelectorAll('[data-testid="stMain"] :is(button, [data-testid="stTable"], [data-testid="stTable"] th, [data-testid="stTable"] td)')].flatMap((el) => {
  const table = el.getAttribute('data-testid') === 'stTable', r = el.getBoundingClientRect();
  const text = table ? [...el.querySelectorAll('th')].map((h) => h.innerText.trim()).join(', ') : el.innerText.trim();
  if (!text || r.width === 0 || r.height === 0) return [];
  const what = el.tagName === 'BUTTON' ? 'button' : table ? 'table (columns)' : 'table cell';
  let needed = el.scrollWidth, shown = el.clientWidth, ellipsis = false;
  for (const e of [el, ...el.querySelectorAll('*')]) {
    if (!(e instanceof HTMLElement) || e.clientWidth === 0) continue;
    if (e.scrollWidth - e.clientWidth > needed - shown) {
      needed = e.scrollWidth;
      shown = e.clientWidth;
      ellipsis = getComputedStyle(e).textOverflow === 'ellipsis';
    }
  }
  return [{what, text, needed, shown, ellipsis}];
})
"""

# Measured in the page: every st.dataframe of the main area. Its grid (glide-data-grid) draws on a canvas, so the
# columns' drawn widths, the grid's theme and the cells' display text are read from the React props of the grid's
# components (found by walking up from the canvas: the first with sized columns and a theme is the drawn grid, the
# first above it with getCellContent and maxColumnAutoWidth is the data editor Streamlit configures); texts are
# measured with the grid's own fonts on a canvas. ``found`` is false when that walk fails (a Streamlit upgrade).
# Each table is labelled with its expander's title, or else the last heading before it.
TABLE_COLUMNS = r"""
(maxRows) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const measure = (text, font) => { ctx.font = font; return ctx.measureText(text).width; };
  const fiberOf = (el) => { const k = Object.keys(el).find((k) => k.startsWith('__reactFiber$')); return k ? el[k] : null; };
  const lines = (text, room, font) => {  // greedy word wrap, as the grid wraps (a word wider than the room is split)
    const space = measure(' ', font);
    let n = 0;
    for (const para of text.split(/\r?\n/)) {
      let line = null;  // the width of the line being filled
      n += 1;
      for (const word of para.split(' ')) {
        const w = measure(word, font);
        if (line !== null && line + space + w <= room) { line += space + w; continue; }
        if (line !== null) n += 1;
        const parts = Math.max(1, Math.ceil(w / room));  // a word wider than the room goes on several lines
        n += parts - 1;
        line = w - (parts - 1) * room;
      }
    }
    return n;
  };
  const heads = [...document.querySelectorAll('[data-testid="stMain"] :is(h1, h2, h3)')];
  return [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')].map((frame, index) => {
    const r = frame.getBoundingClientRect(), details = frame.closest('details');
    const before = heads.filter((h) => h.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING);
    const summary = details && (details.querySelector('summary [data-testid="stMarkdownContainer"]') || details.querySelector('summary'));
    const label = summary ? summary.innerText.trim()
      : before.length ? before[before.length - 1].innerText.trim() : '';
    const table = {index, label, visible: r.width > 0 && r.height > 0, found: false, columns: []};
    let grid = null, editor = null;
    const canvas = frame.querySelector('canvas');
    for (let f = canvas && fiberOf(canvas); f; f = f.return) {
      const p = f.memoizedProps;
      if (!p || typeof p !== 'object' || !Array.isArray(p.columns)) continue;
      if (!grid && p.theme && typeof p.width === 'number' && p.columns.every((c) => typeof c.width === 'number')) grid = p;
      if (grid && typeof p.getCellContent === 'function' && 'maxColumnAutoWidth' in p) { editor = p; break; }
    }
    if (!grid || !editor) return table;
    const theme = grid.theme, rows = Math.min(editor.rows, maxRows);
    const font = theme.baseFontFull, header = theme.headerFontFull, hpad = theme.cellHorizontalPadding;
    const probe = (ctx.font = font, ctx.measureText('ABCi09jgqpy'));
    Object.assign(table, {found: true, grid_width: grid.width, rows: editor.rows, hpad, vpad: theme.cellVerticalPadding,
      row_height: typeof grid.rowHeight === 'function' ? grid.rowHeight(0) : grid.rowHeight,
      font_height: probe.actualBoundingBoxAscent + probe.actualBoundingBoxDescent, line_height: theme.lineHeight});
    const at = new Map(editor.columns.map((c, i) => [c.id, i]));
    for (const c of grid.columns) {
      const i = at.get(c.id);
      if (i === undefined) continue;  // the grid's own row-marker column
      const col = {title: c.title || '', width: c.width, header: measure(c.title || '', header),
                   icon: c.icon === undefined ? 0 : Math.ceil(theme.headerIconSize * 1.3), wrap: false,
                   widest: null, tallest: null};
      for (let row = 0; row < rows; row++) {
        const cell = editor.getCellContent([i, row]);
        const text = typeof cell.displayData === 'string' ? cell.displayData : typeof cell.data === 'string' ? cell.data : null;
        if (text === null) continue;
        col.wrap = col.wrap || cell.allowWrapping === true;
        const width = measure(text.replace(/\s+/g, ' '), font);
        if (!col.widest || width > col.widest.width) col.widest = {row, text, width};
        if (cell.allowWrapping === true) {
          const n = lines(text, c.width - 2 * hpad, font);
          if (!col.tallest || n > col.tallest.lines) col.tallest = {row, text, lines: n};
        }
      }
      table.columns.push(col);
    }
    return table;
  });
}
"""
