"""``--cpu-report N``: where the suite's CPU goes, per test and per file.

A benchmark-like report, not an assertion: each test's CPU is the process time its worker
spent from the start of its setup to the end of its teardown, plus the CPU of the child
processes it waited for in that time (``RUSAGE_CHILDREN``: memcli started as a subprocess,
git, shells; a detached process nobody waits for is not counted). With pytest-xdist each
worker measures its own tests and the figures travel to the controller in the reports'
``user_properties``. The summary lists the N most expensive tests and files and the total;
``--cpu-report-json PATH`` writes every test's figure as well.

What the per-test figures leave out is the cost of starting each worker (importing pytest,
memcli, hypothesis and collecting every test module): compare their total with the CPU of
the whole run (``/usr/bin/time``) to see it.
"""

from __future__ import annotations

import json
import resource
import time
from collections import defaultdict
from pathlib import Path

import pytest

_KEY = "cpu_seconds"
_CHILDREN_KEY = "cpu_seconds_of_children"
_START = pytest.StashKey[tuple[float, float]]()


def addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("cpu-report")
    group.addoption("--cpu-report", type=int, default=0, metavar="N",
                    help="print the N tests and files that took the most CPU (0: no report)")
    group.addoption("--cpu-report-json", default=None, metavar="PATH",
                    help="with --cpu-report: write every test's CPU seconds as JSON to PATH")


def _cpu() -> tuple[float, float]:
    """This process's CPU and that of the children it waited for, in seconds."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), children.ru_utime + children.ru_stime


def _on(config: pytest.Config) -> bool:
    return bool(config.getoption("--cpu-report")) or bool(config.getoption("--cpu-report-json"))


def runtest_setup(item: pytest.Item) -> None:
    if _on(item.config):
        item.stash[_START] = _cpu()


def record(item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport) -> None:
    """After the teardown: the test's CPU into the report the controller receives."""
    if call.when == "teardown" and _START in item.stash:
        (own, children), (own_start, children_start) = _cpu(), item.stash[_START]
        report.user_properties += [(_KEY, own - own_start + children - children_start),
                                   (_CHILDREN_KEY, children - children_start)]


class Collector:
    """On the controller: every test's CPU from its teardown report, then the summary."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.children: dict[str, float] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            for key, value in report.user_properties:
                if key == _KEY:
                    self.seconds[report.nodeid] = float(value)
                elif key == _CHILDREN_KEY:
                    self.children[report.nodeid] = float(value)

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter,
                                config: pytest.Config) -> None:
        path = config.getoption("--cpu-report-json")
        if path:
            both = {nodeid: [seconds, self.children.get(nodeid, 0.0)]
                    for nodeid, seconds in self.seconds.items()}
            Path(path).write_text(json.dumps(both, indent=0, sort_keys=True) + "\n", "utf-8")
        count = int(config.getoption("--cpu-report"))
        if not count:
            return
        files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
        for nodeid, seconds in self.seconds.items():
            files[nodeid.split("::")[0]][0] += seconds
            files[nodeid.split("::")[0]][1] += self.children.get(nodeid, 0.0)
        write = terminalreporter.write_line
        terminalreporter.section("CPU per test, seconds: in all (of which in child processes)")
        for nodeid, seconds in sorted(self.seconds.items(), key=lambda kv: -kv[1])[:count]:
            write(f"{seconds:8.2f} ({self.children.get(nodeid, 0.0):6.2f})  {nodeid}")
        terminalreporter.section("CPU per file, seconds: in all (of which in child processes)")
        for name, (seconds, children) in sorted(files.items(), key=lambda kv: -kv[1][0])[:count]:
            write(f"{seconds:8.2f} ({children:6.2f})  {name}")
        write(f"{sum(self.seconds.values()):8.2f} ({sum(self.children.values()):6.2f})  "
              f"in all, {len(self.seconds)} tests")


def configure(config: pytest.Config) -> None:
    # xdist's workers have `workerinput`; only the controller (or a -n 0 run) summarises.
    if _on(config) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Collector(), "cpu-report-collector")
