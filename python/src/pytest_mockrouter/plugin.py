"""The pytest plugin (entry point ``pytest11``: ``mockrouter``): its options, the marker, and the fixtures.

- ``mockrouter`` (per test): a :class:`~pytest_mockrouter.MockRouter` on the session's server, reset before the test.
- ``mockrouter_server`` (per session): the same object without the reset, for session-scoped fixtures that need
  ``base_url`` once; the per-test cleaning happens only for tests that use ``mockrouter``.
- ``@pytest.mark.mockrouter(scenario="rate-limited")``: the test's default scenario, set before it runs.

The server's command is looked for once the tests are collected, and only when one of them uses a fixture (under
pytest-xdist, by the controller before the workers start, whichever tests run): a missing command or Node.js is a
usage error before any test runs. The server starts when the first test needs it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, List, Optional

import pytest

from .errors import MockrouterError
from .mock_router import MockRouter
from .options import add_options, read_settings
from .session import ServerSession

#: The fixtures that need the server.
FIXTURES = ("mockrouter", "mockrouter_server")

_SESSION = pytest.StashKey[ServerSession]()


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mockrouter(scenario=None): the mockrouter server's default scenario for this test (a loaded scenario name), "
        "set before it runs; the test uses the mockrouter fixture",
    )
    config.stash[_SESSION] = ServerSession(read_settings(config), Path(str(config.rootpath)))


def _distributes(config: pytest.Config) -> bool:
    """Whether this is pytest-xdist's controller, which runs no test itself but hands them to workers."""
    return not hasattr(config, "workerinput") and getattr(config.option, "dist", "no") != "no"


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist, the controller looks for the server's command before the workers start (it collects no
    test, so it cannot tell whether one needs it): a usage error here is one message, not one per worker. Not when
    collecting only.
    """
    if _distributes(session.config) and not session.config.option.collectonly:
        session.config.stash[_SESSION].locate()


def pytest_collection_modifyitems(config: pytest.Config, items: List[pytest.Item]) -> None:
    """Without pytest-xdist, finds the server's command when a collected test uses a fixture of the plugin (a usage
    error if there is none). A worker of pytest-xdist leaves it to the fixture, whose error fails the tests that use it:
    a usage error there would crash the worker. Collecting only (``--collect-only``, an editor's test discovery)
    needs no server.
    """
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if any(name in getattr(item, "fixturenames", ()) for item in items for name in FIXTURES):
        config.stash[_SESSION].locate()


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.stop()


def _marker_scenario(item: pytest.Item) -> Optional[str]:
    """The scenario of the closest ``mockrouter`` marker, or ``None``.

    :raises MockrouterError: for a marker with arguments other than ``scenario=<str>``.
    """
    marker = item.get_closest_marker("mockrouter")
    if marker is None:
        return None
    scenario = marker.kwargs.get("scenario")
    if marker.args or set(marker.kwargs) - {"scenario"} or not (scenario is None or isinstance(scenario, str)):
        raise MockrouterError(f"mockrouter: the marker takes scenario=\"<name>\" only, got {marker}")
    return scenario


@pytest.fixture(scope="session")
def mockrouter_server(pytestconfig: pytest.Config) -> Iterator[MockRouter]:
    """The session's mockrouter server (started on first use, stopped at the session's end), not reset per test.

    :raises MockrouterError: when the server cannot start, with its own message.
    """
    session = pytestconfig.stash[_SESSION]
    yield session.router()
    session.stop()


@pytest.fixture
def mockrouter(mockrouter_server: MockRouter, request: pytest.FixtureRequest) -> MockRouter:
    """The session's mockrouter server, reset for this test: no scenario (but the marker's), an empty journal, no spent
    credit, the clock where the test before found it.

    :raises MockrouterError: when the server cannot start, or the marker names a scenario that is not loaded; the
        message is the server's own.
    """
    mockrouter_server._begin(_marker_scenario(request.node))
    return mockrouter_server


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test with the marker but without the fixture fails: the marker works through the fixture."""
    if item.get_closest_marker("mockrouter") is not None and "mockrouter" not in getattr(item, "fixturenames", ()):
        raise MockrouterError("mockrouter: @pytest.mark.mockrouter needs the test to use the mockrouter fixture")
