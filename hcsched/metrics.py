"""Per-trial metrics of one schedule (Maheswaran et al. 1999, section 3.1, and Caniou & Jeannot 2002), and the
:class:`Metric` that describes a results column (each model lists its own in ``Model.metrics``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Schedule:
    """Where and when each task ran; arrays indexed by task."""

    arrival: np.ndarray
    machine: np.ndarray
    start: np.ndarray
    finish: np.ndarray
    expected: np.ndarray  # ETC of each task on its machine
    actual: np.ndarray  # actual execution time of each task on its machine
    machines: int
    mapping_events: int = 0
    min_etc_machine: np.ndarray | None = None

    def to_frame(self) -> pd.DataFrame:
        """The Gantt table: task, machine, arrival, start, finish, expected, actual."""
        return pd.DataFrame({"task": np.arange(self.machine.size), "machine": self.machine, "arrival": self.arrival,
                             "start": self.start, "finish": self.finish, "expected": self.expected,
                             "actual": self.actual})


STRETCH_NOTE = ("A task of zero length has stretch 1 if it started on arrival; if it waited, its stretch is undefined "
                "and it is left out (NaN when no task has a stretch).")


def stretch(flow: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """Flow time over actual execution time per task; for a zero-length task 1 if it did not wait, else NaN."""
    if (actual > 0).all():
        return flow / actual
    with np.errstate(divide="ignore", invalid="ignore"):
        out = flow / actual
    zero = actual <= 0
    out[zero] = np.where(flow[zero] <= 0, 1.0, np.nan)
    return out


def mean_max(values: np.ndarray) -> tuple[float, float]:
    """Mean and max of the defined (non-NaN) values; NaN for none."""
    values = values[~np.isnan(values)]
    return (float(values.mean()), float(values.max())) if values.size else (float("nan"), float("nan"))


def schedule_metrics(s: Schedule) -> dict[str, float]:
    """Makespan, flow time (finish - arrival), stretch (flow / actual time), utilisation and mapping facts."""
    flow = s.finish - s.arrival
    mean_stretch, max_stretch = mean_max(stretch(flow, s.actual))
    makespan = float(s.finish.max())
    busy = float(s.actual.sum())
    return {
        "makespan": makespan,
        "sum_flow": float(flow.sum()),
        "mean_flow": float(flow.mean()),
        "max_flow": float(flow.max()),
        "mean_stretch": mean_stretch,
        "max_stretch": max_stretch,
        "utilization": busy / (s.machines * makespan) if makespan > 0 else 1.0,
        "mapping_events": int(s.mapping_events),
        "min_etc_share": float(np.mean(s.machine == s.min_etc_machine)) if s.min_etc_machine is not None
            else float("nan"),
    }


#: The plain words said beside a metric's name where a results lead first says it (:attr:`Metric.gloss`), shared by
#: the models that measure it (Maheswaran et al. section 3.1; Caniou and Jeannot section 5).
MAKESPAN_GLOSS = "when the last task ends"
MEAN_FLOW_GLOSS = "a task's time from arrival to finish, averaged"
SUM_FLOW_GLOSS = "every task's time from arrival to finish, added up"
MAX_FLOW_GLOSS = "the longest time from a task's arrival to its finish"
MAX_STRETCH_GLOSS = "the worst task's slowdown"
#: A stretch's value in a sentence (:attr:`Metric.said`): "37.8 times its run time alone".
STRETCH_SAID = ("{} times its run time alone",)


def gain_said(what: str) -> tuple[str, str]:
    """How a sentence says a gain on ``what`` against the benchmark (:attr:`Metric.said`; Caniou and Jeannot section
    6.1: 100 x (the benchmark's - this) / the benchmark's): "2.1% lower total flow time than the benchmark", a
    negative gain "3% higher makespan than the benchmark"."""
    return f"{{}} lower {what} than the benchmark", f"{{}} higher {what} than the benchmark"


LOWER_BOUND = "lower bound"
"""The benchmark that is no heuristic: a metric over its trial's bound (``Model.bound_columns``; 1 is the best
possible)."""


def add_normalized(results: pd.DataFrame, metric: str, benchmark: str, bound: str | None = None) -> pd.DataFrame:
    """``normalized_<metric>``: the metric divided by the benchmark heuristic's in the same trial (section 5.1), or,
    for the benchmark LOWER_BOUND, by the column ``bound`` of each row (NaN without one), right after the metric's
    column."""
    if benchmark == LOWER_BOUND:
        base = results[bound].to_numpy() if bound in results else np.full(len(results), np.nan)
    else:
        base = results.loc[results["heuristic"] == benchmark].set_index("trial")[metric]
        base = base.reindex(results["trial"]).to_numpy()
    results = results.copy()
    results.insert(results.columns.get_loc(metric) + 1, f"normalized_{metric}", results[metric].to_numpy() / base)
    return results


@dataclass(frozen=True)
class Metric:
    """One column of a model's results: what it is, its unit, and which way is better."""

    name: str  # the results column
    title: str
    unit: str = ""  # "s", "tasks", "%", "" for a ratio or a count
    better: str = "lower"  # "lower", "higher", or "" where neither is better
    bar: bool = False  # shown as a bar with its interval, and summarised by `hcsched run`
    table: bool = True  # in the table of means and intervals
    normalize: bool = False  # also as normalized_<name>: divided by the benchmark's value in the same trial
    doc: str = ""  # one line of help
    per: str = ""  # "machine", "class", ...: one column <name><i> per machine (or class) of the spec, not summarised
    ci: str = "auto"  # interval of the mean: "t", "bootstrap", "auto" (t unless it leaves the range), "auto-fraction"
    # how to show values (a d3 / Python format spec without the colon, e.g. ".1%"); "" for 4 significant digits
    fmt: str = ""
    # the metric this one divides by a per-trial constant (a bound): ranked as that one, no verdict of its own
    of: str = ""
    # a few plain words said beside the metric's name where a lead first says it ("makespan (when the last task ends)")
    gloss: str = ""
    # how a sentence says a value, "{}" its number: a unit in words ("{} times its run time alone"); a second form for
    # a negative value, said with its size ("{} higher makespan than the benchmark" for a gain of -3%)
    said: tuple[str, ...] = ()
    # how a line below a lead says that another heuristic wins this metric, as a verb phrase, "{}" the best value (a
    # percent as a share where a simple one is near, :func:`hcsched.formatting.share_words`): "sends fewer messages:
    # when a task arrives, it skips the load check on {} of the machines" says "But kpb sends fewer messages: when ...""
    trade: str = ""
    # how that line then says the lead's winner's own value, "{label}" its label and "{}" the value ("while {label}
    # skips {} of them": "... on half of the machines, while lpas skips only 19% of them"); "" for "(lpas: 19%)"
    trade_beside: str = ""
    # the metric this one is a part of (the same sum over some of the tasks), and why that part can move alone, said
    # where it carries most of a real change of the whole (:meth:`hcsched.compare.RunComparison.part_why`)
    part_of: str = ""
    # on such a part: the column bounding the whole without it (the most the other tasks can reach, in the whole's
    # units), said where every heuristic nears it (:func:`hcsched.verdict._carried`): why none can do better
    rest_bound: str = ""
    # on such a part: why it falls where the machines are less loaded (more of them, or tasks arriving less often),
    # said after its fall (:meth:`hcsched.compare.RunComparison.part_why`)
    lighter_why: str = ""

    @property
    def label(self) -> str:
        """The title with its unit, for axes and table headers."""
        return f"{self.title} ({self.unit})" if self.unit and self.unit != "%" else self.title

    def normalized(self) -> Metric:
        """The column ``normalized_<name>``: this metric over the benchmark heuristic's in the same trial."""
        return Metric(f"normalized_{self.name}", f"Normalised {self.title[0].lower()}{self.title[1:]}", "", self.better,
                      self.bar, self.table, doc=f"{self.title} divided by the benchmark heuristic's in the same trial "
                      "(1 is as good as the benchmark).", ci=self.ci)
