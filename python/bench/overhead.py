"""Measures what the plugin costs: a session's start, and the ``mockrouter`` fixture's work per test.

- Start: from looking for the command (and checking Node.js) to the server's ready line, ``--runs`` times.
- Per test: the fixture's setup (``POST /__mock/reset`` on the kept connection) and one ``requests()`` call on the
  empty journal (the journal's scope), ``--tests`` times on one server; then the same inside pytest: a session of
  ``--tests`` tests that take the fixture against one whose tests take only ``mockrouter_server`` (no reset), the
  difference per test.

Run it in an environment with the plugin installed: ``python python/bench/overhead.py --bin bin/mockrouter.js``.
Prints medians and 90th percentiles, ms.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from pytest_mockrouter.locate import find_server, with_node
from pytest_mockrouter.options import Settings
from pytest_mockrouter.session import ServerSession


def percentiles(samples_s):
    """``median / p90`` of samples in seconds, as ms."""
    ordered = sorted(samples_s)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    return f"median {statistics.median(ordered) * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms"


def session_wall_s(folder: Path, fixture: str, tests: int, binary: str) -> float:
    """Seconds a pytest session of ``tests`` tests taking ``fixture`` spends in its tests (its own report)."""
    (folder / "test_many.py").write_text(
        textwrap.dedent(
            f"""
            import pytest

            @pytest.fixture(scope="session", autouse=True)
            def started(mockrouter_server):
                pass

            @pytest.mark.parametrize("n", range({tests}))
            def test_one({fixture}, n):
                {fixture}.requests() if "{fixture}" == "mockrouter" else None
            """
        )
    )
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--mockrouter-bin", binary, str(folder)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=None, help="the mockrouter command (default: as the plugin finds it)")
    parser.add_argument("--runs", type=int, default=10, help="server starts measured")
    parser.add_argument("--tests", type=int, default=500, help="tests per measurement")
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve()) if args.bin else None
    command = with_node(find_server(binary, os.environ, Path.cwd()), os.environ)

    starts = []
    for _ in range(args.runs):
        session = ServerSession(Settings(bin=binary, seed=None, speech=None), Path.cwd())
        started = time.monotonic()
        session.locate()  # the command found and its Node.js checked (node --version), as at collection
        session.router()
        starts.append(time.monotonic() - started)
        session.stop()
    print(f"session start (command and Node.js checked, spawn to ready line), {args.runs} runs: {percentiles(starts)}")

    session = ServerSession(Settings(bin=binary, seed=None, speech=None), Path.cwd())
    session._command = command
    router = session.router()
    begins, journals = [], []
    for _ in range(args.tests):
        started = time.monotonic()
        router._begin(None)
        begins.append(time.monotonic() - started)
        started = time.monotonic()
        router.requests()
        journals.append(time.monotonic() - started)
    session.stop()
    print(f"fixture setup (reset), {args.tests} tests: {percentiles(begins)}")
    print(f"requests() on an empty journal, {args.tests} calls: {percentiles(journals)}")
    per_test = [b + j for b, j in zip(begins, journals)]
    print(f"setup + one requests(), per test: {percentiles(per_test)}")

    if binary is None:
        return
    with tempfile.TemporaryDirectory() as folder:
        plain = min(session_wall_s(Path(folder), "mockrouter_server", args.tests, binary) for _ in range(3))
        fixture = min(session_wall_s(Path(folder), "mockrouter", args.tests, binary) for _ in range(3))
    print(
        f"inside pytest, {args.tests} tests (best of 3 sessions): {plain:.2f} s without the fixture, {fixture:.2f} s with it "
        f"(and one requests() each): {(fixture - plain) / args.tests * 1000:.2f} ms per test"
    )


if __name__ == "__main__":
    main()
