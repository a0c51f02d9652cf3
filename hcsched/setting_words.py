"""Every model's scenario settings as people say them: the words and unit of each flat key (``"arrivals.rate"`` ->
"arrival rate", tasks/s), for change lines, run titles and claim charts. Each model's spec module documents the
setting itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Setting:
    """A scenario setting as people say it: its words, its unit, and whether changing it changes the work itself."""

    words: str  # "arrival rate"
    unit: str = ""  # "s", "tasks/s" (a rate, said per second, minute, hour or day, whichever reads best), "Mbit/s", ...
    workload: bool = False  # the tasks (or what they earn) differ: a metric's numbers before and after are not like
    # for like, so a better-looking number may come from an easier workload rather than a better schedule


RATE = "tasks/s"  # a rate's unit: said per second, minute, hour or day, whichever reads best
#: Every setting of every model's scenario, by its flat key (:func:`hcsched.compare.flat_settings`): the words and
#: unit a change line or a run's title says it in (each model's spec module documents the setting).
SETTINGS: dict[str, Setting] = {
    # the ETC model (Maheswaran et al.)
    "machines": Setting("machines"),
    "tasks": Setting("tasks", workload=True),
    "etc.method": Setting("expected times drawn by", workload=True),
    "etc.task_het": Setting("task heterogeneity", workload=True),
    "etc.machine_het": Setting("machine heterogeneity", workload=True),
    "etc.task_mean": Setting("mean expected time to compute", "s", workload=True),
    "etc.task_cov": Setting("task heterogeneity, as a coefficient of variation", workload=True),
    "etc.machine_cov": Setting("machine heterogeneity, as a coefficient of variation", workload=True),
    "etc.consistency": Setting("consistency of the expected times", workload=True),
    "etc.semiconsistent_mode": Setting("semi-consistent part made by", workload=True),
    "etc.matrix": Setting("matrix of expected times", workload=True),
    "arrivals.process": Setting("arrivals", workload=True),
    "arrivals.rate": Setting("arrival rate", RATE, workload=True),
    "actual.model": Setting("actual times drawn by", workload=True),
    "actual.cov": Setting("spread of actual times, as a coefficient of variation", workload=True),
    "lower_bound": Setting("lower bounds computed"),
    # the task-class model (Al-Azzoni and Down)
    "arrival_rates": Setting("arrival rates per class", "tasks per time unit", workload=True),
    "exec_rates": Setting("execution rates"),
    "exec_as": Setting("execution numbers read as"),
    "groups": Setting("machines per group"),
    "service": Setting("service times drawn by", workload=True),
    "long_branch": Setting("probability of the long service phase", workload=True),
    "horizon": Setting("time simulated", "time units"),
    "warmup": Setting("warm-up left out", "time units"),
    # the estimation model (Page et al.)
    "processors.count": Setting("processors"),
    "processors.speed": Setting("fastest processor speed", "Mflop/s"),
    "processors.ratio": Setting("slowest to fastest processor speed"),
    "processors.speeds": Setting("processor speeds", "Mflop/s"),
    "processors.names": Setting("processor names"),
    "processors.busy": Setting("share of time owners take a processor"),
    "processors.busy_level": Setting("processor share left while its owner works"),
    "processors.busy_period": Setting("mean owner period", "s"),
    "processors.benchmark_noise": Setting("noise of the speed benchmark"),
    "network.bandwidth": Setting("network bandwidth", "Mbit/s"),
    "network.latency": Setting("mean network latency", "s"),
    "problems": Setting("problems", workload=True),
    "trace.tasks": Setting("tasks of the trace", workload=True),
    "estimator.method": Setting("estimator"),
    "estimator.n": Setting("observations the estimator keeps"),
    "estimator.L": Setting("share the estimator's smoothing drops"),
    "estimator.nu": Setting("estimator's smoothing weight"),
    "estimator.weights": Setting("estimator's weights"),
    "estimator.error": Setting("predicted error from"),
    "estimator.eps": Setting("floor of the predicted error"),
    "mapping": Setting("mapping at"),
    # the time-shared model (Caniou and Jeannot)
    "servers": Setting("servers"),
    "servers.speed_mflops": Setting("server speeds", "Mflop/s"),
    "servers.bandwidth_mbit": Setting("server bandwidths", "Mbit/s"),
    "servers.name": Setting("server names"),
    "tasks.arrival": Setting("task arrival times", "s", workload=True),
    "tasks.input_mb": Setting("task input sizes", "MB", workload=True),
    "tasks.mflop": Setting("task computations", "Mflop", workload=True),
    "tasks.output_mb": Setting("task output sizes", "MB", workload=True),
    "speed_mflops": Setting("range of server speeds", "Mflop/s"),
    "bandwidth_mbit": Setting("bandwidth", "Mbit/s"),
    "size_mb": Setting("range of data sizes", "MB", workload=True),
    "compute_ratio": Setting("least compute time over transfer time", workload=True),
    "max_compute_s": Setting("longest compute time", "s", workload=True),
    "transfer": Setting("transfers drawn as", workload=True),
    "mean_interarrival": Setting("mean time between arrivals", "s", workload=True),
    "arrivals": Setting("gaps between arrivals drawn as", workload=True),
    "duplex": Setting("network duplex"),
    "reference": Setting("heuristic the gains compare with", workload=True),
    "tie_tolerance": Setting("scores counted as tied within", "s"),
    "same_tolerance": Setting("finishes counted as the same within", "s", workload=True),
    # the value model (Kim et al.)
    "duration": Setting("arrival period", "s", workload=True),
    "startup": Setting("start-up period", "s", workload=True),
    "startup_gap": Setting("mean gap between arrivals at start-up", "s", workload=True),
    "gap": Setting("mean gap between arrivals", "s", workload=True),
    "bursts": Setting("bursts", workload=True),
    "burst_length": Setting("burst length", "s", workload=True),
    "burst_gap": Setting("mean gap between arrivals in a burst", "s", workload=True),
    "window": Setting("evaluation window", "s", workload=True),
    "task_mean": Setting("mean task time", "s", workload=True),
    "heterogeneity": Setting("heterogeneity", workload=True),
    "task_cov": Setting("task heterogeneity, as a coefficient of variation", workload=True),
    "machine_cov": Setting("machine heterogeneity, as a coefficient of variation", workload=True),
    "atc_cov": Setting("spread of actual times, as a coefficient of variation", workload=True),
    "priority_shares": Setting("shares of high, medium and low priority", workload=True),
    "weighting": Setting("priority weighting", workload=True),
    "weights": Setting("priority weights", workload=True),
    "deadlines": Setting("deadlines", workload=True),
    "multipliers": Setting("deadline multipliers", workload=True),
    "deadline_constant": Setting("deadline constant", "s", workload=True),
    "machine_available": Setting("machines free, as the mappers see it, by"),
    "event_timing": Setting("mapping events timed"),
    # a claim's sweep over a heuristic's parameter (hcsched/models/etc/claims.py: KPB alone, its k swept)
    "heuristics.0.k": Setting("share of machines KPB considers", "%"),
}


def setting_of(key: str) -> Setting:
    """A setting's words (:data:`SETTINGS`); a key of a model not in it said with spaces, its work assumed changed."""
    return SETTINGS.get(key) or Setting(key.replace(".", " ").replace("_", " "), workload=True)


def setting_value(key: str, value: Any) -> str:
    """One value of a setting in words and its unit, as a claim's chart and check name a point of a sweep: "estimator
    smoothed", "share of machines KPB considers 10%", "arrival rate 0.005 tasks/s"; never
    "estimator.method=smoothed"."""
    s = setting_of(key)
    shown = f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    return f"{s.words} {shown}" + ("" if not s.unit else s.unit if s.unit == "%" else f" {s.unit}")
