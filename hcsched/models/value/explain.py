"""One mapping event of the paper's worked examples (Kim et al. 2007, Tables 2-5), step by step: the values each
rebuilding heuristic compares (fitness, completion time, relative cost, percentage slack) and the pairs it maps.

Plain Python and pandas, written for reading, not speed; the pairs it finds are the numba kernels' ones
(:func:`hcsched.models.value.engine.one_event`; tests/models/value/test_value.py checks that they agree). The examples
assume equal priorities and "a task that misses D100 meets D50" (section 4.2), so D50 and D25 are far in the future
here. Tasks are t1, t2 and machines m1, m2 as in the paper (1-based); rows are the mappable tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from hcsched.models.value.sufferage import percentage_slack
from hcsched.models.value.worth import deadline_factor

FAR = 1e9  # D50 and D25 of the examples: "assumed to meet D50"


@dataclass(frozen=True)
class Example:
    title: str
    text: str
    etc: tuple[tuple[float, ...], ...]
    d100: tuple[float, ...]
    mat: tuple[float, ...]

    def frame(self) -> pd.DataFrame:
        e = np.array(self.etc)
        out = pd.DataFrame({"task": [f"t{i + 1}" for i in range(e.shape[0])], "D100": self.d100})
        for j in range(e.shape[1]):
            out[f"ETC on m{j + 1}"] = e[:, j]
        return out


@dataclass
class Step:
    """What a heuristic compared: one table per round, the pairs mapped (task, machine, completion; 1-based)."""

    text: str
    tables: list[pd.DataFrame] = field(default_factory=list)
    mapped: list[tuple[int, int, float]] = field(default_factory=list)


EXAMPLES = {
    "table2": Example("Tables 2 and 3: Max-Max against Slack Sufferage",
                      "mat = (5, 155). Max-Max maps t2 then t1 to m1, both meeting D100; Slack Sufferage maps the more "
                      "critical t1 first, and t2 then misses D100 everywhere (sections 4.2 and 4.7).",
                      ((38.0, 20.0), (3.0, 10.0)), (160.0, 10.0), (5.0, 155.0)),
    "table4": Example("Tables 4 and 5: Max-Max misses a deadline Slack Sufferage meets",
                      "mat = (4, 8). Max-Max maps t2 to m2, then t1 compares 1/9 = 0.1111 on m1 with 0.5/4.4 = 0.1136 "
                      "on m2 and misses D100 there; Slack Sufferage maps t1 to m2 and t2 to m1, both in time.",
                      ((9.0, 4.4), (5.0, 4.0)), (16.0, 13.0), (4.0, 8.0)),
}


def _d(ct: float, d100: float) -> float:
    return deadline_factor(ct, d100, FAR, FAR)


def _table(rows: dict[str, list], title: str) -> pd.DataFrame:
    t = pd.DataFrame(rows)
    t.attrs["title"] = title
    return t


def max_max(e: np.ndarray, d100: np.ndarray, mat: np.ndarray) -> Step:
    s = Step("Max-Max (section 4.2): fitness = worth / ETC with worth = p d(CT), p = 1. Each task's best machine, then "
             "the best pair is mapped and mat updated.")
    left = list(range(e.shape[0]))
    r = 0
    while left:
        r += 1
        rows: dict[str, list] = {"task": [], "machine": [], "CT": [], "d(CT)": [], "fitness": []}
        best = None
        for i in left:
            for j in range(e.shape[1]):
                ct = mat[j] + e[i, j]
                f = _d(ct, d100[i]) / e[i, j]
                rows["task"].append(f"t{i + 1}"), rows["machine"].append(f"m{j + 1}"), rows["CT"].append(ct)
                rows["d(CT)"].append(_d(ct, d100[i])), rows["fitness"].append(round(f, 4))
                if best is None or f > best[0]:  # first on ties: lowest task, then lowest machine
                    best = (f, i, j)
        _, i, j = best
        mat[j] += e[i, j]
        s.tables.append(_table(rows, f"Round {r}: the largest fitness is t{i + 1} on m{j + 1}"))
        s.mapped.append((i + 1, j + 1, float(mat[j])))
        left.remove(i)
    return s


def min_max_min(e: np.ndarray, mat: np.ndarray, maximize: bool) -> Step:
    name = "Max-Min" if maximize else "Min-Min"
    s = Step(f"{name} (section 4.3): each task's minimum completion time (MCT) machine; the pair with the "
             f"{'largest' if maximize else 'smallest'} MCT is mapped. No priority or deadline enters (step 7 then "
             "reorders each queue by priority and deadlines met; here one task per queue, so nothing moves).")
    left = list(range(e.shape[0]))
    r = 0
    while left:
        r += 1
        rows: dict[str, list] = {"task": [], "MCT machine": [], "MCT": []}
        pick = None
        for i in left:
            ct = mat + e[i]
            j = int(np.argmin(ct))
            rows["task"].append(f"t{i + 1}"), rows["MCT machine"].append(f"m{j + 1}"), rows["MCT"].append(ct[j])
            better = pick is None or (ct[j] > pick[0] if maximize else ct[j] < pick[0])
            if better:
                pick = (ct[j], i, j)
        _, i, j = pick
        mat[j] += e[i, j]
        s.tables.append(_table(rows, f"Round {r}: t{i + 1} on m{j + 1}"))
        s.mapped.append((i + 1, j + 1, float(mat[j])))
        left.remove(i)
    return s


def slack_sufferage(e: np.ndarray, d100: np.ndarray, mat: np.ndarray) -> Step:
    s = Step("Slack Sufferage (section 4.7): PS = 1 - ETC / (D100 - mat), -1 where D100 is missed (D50 when it is "
             "missed everywhere). Each task picks its largest PS; tasks on different machines are all mapped, a "
             "contended machine goes to the most critical task (best PS minus second best, counting -1).")
    left = list(range(e.shape[0]))
    r = 0
    while left:
        r += 1
        ps = percentage_slack(e[left], d100[left], mat)
        deadline = ["D100"] * len(left)
        for a, i in enumerate(left):
            if (ps[a] < 0).all():  # misses D100 everywhere: D50 (far away in the examples)
                ps[a] = percentage_slack(e[[i]], [FAR], mat)[0]
                deadline[a] = "D50"
        rows: dict[str, list] = {"task": [f"t{i + 1}" for i in left], "deadline used": deadline}
        for j in range(e.shape[1]):
            rows[f"PS on m{j + 1}"] = np.round(ps[:, j], 4)
        srt = np.sort(ps, axis=1)
        crit = srt[:, -1] - (srt[:, -2] if ps.shape[1] > 1 else -1.0)
        rows["criticality"] = np.round(crit, 4)
        worth = np.array([1.0 if d == "D100" else 0.5 for d in deadline])
        top = [a for a in range(len(left)) if worth[a] == worth.max()]
        winners: dict[int, int] = {}
        for a in top:
            j = int(np.argmax(ps[a]))
            if j not in winners or crit[a] > crit[winners[j]]:
                winners[j] = a
        done = []
        for j in sorted(winners):
            i = left[winners[j]]
            mat[j] += e[i, j]
            s.mapped.append((i + 1, j + 1, float(mat[j])))
            done.append(i)
        s.tables.append(_table(rows, f"Round {r}: mapped " + ", ".join(f"t{i + 1}" for i in done)))
        left = [i for i in left if i not in done]
    return s


def relative_cost(e: np.ndarray, d100: np.ndarray, mat: np.ndarray) -> Step:
    s = Step("Relative Cost (section 4.6): RC = MCT / mean CT over the machines, worth = p d(MCT). The tasks of the "
             "highest worth are mapped to their MCT machines; a contended machine goes to the lowest RC.")
    left = list(range(e.shape[0]))
    r = 0
    while left:
        r += 1
        ct = mat[None, :] + e[left]
        j_best = ct.argmin(axis=1)
        mct = ct.min(axis=1)
        rc = mct / ct.mean(axis=1)
        worth = np.array([_d(mct[a], d100[i]) for a, i in enumerate(left)])
        rows = {"task": [f"t{i + 1}" for i in left], "MCT machine": [f"m{j + 1}" for j in j_best], "MCT": mct,
                "mean CT": ct.mean(axis=1), "RC": np.round(rc, 4), "worth": worth}
        winners: dict[int, int] = {}
        for a in range(len(left)):
            if worth[a] == worth.max():
                j = int(j_best[a])
                if j not in winners or rc[a] < rc[winners[j]]:
                    winners[j] = a
        done = []
        for j in sorted(winners):
            i = left[winners[j]]
            mat[j] += e[i, j]
            s.mapped.append((i + 1, j + 1, float(mat[j])))
            done.append(i)
        s.tables.append(_table(rows, f"Round {r}: mapped " + ", ".join(f"t{i + 1}" for i in done)))
        left = [i for i in left if i not in done]
    return s


def max_min(e: np.ndarray, d100: np.ndarray, mat: np.ndarray) -> Step:
    """Max-Min's steps (section 4.3)."""
    return min_max_min(e, mat, True)


def min_min(e: np.ndarray, d100: np.ndarray, mat: np.ndarray) -> Step:
    """Min-Min's steps (section 4.3)."""
    return min_max_min(e, mat, False)


def assignment(name: str, ex: Example, pairs: list[tuple[int, int]]) -> Step:
    """What Explain shows of a plug-in heuristic: only the (task, machine) pairs its rule returned on the example, in
    the order they are appended (a rule's own values are not visible), with each machine's completion."""
    mat, e = np.array(ex.mat, float), np.array(ex.etc, float)
    s = Step(f"{name} is a plug-in heuristic: Explain shows only the assignment its rule returned on this event, in "
             "the order the tasks are appended to the queues, not the values it compared.")
    for i, j in pairs:
        mat[j] += e[i, j]
        s.mapped.append((i + 1, j + 1, float(mat[j])))
    s.tables.append(_table({"task": [f"t{i + 1}" for i, _ in pairs], "machine": [f"m{j + 1}" for _, j in pairs],
                            "done at": [c for _, _, c in s.mapped]}, "The rule's pairs, in order"))
    return s


def explain_event(ex: Example, heuristics) -> dict[str, Step]:
    """The steps on one worked example of each heuristic in ``heuristics`` that Explain shows (its ``explain``), by
    name (tests/models/value/test_value.py checks the pairs against each heuristic's kernel)."""
    out = {}
    for h in heuristics:
        step = h.explain(ex)
        if step is not None:
            out[h.name] = step
    return out
