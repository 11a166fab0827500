#!/usr/bin/env python3
"""Runs every test suite of `make test`, quietly, and ends with one line: `N passed, N failed` (`, N skipped`).

Each step's whole output goes to a log file under .build/test-logs/ (the path is printed); on the terminal a
green step is one line. A failing step prints the lines that say what failed and where its log is. Every
step has a time budget that only guards against a hang (at least three times what the step takes on a quiet
machine, so a loaded machine is slower but gives the same verdict): a step still running when it runs out is
stopped and reported "over budget", apart from failures, and the run does not pass.

Steps that do not compete for the same thing run side by side (each starts once the steps it comes `after`
have ended): the lints and the dev-server's suite during the build, which leaves a core idle much of the
time; the fleet, the README tour and bridge-js beside the Chromium suite, which mostly waits on its one
browser. The Swift suite runs alone: it keeps both cores busy. The lines are printed in the fixed order
below, each as soon as it and every step before it have ended.

Usage: scripts/run-tests.py [STEP …]   (default: every step; `--list` names them)
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / ".build" / "test-logs"
# No debug info and the toolchain's lld: a clean debug build of everything took 158 s on 2 cores with debug
# info and GNU ld, 118 s without and with lld (the tests read no DWARF; Swift Testing's failure lines carry
# their source locations themselves). Another `swift build` with other flags rebuilds from scratch.
SWIFT_FLAGS = ["-Xswiftc", "-warnings-as-errors", "-Xswiftc", "-gnone", "-Xswiftc", "-use-ld=lld"]
# Then `sclm` is linked again with the Swift runtime and Foundation in (as the release is): Tests/Debian
# packages this build's sclm and runs it in a Debian root without the toolchain. Only the link changes (a few
# seconds, no compile). A debug link keeps every object of the static Foundation, which the release's
# dead-stripping drops, so the libraries those need are named here.
STATIC_SCLM = ["--product", "sclm", "--static-swift-stdlib"] + [
    flag for library in ("_FoundationICU", "_FoundationCollections", "_FoundationCShims", "CoreFoundation",
                         "swiftSwiftOnoneSupport", "_CFURLSessionInterface", "FoundationNetworking")
    for flag in ("-Xlinker", f"-l{library}")]
# At most 24 Swift tests at once: unbounded, Swift Testing ran ~140 children side by side and the test
# process reached 2,300 descriptors, where Foundation's Process.run() can crash (swift-corelibs-foundation #5472).
SWIFT_TEST_ENV = {"SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH": "24"}
# The suites start Python a few hundred times (dev-servers, fixtures): its compiled modules are kept under
# .build/ (not beside the sources) even where the environment asks Python to write none, which would make
# every start compile the dev-server's modules again.
PYTHON_ENV = {"PYTHONPYCACHEPREFIX": str(ROOT / ".build" / "pycache")}


def step_environment(step):
    """The environment a step runs in: ours, with the Python settings above (not for the installation,
    whose packages' own scripts compile Python where the system keeps it) and the step's own."""
    if step.installs:
        return {**os.environ, **step.env}
    environment = {**os.environ, **PYTHON_ENV, **step.env}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    over_budget: int = 0  # steps stopped by their hang guard
    failures: list = field(default_factory=list)

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.over_budget += other.over_budget


@dataclass
class Step:
    name: str
    command: list
    budget: int  # seconds
    parse: object  # (output: str, status: int) -> Counts
    env: dict = field(default_factory=dict)
    needs_build: bool = False
    after: tuple = ()  # the steps (of those chosen) that must have ended before this one starts
    installs: bool = False  # installs system packages


def one_check(output, status):
    """A build, lint or install step: one check that passes or fails."""
    if status == 0:
        return Counts(passed=1)
    lines = [line for line in output.splitlines() if re.search(r"error|Error|FAIL|fail", line)]
    return Counts(failed=1, failures=lines[-15:] or output.splitlines()[-15:])


SWIFT_RESULT = re.compile(
    r'^[✔✘➜] Test (?!run with)(?:"[^"]*"|\S+)(?: with \d+ test cases?)? (?:(passed|failed) after|(skipped))')


def swift_testing(output, status):
    """Swift Testing's per-test lines: `✔ Test name() passed after …`, `✘ … failed …`, `➜ … skipped: …`."""
    counts = Counts()
    for line in output.splitlines():
        match = SWIFT_RESULT.match(line)
        if not match:
            continue
        outcome = match.group(1) or match.group(2)
        if outcome == "passed":
            counts.passed += 1
        elif outcome == "skipped":
            counts.skipped += 1
        else:
            counts.failed += 1
    if status != 0 or counts.failed:
        counts.failures = [line for line in output.splitlines() if line.startswith("✘") or "error:" in line][-40:]
        if counts.failed == 0:
            counts.failed = 1  # it crashed or failed to start: no test line says so
    if counts.passed + counts.failed + counts.skipped == 0:
        counts.failed = 1
        counts.failures = ["no Swift test ran"] + output.splitlines()[-10:]
    return counts


def unittest(output, status):
    """Python's unittest: `Ran N tests`, then `OK (skipped=K)` or `FAILED (failures=A, errors=B, skipped=C)`."""
    ran = re.search(r"^Ran (\d+) tests?", output, re.M)
    total = int(ran.group(1)) if ran else 0
    summary = re.search(r"^(OK|FAILED)(?: \((.*)\))?$", output, re.M)
    text = (summary.group(2) or "") if summary else ""
    details = {key.strip(): int(value) for key, value in re.findall(r"([\w ]+?)=(\d+)", text)}
    failed = details.get("failures", 0) + details.get("errors", 0) + details.get("unexpected successes", 0)
    skipped = details.get("skipped", 0)
    counts = Counts(passed=max(0, total - failed - skipped), failed=failed, skipped=skipped)
    if status != 0 or total == 0:
        counts.failed = max(counts.failed, 1)
        counts.failures = [
            line for line in output.splitlines() if line.startswith(("FAIL:", "ERROR:", "AssertionError", "Error"))
        ][-30:] or output.splitlines()[-15:]
    return counts


def node_test(output, status):
    """node --test's closing lines (TAP `# pass N` or the spec reporter's `ℹ pass N`)."""
    def number(word):
        match = re.search(rf"^(?:#|ℹ) {word} (\d+)$", output, re.M)
        return int(match.group(1)) if match else 0

    failed = number("fail") + number("cancelled")
    counts = Counts(passed=number("pass"), failed=failed, skipped=number("skipped") + number("todo"))
    if status != 0 or counts.passed + counts.failed == 0:
        counts.failed = max(counts.failed, 1)
        counts.failures = [line for line in output.splitlines() if re.match(r"\s*not ok|\s*✖", line)][-30:]
    return counts


# Tests/Debian's tools: the package build, lintian, the root's debootstrap and systemd-nspawn.
DEBIAN_TOOLS = "debhelper lintian debootstrap systemd-container zstd"


def steps():
    swift_test = ["swift", "test", "--skip-build", "--disable-xctest"]
    python_tests = [sys.executable, "-m", "unittest", "discover", "-v"]
    return [
        Step("deps", ["sh", "-c", "scripts/ensure-deps.sh chromium chromium-headless-shell xvfb weston nginx man-db systemd " + DEBIAN_TOOLS],
             900, one_check, installs=True),
        # The build needs only the C libraries `make deps` installed before: it starts beside the browser's
        # and the servers' installation, which mostly waits on the disk.
        Step("samples", [sys.executable, "sample-content/tools/assemble.py"], 120, one_check),
        Step("build", ["sh", "-c", 'swift build --build-tests "$@" && swift build ' + " ".join(STATIC_SCLM) + ' "$@"',
                       "build"] + SWIFT_FLAGS, 900, one_check),
        # The Debian root Tests/Debian boots (cached outside the clone: scripts/debian-root.sh), made beside
        # the build when it is missing: it mostly waits on the mirror and the disk.
        Step("debian-root", ["scripts/debian-root.sh"], 600, one_check, after=("deps",)),
        # Beside the build, one after the other.
        Step("lint-sql", ["scripts/lint-sql.sh"], 60, one_check),
        Step("lint-format", ["swift", "format", "lint", "--strict", "--recursive", "Sources", "Tests", "Package.swift"],
             180, one_check, after=("lint-sql",)),
        Step("dev-server", python_tests + ["-s", "dev-server/tests", "-t", "dev-server"], 180, unittest,
             after=("samples", "lint-format")),
        Step("swift", swift_test + ["--skip", "ChromiumTests"], 420, swift_testing, SWIFT_TEST_ENV, True,
             after=("deps", "samples", "build", "dev-server")),
        # The package built from this build and booted under systemd (Tests/Debian): beside the Swift suite,
        # as it mostly waits on dpkg, systemd and one browser.
        Step("debian", python_tests + ["-s", "Tests/Debian", "-t", "Tests/Debian"], 600, unittest, {}, True,
             after=("build", "debian-root", "dev-server")),
        # The browser suites after the others: a Chromium start takes both cores for a moment, and their
        # time limits are short. Beside them, one after the other, the suites that mostly wait on servers.
        Step("swift-chromium", swift_test + ["--filter", "ChromiumTests"], 420, swift_testing, {}, True,
             after=("swift",)),
        Step("fleet", python_tests + ["-s", "Tests/Fleet", "-t", "Tests/Fleet"], 300, unittest, {}, True,
             after=("swift",)),
        Step("readme", python_tests + ["-s", "Tests/Readme", "-t", "Tests/Readme"], 180, unittest, {}, True,
             after=("fleet",)),
        Step("bridge-js", ["node", "--test", "--test-reporter=tap", "bridge-js/"], 180, node_test, {}, True,
             after=("readme",)),
    ]


RUNNING = set()  # the steps' processes now running: an interrupt stops them (each has its own session)


def run(step):
    """Runs `step` with its output in its log file; returns (Counts, seconds, log path)."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"{step.name}.log"
    started = time.monotonic()
    with open(log, "wb") as sink:
        process = subprocess.Popen(
            step.command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.STDOUT,
            env=step_environment(step), start_new_session=True)
        RUNNING.add(process)
        try:
            status = process.wait(timeout=step.budget)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            status = process.wait()
            timed_out = True
        finally:
            RUNNING.discard(process)
    seconds = time.monotonic() - started
    output = log.read_text(errors="replace")
    counts = step.parse(output, status)
    if timed_out:
        counts.over_budget = 1
        counts.failures = [f"over budget: stopped, still running after {step.budget} s (a hang guard, at least "
                           "three times the step's quiet time; its tests so far are counted above)"] + counts.failures
    return counts, seconds, log


class Schedule:
    """Runs the chosen steps, each on its own thread once the chosen steps it comes after have ended."""

    def __init__(self, chosen):
        self.chosen = chosen
        self.ended = {step.name: threading.Event() for step in chosen}
        self.results = {}  # name -> (Counts, seconds, log) or a reason it did not run

    def start(self):
        for step in self.chosen:
            threading.Thread(target=self.run_when_ready, args=(step,), daemon=True).start()

    def run_when_ready(self, step):
        for name in step.after:
            if name in self.ended:
                self.ended[name].wait()
        build = self.results.get("build")
        if step.needs_build and build is not None and build[0].failed:
            self.results[step.name] = "not run: the build failed"
        else:
            self.results[step.name] = run(step)
        self.ended[step.name].set()

    def result(self, step):
        """The step's result, once it has ended."""
        self.ended[step.name].wait()
        return self.results[step.name]


def report(step, result, total):
    """Prints the step's line (and what failed, with its log's path) and adds its counts to `total`."""
    if isinstance(result, str):
        print(f"{step.name:<15} {result}", flush=True)
        total.failed += 1
        return
    counts, seconds, log = result
    total.add(counts)
    print(f"{step.name:<15} {summary(counts)} ({seconds:.0f} s)", flush=True)
    if counts.failed or counts.over_budget:
        for failure in counts.failures:
            print(f"    {failure}")
        print(f"    full log: {log.relative_to(ROOT)}", flush=True)


def summary(counts):
    """`N passed, N failed`, with `, N skipped` and `, N over budget` after it when some were."""
    text = f"{counts.passed} passed, {counts.failed} failed"
    text += f", {counts.skipped} skipped" if counts.skipped else ""
    return text + (f", {counts.over_budget} over budget" if counts.over_budget else "")


def main(arguments):
    chosen = steps()
    if arguments[:1] == ["--list"]:
        print("\n".join(step.name for step in chosen))
        return 0
    if arguments:
        unknown = set(arguments) - {step.name for step in chosen}
        if unknown:
            print(f"unknown step(s): {', '.join(sorted(unknown))}; see --list", file=sys.stderr)
            return 64
        chosen = [step for step in chosen if step.name in arguments]
    schedule = Schedule(chosen)
    schedule.start()
    total = Counts()
    try:
        for step in chosen:
            report(step, schedule.result(step), total)
    except KeyboardInterrupt:
        for process in list(RUNNING):
            os.killpg(process.pid, signal.SIGKILL)
        print("interrupted", file=sys.stderr)
        return 130
    print(summary(total))
    return 1 if total.failed or total.over_budget else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
