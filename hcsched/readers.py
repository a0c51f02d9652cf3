"""Reading a user's ETC matrix (or a table of class execution rates): CSV, or the one-value-per-line HCSP format of
Braun et al. (2001).

CSV columns may be separated by commas, semicolons or tabs (as spreadsheets export them in locales whose decimal
separator is a comma); the separator is recognised from the content, see :func:`detect_delimiter`.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np

from hcsched.errors import HcschedError
from hcsched.userfiles import env_limit, read_text
from hcsched.validate import MAX_SECONDS


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise HcschedError(f"{where}: {text.strip()!r} is not a number; entries must be non-negative numbers") from None
    if math.isnan(value) or math.isinf(value) or value < 0:
        raise HcschedError(f"{where}: {text.strip()} is not allowed; entries must be finite and non-negative")
    return value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def check_etc(etc, source: str = "ETC") -> np.ndarray:
    """A matrix as floats, checked: 2-D rows of numbers, at least one task and one machine, finite, non-negative and
    at most ``MAX_SECONDS`` (so that sums over many tasks stay finite)."""
    etc = _as_floats(etc, source)
    if etc.ndim != 2 or etc.shape[0] < 1 or etc.shape[1] < 1:
        raise HcschedError(f"{source}: shape {etc.shape} is not allowed; need at least one task "
                           "(row) and one machine (column)")
    if etc.min() >= 0 and etc.max() <= MAX_SECONDS:  # False when any entry is NaN or inf
        return etc
    bad = ~np.isfinite(etc) | (etc < 0) | (etc > MAX_SECONDS)
    i, j = map(int, np.argwhere(bad)[0])
    raise HcschedError(f"{source}: entry (task {i}, machine {j}) = {etc[i, j]} is not allowed; entries must be finite, "
                       f"non-negative and at most {MAX_SECONDS:g} (about 31,700 years in seconds; larger values make "
                       "sums over many tasks overflow)")


MATRIX = "rows of numbers (a list of lists or a 2-D array: one row per task, one column per machine)"


def _as_floats(etc, source: str) -> np.ndarray:
    """``etc`` as a float array; anything that is not rows of numbers is one line naming ``source``."""
    if isinstance(etc, (str, bytes, dict)) or etc is None:
        raise HcschedError(f"{source}: a {type(etc).__name__} is not allowed; allowed: {MATRIX}")
    try:
        out = np.asarray(etc, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise HcschedError(f"{source}: {_what_is_wrong(etc)} is not allowed; allowed: {MATRIX}") from None
    if out.ndim == 0:
        raise HcschedError(f"{source}: a single number ({_shown(etc)}) is not allowed; allowed: {MATRIX}")
    return out


def _what_is_wrong(etc) -> str:
    """Why a matrix does not convert to floats: its first cell that is no number, or its ragged rows."""
    try:
        rows = [list(r) for r in etc]
    except TypeError:
        return f"a {type(etc).__name__}"
    if len({len(r) for r in rows}) > 1:
        return "a ragged list (rows of different lengths)"
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            if isinstance(cell, (str, bytes)) or not _converts(cell):
                why = "too large for a float" if isinstance(cell, int) else "not a number"
                return f"entry (task {i}, machine {j}) = {_shown(cell)} ({why})"
    return "a list that is not rows of numbers"


def _converts(cell) -> bool:
    try:
        float(cell)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _shown(value, at_most: int = 40) -> str:
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python converts to text
        return f"an integer of {value.bit_length()} bits"
    return text if len(text) <= at_most else text[:at_most - 3] + "..."


LABEL_HEADERS = ("", "task", "tasks", "name", "id", "label")  # a header cell that names a first column of task labels
DELIMITERS = {"\t": "tabs", ";": "semicolons", ",": "commas"}  # column separators, in order of preference
SAMPLE_LINES = 20  # the first non-empty lines the separator is recognised from


def detect_delimiter(text: str) -> str:
    """The column separator of CSV text: tab, else semicolon, else comma.

    A tab or a semicolon is the separator when it appears on every one of the
    first 20 non-empty lines; otherwise the comma is. Tabs and semicolons come
    first because files separated by them may write decimal commas (``1,5``).
    """
    lines = [ln for ln in text.splitlines() if ln.strip()][:SAMPLE_LINES]
    for delimiter in ("\t", ";"):
        if lines and all(delimiter in ln for ln in lines):
            return delimiter
    return ","


def _decimal_comma(cell: str) -> str:
    """``1,5`` as ``1.5`` (in files not separated by commas); any other cell unchanged."""
    dotted = cell.replace(",", ".")
    return dotted if "," in cell and "." not in cell and _is_number(dotted) else cell


def _csv_rows(text: str, delimiter: str, source: str) -> list[tuple[int, list[str]]]:
    """The non-empty rows with their line numbers; decimal commas read as points unless commas separate columns."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows = [(reader.line_num, r) for r in reader if any(cell.strip() for cell in r)]
    except csv.Error as exc:
        raise HcschedError(f"{source}: line {reader.line_num} cannot be read as CSV ({exc})") from None
    if delimiter != ",":
        rows = [(line, [_decimal_comma(c) for c in r]) for line, r in rows]
    return rows


def _separator_hint(cells: list[str], delimiter: str, what: str) -> str:
    """Where ``cells`` hold a tab or semicolon that did not separate them, a hint naming both separators."""
    others = [name for d, name in DELIMITERS.items() if d not in (delimiter, ",") and any(d in c for c in cells)]
    return (f"; the columns were read as separated by {DELIMITERS[delimiter]}, but this {what} holds {others[0]}: give "
            "every row the same separator") if others else ""


def _csv_number(text: str, where: str, delimiter: str) -> float:
    """A cell's value; a cell that holds another separator says how the columns were split."""
    hint = "" if _is_number(text) else _separator_hint([text], delimiter, "cell")
    if hint:
        raise HcschedError(f"{where}: {text.strip()!r} is not a number{hint}")
    return _number(text, where)


def parse_csv_etc(text: str, source: str = "CSV", delimiter: str | None = None) -> tuple[np.ndarray, list[str] | None]:
    """Rows are tasks, columns machines; an optional header row of machine names and an optional first column of task
    names.

    The first row is a header only when none of its cells is a number (an empty first cell is the label of the task
    column, as pandas writes an index); a first row with any number is data, so a text cell among its numbers is an
    error like any other row's.

    Columns are separated by ``delimiter``, by default the one
    :func:`detect_delimiter` finds (tab, semicolon or comma); in a file not
    separated by commas, ``1,5`` reads as 1.5. The first column holds task
    labels only when every data row's first cell is non-numeric, or when a
    header row names it (its first cell empty, as pandas writes an index, or
    one of task, name, id, label). Otherwise every cell must be a number,
    and the first one that is not is named by its row (the line of the file)
    and column.
    """
    delimiter = delimiter or detect_delimiter(text)
    rows = _csv_rows(text, delimiter, source)
    if not rows:
        raise HcschedError(f"{source}: the file is empty; expected rows of ETC values "
                           "(tasks) with one column per machine")
    names = None
    if len(rows) > 1 and not any(_is_number(c) for c in rows[0][1]):  # a header: no cell a number
        names = [c.strip() for c in rows[0][1]]
        rows = rows[1:]
    labelled = all(not _is_number(r[0]) for _, r in rows) or (names is not None and names[0].lower() in LABEL_HEADERS)
    if labelled:
        rows = [(line, r[1:]) for line, r in rows]
        if names is not None and len(names) == len(rows[0][1]) + 1:
            names = names[1:]
    width = len(rows[0][1])
    if width == 0:
        raise HcschedError(f"{source}: no ETC values; expected rows of ETC values (tasks) with one column per machine")
    for line, r in rows:
        if len(r) != width:
            raise HcschedError(f"{source}: row {line} has {len(r)} values, the first has {width}; every task needs one "
                               f"value per machine{_separator_hint(r, delimiter, 'row')}")
    etc = np.array([[_csv_number(c, f"{source}: row {line}, column {j + 1 + labelled}", delimiter)
                     for j, c in enumerate(r)]
                    for line, r in rows])
    if names is not None and len(names) != width:
        names = None
    return check_etc(etc, source), names


def _hcsp_number(text: str, where: str) -> float:
    """One line's value; a line of several separated values is answered as CSV, naming its separator."""
    found = [name for d, name in DELIMITERS.items() if d in text.strip()]
    if found and not _is_number(text):
        raise HcschedError(f"{where}: {text.strip()!r} is not a number; an HCSP file has one value per line, and this "
                           f"line looks like CSV separated by {found[0]} (read it as CSV: without --machines)")
    return _number(text, where)


def parse_hcsp_etc(text: str, machines: int | None = None, source: str = "HCSP file") -> np.ndarray:
    """One value per line, task-major (value t*m + j is task t on machine j), with or without the header line ``T M
    0``."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise HcschedError(f"{source}: the file is empty; expected one ETC value per line")
    head = lines[0].split()
    if len(head) == 3:
        tasks, m = int(_number(head[0], f"{source}: header")), int(_number(head[1], f"{source}: header"))
        lines = lines[1:]
        if machines is not None and machines != m:
            raise HcschedError(f"{source}: --machines {machines} contradicts the header, which says {m} machines")
        if tasks * m != len(lines):
            raise HcschedError(f"{source}: the header says {tasks} x {m} = {tasks * m} "
                               f"values, the file has {len(lines)}")
        machines = m
    if machines is None or machines < 1:
        raise HcschedError(f"{source}: the number of machines is unknown; pass --machines M (a positive integer) for "
                           "a file without a header line")
    values = np.array([_hcsp_number(v, f"{source}: line {k + 1}") for k, v in enumerate(lines)])
    if values.size % machines:
        raise HcschedError(f"{source}: {values.size} values do not divide into rows of {machines} machines")
    return check_etc(values.reshape(-1, machines), source)


def looks_like_hcsp(text: str) -> bool:
    """True when every non-empty line holds one value (not separated by commas, semicolons or whitespace), after an
    optional HCSP header ``T M 0``."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    body = lines[1:] if lines and len(lines[0].split()) == 3 else lines
    return bool(body) and all(len(ln.replace(",", " ").replace(";", " ").split()) == 1 for ln in body[:50])


def read_etc(path: str | Path, machines: int | None = None) -> np.ndarray:
    """Read an ETC matrix (or class execution rates) from a CSV or HCSP file; the format is recognised from the content.

    A file whose lines each hold one value (after an optional ``T M 0`` header), or any file when ``machines`` is
    given, is HCSP; any other is CSV with its separator (comma, semicolon or tab) recognised by
    :func:`detect_delimiter`.

    Parameters
    ----------
    path : str or pathlib.Path
        The file: a regular file of at most ``HCSCHED_MAX_FILE_MB`` megabytes.
    machines : int, optional
        The number of machines of an HCSP file without its header line (the file is then read as HCSP).

    Returns
    -------
    numpy.ndarray
        The matrix, tasks by machines (float).

    Raises
    ------
    HcschedError
        For a file that cannot be read, a value that is not a number from 0 to ``MAX_SECONDS``, or rows of different
        lengths, naming the file, the line and what is allowed (:func:`check_etc`).
    """
    text = read_text(path, "ETC file", "a CSV or HCSP file")
    if machines is not None or looks_like_hcsp(text):
        return parse_hcsp_etc(text, machines, source=str(path))
    return parse_csv_etc(text, source=str(path))[0]


# --- uploads --------------------------------------------------------------------------------------------------------

MAX_UPLOAD_CELLS = 1_000_000  # cells of one uploaded table (HCSCHED_MAX_UPLOAD_CELLS changes it)
BYTES_PER_CELL = 64  # an upload may hold this many bytes per allowed cell (a number needs at most about 25)
CELL_ENDS = (b",", b";", b"\t", b"\n")  # what ends a cell, counted without parsing


def max_upload_cells() -> int:
    return int(env_limit("HCSCHED_MAX_UPLOAD_CELLS", MAX_UPLOAD_CELLS))


def check_upload(data: bytes, what: str, max_cells: int | None = None) -> bytes:
    """``data`` (an uploaded table's bytes), refused in one line naming ``what`` before it is parsed when it is over
    ``max_cells`` cells (by default ``HCSCHED_MAX_UPLOAD_CELLS``, 1,000,000), counted as its separators and line
    ends, or over ``BYTES_PER_CELL`` bytes per allowed cell."""
    max_cells = max_upload_cells() if max_cells is None else max_cells
    limit = f"at most {max_cells:,} cells (HCSCHED_MAX_UPLOAD_CELLS changes it)"
    if len(data) > max_cells * BYTES_PER_CELL:
        raise HcschedError(f"{what}: {len(data) / 1e6:.3g} MB is too large to read here; allowed: a table of {limit} "
                           f"and {max_cells * BYTES_PER_CELL / 1e6:.3g} MB")
    cells = sum(data.count(end) for end in CELL_ENDS) + (not data.endswith(b"\n"))  # the last line's last cell
    if cells > max_cells:
        raise HcschedError(f"{what}: about {cells:,} cells is too many to read here; allowed: a table of {limit}")
    return data
