"""The interface every system model implements (its metric descriptions, :class:`~hcsched.metrics.Metric`, live
with the metrics).

A model is one of the seed papers' systems: what a scenario of it contains
(its frozen, validated spec), how one trial's workload is drawn, how one
heuristic runs on it, and how a run is measured. The engine-agnostic layers
(``experiment``, the CLI, the dashboard's results view) only call these
methods; nothing outside ``hcsched/models/`` branches on a model's name. In
the spirit of Ciw's and SimPy's plug-ins, each step is one method.

Contract (checked by ``tests/test_models_contract.py`` for every model):

- ``workload(spec, seed_seq)`` draws everything random of a trial from
  ``seed_seq`` alone, so that every heuristic of the trial sees the same
  arrivals, expected and actual times (common random numbers);
- ``run(spec, heuristic, workload)`` is deterministic given its inputs;
- ``measure(spec, heuristic, run)`` returns one flat dict whose keys are the
  columns its :class:`Metric` descriptions promise (normalised columns are
  added by ``experiment``);
- ``schedule(run)`` returns the :class:`~hcsched.metrics.Schedule` of a run
  (tasks that never start or finish have non-finite start or finish).
- ``scale(spec)`` is the size of one trial, (tasks, machines): the tasks and
  machines of its schedules, the tasks within a quarter where arrivals are
  random.

A model may also bring its own subcommands of the ``hcsched`` command and its
own public functions (the ETC model's ``hcsched map`` and ``map_tasks``): its
``commands_module`` lists them as ``COMMANDS`` (:class:`Command`) and
``FUNCTIONS``.
"""

from __future__ import annotations

import abc
import argparse
import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.metrics import Metric, Schedule
from hcsched.sweep_spec import SweepPreset

if TYPE_CHECKING:
    from hcsched.scenario import HeuristicSpec, Scenario


@dataclass(frozen=True)
class Command:
    """A subcommand of the ``hcsched`` command that a model brings (``hcsched map``, ``hcsched lp``).

    ``add_arguments(parser)`` adds its arguments to its :mod:`argparse` parser; ``run(args)`` runs it. With
    ``scenario``, the command line also takes a scenario file or ``--preset NAME`` and ``--seed`` (as ``hcsched
    run`` does), and ``run(args, scenario)`` receives the scenario loaded. Bad input raises
    :class:`~hcsched.errors.HcschedError`, which the CLI prints as one line with exit status 2.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[..., None]
    scenario: bool = False


class Model(abc.ABC):
    """A system model. Subclasses set the class attributes and implement the abstract methods (marked 'Required'):
    a class missing one fails when it is instantiated, naming it. Presets, sweeps, claims and the rest have defaults."""

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        """A model class missing a required method fails where it is defined, naming what it lacks (not later, when
        a scenario first asks for it); ``class Base(Model, abstract=True)`` defers the check to its subclasses."""
        super().__init_subclass__(**kwargs)
        missing = sorted(n for n in dir(cls) if getattr(getattr(cls, n, None), "__isabstractmethod__", False))
        if missing and not abstract:
            raise TypeError(f"model class {cls.__name__} does not implement {', '.join(missing)} (required by "
                            "hcsched.models.base.Model)")

    name: str = ""  # the scenario's "model" key
    title: str = ""
    paper: str = ""  # authors, venue and year
    paper_title: str = ""  # the paper's own title
    summary: str = ""  # the system in one sentence, for readers who have not read the paper
    spec_type: type = object  # the frozen, validated dataclass of the scenario keys this model adds
    spec_keys: frozenset[str] = frozenset()  # those keys, as written in a scenario file
    metrics: tuple[Metric, ...] = ()  # the columns of measure(), in order
    benchmarks: tuple[str, ...] = ()  # heuristic labels tried, in order, as the default benchmark
    # metric -> the results column of a bound on it that no mapping beats; with any, the benchmark LOWER_BOUND
    # (hcsched.metrics) is offered: the metric normalised to its bound instead of a heuristic's value
    bound_columns: Mapping[str, str] = MappingProxyType({})
    trial_word: str = "trial"  # one run of the workload; one word in every model (a paper's "replication" in its docs)
    time_unit: str = "s"  # the unit of arrival, start and finish times
    compile_seconds: float = 10.0  # about how long its kernels take to compile into an empty numba cache (one core)
    default_preset: str = ""  # the preset the dashboard loads when a user switches to this model
    schedule_columns: tuple[str, ...] = ()  # columns of its own in the schedules table
    heuristics: tuple = ()  # its built-in Heuristic objects (hcsched.heuristics.Heuristic); plug-ins join them
    dedicated: bool = True  # a machine runs one task at a time (False: time-shared servers)
    every_task_done: bool = True  # every task of a trial is mapped and finishes (False where some may not)
    commands_module: str = ""  # the module of its own COMMANDS and FUNCTIONS, e.g. "hcsched.models.etc.commands"

    # --- scenario --------------------------------------------------------------------------------
    def make_spec(self, **fields: Any) -> Any:
        """The spec from Python keyword arguments (``Scenario(machines=4, ...)``)."""
        return self.spec_type(**fields)

    def replace_spec(self, spec: Any, **changes: Any) -> Any:
        return dataclasses.replace(spec, **changes)

    @abc.abstractmethod
    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> Any:
        """Required: the spec from the scenario's keys in ``spec_keys`` (a file's JSON or TOML form)."""
        raise NotImplementedError

    @abc.abstractmethod
    def spec_to_dict(self, spec: Any) -> dict[str, Any]:
        """Required: the inverse of :meth:`spec_from_dict`."""
        raise NotImplementedError

    def describe(self, spec: Any) -> str:
        """A one-line size of the system, e.g. "8 machines, 200 tasks"."""
        return f"{spec.machines} machines, {spec.tasks} tasks"

    def headline(self, spec: Any) -> str:
        """A fact every results view states beside the scenario's name (e.g. the LP's lambda*), or ""."""
        return ""

    @abc.abstractmethod
    def scale(self, spec: Any) -> tuple[int, int]:
        """Required: about how many tasks one trial maps (the expected number where arrivals are random) and onto how
        many machines (or servers, processors): the size a dashboard's cap on a scenario's size reads (tasks x machines
        x trials)."""
        raise NotImplementedError(f"model {self.name!r} ({type(self).__name__}) does not implement scale(spec): the "
                                  "tasks and machines of one trial, which a cap on a scenario's size reads")

    # --- one trial -------------------------------------------------------------------------------
    @abc.abstractmethod
    def workload(self, spec: Any, seed_seq: np.random.SeedSequence) -> Any:
        """Required: one trial's workload, drawn from ``seed_seq`` alone."""
        raise NotImplementedError

    @abc.abstractmethod
    def run(self, spec: Any, heuristic: HeuristicSpec, workload: Any) -> Any:
        """Required: simulate one heuristic on one workload; a Schedule or an object with ``.schedule``."""
        raise NotImplementedError

    @abc.abstractmethod
    def measure(self, spec: Any, heuristic: HeuristicSpec, run: Any) -> dict[str, Any]:
        """Required: one flat row of metrics of a run."""
        raise NotImplementedError

    def schedule(self, run: Any) -> Schedule:
        """The Schedule of a run (for Gantt charts and the schedules table)."""
        return getattr(run, "schedule", run)

    def schedule_extras(self, run: Any) -> dict[str, np.ndarray]:
        """Per-task columns of this model's own in the schedules table (``schedule_columns``)."""
        return {}

    def schedule_frame(self, run: Any) -> pd.DataFrame:
        """task, machine, arrival, start, finish, expected, actual and this model's own columns; NaN where a task
        never started or finished."""
        frame = self.schedule(run).to_frame()
        for col in ("start", "finish"):
            frame[col] = frame[col].where(np.isfinite(frame[col]))
        for col, values in self.schedule_extras(run).items():
            frame[col] = values
        return frame

    # --- results ---------------------------------------------------------------------------------
    def family_size(self, spec: Any, per: str) -> int:
        """How many columns a metric ``per`` machine (or class, ...) has for this spec."""
        return {"machine": spec.machines}[per]

    def columns(self, spec: Any = None) -> tuple[Metric, ...]:
        """Every metric column of a results table, normalised ones right after their metric; with ``spec``, a
        family of columns per machine (or class) expanded to one column each."""
        out: list[Metric] = []
        for m in self.metrics:
            if m.per:
                if spec is not None:
                    out += [dataclasses.replace(m, name=f"{m.name}{i}", title=f"{m.title}, {m.per} {i}", per="")
                            for i in range(self.family_size(spec, m.per))]
            else:
                out += [m, m.normalized()] if m.normalize else [m]
        return tuple(out)

    def metric(self, name: str) -> Metric:
        """The metric of that name: a column of :meth:`columns` (a normalised one too), or a family's (per machine,
        class, ...) description; an unknown name is an error naming the model's metrics."""
        for m in (*self.columns(), *self.metrics):
            if m.name == name:
                return m
        raise HcschedError(f"metric {name!r}: not a metric of the {self.name!r} model; allowed: "
                           f"{', '.join(m.name for m in self.columns())}")

    def bar_metrics(self) -> tuple[Metric, ...]:
        return tuple(m for m in self.columns() if m.bar)

    def table_metrics(self) -> tuple[Metric, ...]:
        return tuple(m for m in self.columns() if m.table)

    def interval_methods(self) -> dict[str, str]:
        """Each metric column's confidence-interval method (for :func:`hcsched.stats.summarize`)."""
        return {m.name: m.ci for m in self.columns()}

    def normalizes(self) -> bool:
        """Whether some metric is normalised to a benchmark heuristic."""
        return any(m.normalize for m in self.metrics)

    def warnings(self, results: pd.DataFrame) -> list[str]:
        """Plain-text warnings about a results table (e.g. unstable runs); markdown ``**`` marks names."""
        return []

    def overloaded(self, results: pd.DataFrame) -> tuple[str, ...]:
        """The heuristics (labels) that kept up with the arrivals in no trial of ``results``: their queues grow for
        the whole run, so a mean over it measures the run's length more than the mapping. None by default (a model
        whose arrivals never outrun its machines)."""
        return ()

    def overload_words(self, spec: Any) -> str:
        """Why no mapping keeps up with a scenario's arrivals, in words for a sentence ("the machines cannot keep up
        whatever the mapping"), or "" where some mapping can (by default)."""
        return ""

    def trial_bytes(self, spec: Any) -> int:
        """The peak bytes of one trial (its workload and a heuristic's run), from the spec's sizes alone: nothing may
        be drawn or allocated to know it (a cap on a run's memory asks it before anything is). This default assumes
        a few tasks x machines matrices of float64; a model counts its own arrays."""
        tasks, machines = self.scale(spec)
        return 8 * (6 * tasks * machines + 32 * tasks + 32 * machines)

    def trial_seconds(self, spec: Any, heuristics: tuple[HeuristicSpec, ...]) -> float:
        """A rough wall time of one trial on one core (for the estimate before a run): each heuristic's own cost
        model (:meth:`hcsched.heuristics.Heuristic.trial_seconds`) summed; a model adds its workload's draw."""
        return sum(h.heuristic.trial_seconds(spec, h) for h in heuristics)

    # --- heuristics of one's own ---------------------------------------------------------------------
    @abc.abstractmethod
    def plugin(self, rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str,
               paper: str, origin: str, **capabilities: Any) -> Any:
        """Required: a heuristic of this model (:class:`hcsched.heuristics.Heuristic`) around a user's decision
        function ``rule`` (the model's plug-in interface, ``hcsched/models/NAME/plugin.py``); called by
        :func:`hcsched.heuristic`. ``capabilities`` are this model's own (e.g. the ETC model's ``mode``); an unknown
        one is an :class:`~hcsched.errors.HcschedError` naming those allowed. Every model has one: a user's heuristic
        enters each model the way the papers' do."""

    def explain_problem(self, scenario: Scenario, heuristic: HeuristicSpec) -> str | None:
        """Where this model has Explain: why the Explain trace of ``heuristic``'s decisions on the scenario's first
        trial does not end in the assignment its run made, or None when it does (checked by
        :func:`hcsched.testing.check_heuristic`). Without Explain: None."""
        return None

    def presets(self) -> dict[str, Callable[[], Scenario]]:
        """Named scenarios of this model (the paper's experiments)."""
        return {}

    def sweeps(self) -> dict[str, SweepPreset]:
        """Built-in sweeps of this model (the papers' curves)."""
        return {}

    def claims(self) -> tuple:
        """The paper's published claims (:class:`hcsched.claims.Claim`), each with the scenario that tests it."""
        return ()

    @abc.abstractmethod
    def tiny(self) -> Scenario:
        """Required: a small scenario that runs in well under a second (contract tests, docs)."""
        raise NotImplementedError

    # --- its own commands and functions ---------------------------------------------------------------
    def _commands_module(self) -> ModuleType | None:
        """``commands_module``, imported on first use. The model names it rather than importing it, as a plug-in
        names its entry point: the commands are built on the model (they use its spec, engine and ``MODEL``), so the
        model's package sits below them, and ``import hcsched`` does not load them."""
        return importlib.import_module(self.commands_module) if self.commands_module else None

    def commands(self) -> tuple[Command, ...]:
        """Its own subcommands of the ``hcsched`` command (``COMMANDS`` of its ``commands_module``)."""
        module = self._commands_module()
        return tuple(module.COMMANDS) if module else ()

    def functions(self) -> dict[str, Any]:
        """Its own public functions and classes by name (``FUNCTIONS`` of its ``commands_module``), reached as
        ``hcsched.NAME.function`` (``hcsched.etc.map_tasks``) or, as before, ``hcsched.function``."""
        module = self._commands_module()
        return {f.__name__: f for f in module.FUNCTIONS} if module else {}

    def warm_up(self) -> None:
        """Compile this model's numba kernels, if any (called before worker processes fork); none by default."""
        return None
