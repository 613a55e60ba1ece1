"""The server lives as long as the session: stopped at its end, on Ctrl-C, and when pytest is killed (SIGKILL)."""
import signal

import pytest

from helpers import process_gone, start_pytest, wait_until

#: An inner test that writes the server's pid to ``server.pid``, then waits for ``release`` (at most 60 s).
WAITING_TEST = """
import json, os, time, urllib.request


def test_waits(mockrouter):
    request = urllib.request.Request(mockrouter.base_url + "/model/openai/gpt-4o-mini", headers={"Authorization": "Bearer k"})
    urllib.request.urlopen(request).read()
    replica = mockrouter.requests()[0]["replica"]  # <hostname>:<pid of the server>
    with open("server.pid.tmp", "w") as pid_file:
        pid_file.write(replica.rsplit(":", 1)[1])
    os.replace("server.pid.tmp", "server.pid")
    end = time.monotonic() + 60
    while not os.path.exists("release") and time.monotonic() < end:
        time.sleep(0.05)
"""


def server_pid_of(pytester) -> int:
    """The pid the inner test wrote, once it is there (the inner session has started its server)."""
    pid_file = pytester.path / "server.pid"
    assert wait_until(pid_file.exists, 60), "the inner test never wrote the server's pid"
    return int(pid_file.read_text())


def test_the_server_stops_with_the_session(pytester):
    pytester.makepyfile(test_inner_waits=WAITING_TEST)
    (pytester.path / "release").touch()
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert wait_until(lambda: process_gone(server_pid_of(pytester)))


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "sigkill"])
def test_the_server_stops_when_pytest_is_interrupted_or_killed(pytester, sent):
    pytester.makepyfile(test_inner_waits=WAITING_TEST)
    inner = start_pytest([], pytester.path)
    try:
        pid = server_pid_of(pytester)
        assert not process_gone(pid)
        inner.send_signal(sent)
        output = inner.communicate(timeout=60)[0]
        assert wait_until(lambda: process_gone(pid)), f"the server (pid {pid}) outlived pytest"
        if sent == signal.SIGINT:
            assert inner.returncode == pytest.ExitCode.INTERRUPTED, output
            assert "KeyboardInterrupt" in output
        else:
            assert inner.returncode == -signal.SIGKILL
    finally:
        inner.kill()
        inner.communicate()


def test_a_server_that_dies_during_the_session_is_reported(pytester):
    pytester.makepyfile(
        test_inner_dies="""
        import os, signal, urllib.request

        def test_kills_the_server(mockrouter):
            request = urllib.request.Request(mockrouter.base_url + "/key", headers={"Authorization": "Bearer k"})
            urllib.request.urlopen(request).read()
            os.kill(int(mockrouter.requests()[0]["replica"].rsplit(":", 1)[1]), signal.SIGKILL)

        def test_after(mockrouter):
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["mockrouter: the server was killed by signal 9 during the session.", "its last output:", "  mockrouter listening on http://127.0.0.1:*/api/v1"])
