"""The environment variables through which coverage measures the test suite's subprocesses.

The README's coverage command (`coverage run -m pytest`, with `patch = ["subprocess"]` in
pyproject.toml) puts its configuration in COVERAGE_PROCESS_CONFIG; a .pth file that coverage
installs starts measuring every Python process that finds it in its environment. Tests that
build a subprocess's environment keep it (they start from os.environ). Two kinds of process
run without it: one that may not write any file (RLIMIT_FSIZE=0) could not write its data
file and would print coverage's failure into the stderr under test, and one whose loaded
modules are what the test checks (the import guard) would list coverage's own imports.
"""

from __future__ import annotations

from collections.abc import Mapping

COVERAGE_VARIABLES = ("COVERAGE_PROCESS_CONFIG", "COVERAGE_PROCESS_START")


def unmeasured(env: Mapping[str, str]) -> dict[str, str]:
    """env without the variables that start coverage in a Python subprocess."""
    return {k: v for k, v in env.items() if k not in COVERAGE_VARIABLES}
