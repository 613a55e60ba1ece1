"""What a session without a usable server says: a usage error naming what to install, or the server's own message
for a test; never a hang.
"""
import os
import shutil
import stat
import sys

import pytest

from helpers import process_gone, start_pytest, wait_until

USES_FIXTURE = """
def test_one(mockrouter):
    pass

def test_two(mockrouter):
    pass
"""


def executable(path, text):
    """Writes ``text`` to ``path`` as an executable script."""
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def bare_path(pytester, monkeypatch):
    """A PATH with nothing but this Python's folder (no mockrouter, no node), and no MOCKROUTER_BIN."""
    folder = pytester.mkdir("bare-bin")
    monkeypatch.delenv("MOCKROUTER_BIN", raising=False)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.path.dirname(sys.executable)}")
    return folder


def test_no_mockrouter_command_is_a_usage_error_saying_what_to_install(pytester, bare_path):
    pytester.makepyfile(test_inner_missing=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: mockrouter: the mockrouter command was not found (looked at --mockrouter-bin, MOCKROUTER_BIN, "
            f"node_modules/.bin/mockrouter in {pytester.path} and the folders above it, and the PATH).",
            "Install it in the project (Node.js 22.12 or newer): npm i -D mockrouter "
            "(until it is on the npm registry: npm i -D <the tarball that npm pack makes in a checkout of mockrouter>)",
            "or name the command: pytest --mockrouter-bin=<checkout of mockrouter>/bin/mockrouter.js "
            "(or MOCKROUTER_BIN=<checkout of mockrouter>/bin/mockrouter.js)",
        ]
    )
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_the_same_usage_error_under_xdist(pytester, bare_path):
    pytester.makepyfile(test_inner_missing_xdist=USES_FIXTURE)
    inner = start_pytest(["-n", "2"], pytester.path)
    output = inner.communicate(timeout=120)[0]
    assert inner.returncode == pytest.ExitCode.USAGE_ERROR, output
    assert "ERROR: mockrouter: the mockrouter command was not found" in output
    assert "npm i -D mockrouter" in output and "INTERNALERROR" not in output


def test_a_session_that_does_not_use_the_fixture_needs_no_server(pytester, bare_path):
    pytester.makepyfile(test_inner_unused="def test_plain():\n    pass\n")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_collecting_only_needs_no_server(pytester, bare_path):
    pytester.makepyfile(test_inner_collect=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["test_inner_collect.py::test_one", "test_inner_collect.py::test_two"])


def test_a_nonexistent_bin_is_named(pytester, monkeypatch):
    monkeypatch.setenv("MOCKROUTER_BIN", str(pytester.path / "no-such-mockrouter"))
    pytester.makepyfile(test_inner_bad_bin=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: MOCKROUTER_BIN '{pytester.path / 'no-such-mockrouter'}': no such file or command."])


def test_node_too_old_is_a_usage_error(pytester, bare_path):
    executable(bare_path / "node", "#!/bin/sh\necho v18.20.4\n")
    executable(bare_path / "mockrouter", "#!/usr/bin/env node\n")
    pytester.makepyfile(test_inner_old_node=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"ERROR: mockrouter: {bare_path / 'node'} is Node.js v18.20.4; the mockrouter server needs 20.19 or newer. "
            "Install Node.js 22.12 or newer (https://nodejs.org), or put it first on the PATH."
        ]
    )


def test_no_node_is_a_usage_error(pytester, bare_path):
    executable(bare_path / "mockrouter", "#!/usr/bin/env node\n")
    pytester.makepyfile(test_inner_no_node=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: mockrouter: * needs Node.js, and there is no node on the PATH. Install Node.js 22.12 or newer*"])


def test_a_server_that_fails_to_start_fails_the_tests_with_its_message(pytester):
    pytester.makepyfile(test_inner_bad_args=USES_FIXTURE)
    missing = pytester.path / "no-such-folder"
    result = pytester.runpytest("-p", "no:cacheprovider", "--mockrouter-fixtures", str(missing))
    result.assert_outcomes(errors=2)
    text = result.stdout.str()
    # Started once, told to both tests (their setup errors); the short summary repeats it when not truncated (CI=true).
    assert text.count("ERROR at setup of test_") == 2
    assert text.count("mockrouter: the server exited with code 1 before it was ready.") >= 2
    assert f"  mockrouter: --fixtures {missing}" in text  # the server's own line, quoted
    assert "Traceback" not in text


def test_a_server_without_a_ready_line_is_stopped_after_the_start_timeout(pytester, monkeypatch):
    pid_file = pytester.path / "silent.pid"
    executable(pytester.path / "silent-server", f"#!/bin/sh\necho $$ > {pid_file}\necho starting up\nexec sleep 600\n")
    monkeypatch.setenv("MOCKROUTER_BIN", str(pytester.path / "silent-server"))
    pytester.makepyfile(test_inner_silent=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider", "--mockrouter-start-timeout", "1")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        ["*mockrouter: the server printed no ready line within 1 s (--mockrouter-start-timeout).", "command: *", "its last output:", "  starting up"]
    )
    assert wait_until(lambda: process_gone(int(pid_file.read_text())))


def test_an_unknown_scenario_in_the_marker_fails_that_test_with_the_servers_message(pytester):
    pytester.makepyfile(
        test_inner_marker="""
        import pytest

        @pytest.mark.mockrouter(scenario="no-such-scenario")
        def test_unknown(mockrouter):
            pass

        @pytest.mark.mockrouter("rate-limited")
        def test_positional(mockrouter):
            pass

        @pytest.mark.mockrouter(scenario="rate-limited")
        def test_without_the_fixture():
            pass

        def test_after(mockrouter):
            assert mockrouter.requests() == []
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=3, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*mockrouter: @pytest.mark.mockrouter(scenario='no-such-scenario'): name: unknown scenario \"no-such-scenario\"; "
            "loaded scenarios: bad-gateway, bad-request, *",
            "*mockrouter: the marker takes scenario=\"<name>\" only, got Mark(name='mockrouter', args=('rate-limited',)*",
            "*mockrouter: @pytest.mark.mockrouter needs the test to use the mockrouter fixture",
        ]
    )


def test_a_bad_option_is_a_usage_error(pytester):
    pytester.makepyfile(test_inner_bad_option=USES_FIXTURE)
    result = pytester.runpytest("-p", "no:cacheprovider", "--mockrouter-seed", "seven")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --mockrouter-seed / mockrouter_seed: expected an integer, got 'seven'"])
