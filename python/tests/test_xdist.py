"""``-n 2``: one server per pytest-xdist worker, each on its own port, each test still clean; run on the example of
docs/python.md (examples/pytest/ with examples/scenarios/ beside it, as in the repository), which must pass too.
"""
import json
import shutil

from helpers import REPOSITORY, process_gone, wait_until

#: Beside the example: records which server each test of a worker had (its origin and pid).
RECORDING_CONFTEST = """
import json, os
import pytest
from pytest_mockrouter.plugin import _SESSION


@pytest.fixture(autouse=True)
def record_the_server(request):
    if "mockrouter" in request.fixturenames:
        mockrouter = request.getfixturevalue("mockrouter")
        pid = request.config.stash[_SESSION].server.pid
        name = request.node.name.replace("/", "_")
        with open(f"../seen-{name}.json", "w") as seen:
            json.dump({"worker": os.environ["PYTEST_XDIST_WORKER"], "origin": mockrouter.origin, "pid": pid}, seen)
"""

WORKER_TESTS = """
import urllib.request
import pytest


@pytest.mark.parametrize("n", range(6))
def test_starts_clean(mockrouter, n):
    assert mockrouter.requests() == []  # whichever test this worker ran before
    request = urllib.request.Request(mockrouter.base_url + "/key", headers={"Authorization": f"Bearer {mockrouter.api_key}"})
    urllib.request.urlopen(request).read()
    assert len(mockrouter.requests()) == 1
"""


def test_one_server_per_worker_and_the_docs_example(pytester, monkeypatch):
    for folder in ("pytest", "scenarios"):
        shutil.copytree(REPOSITORY / "examples" / folder, pytester.path / folder)
    (pytester.path / "pytest" / "conftest.py").write_text(RECORDING_CONFTEST)
    (pytester.path / "pytest" / "test_inner_workers.py").write_text(WORKER_TESTS)
    monkeypatch.chdir(pytester.path / "pytest")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=4 + 6)
    seen = [json.loads(path.read_text()) for path in pytester.path.glob("seen-*.json")]
    assert len(seen) == 10
    servers = {(s["worker"], s["origin"], s["pid"]) for s in seen}
    # xdist hands each worker tests from the start when there are at least twice as many as workers.
    assert {worker for worker, _, _ in servers} == {"gw0", "gw1"}
    assert len(servers) == 2, servers  # each worker always the same server, the two on two ports
    assert len({origin for _, origin, _ in servers}) == 2
    for _, _, pid in servers:
        assert wait_until(lambda: process_gone(pid)), f"the server (pid {pid}) outlived its worker"
