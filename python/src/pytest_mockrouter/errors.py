"""The plugin's one error class, and how a server's output is quoted in messages."""
from __future__ import annotations

from typing import Iterable

import pytest

#: The most lines of a server's output quoted in a message (its last ones).
QUOTED_LINES = 20


class MockrouterError(pytest.fail.Exception):  # type: ignore[name-defined,misc]
    """A problem with the mockrouter server or a call to its admin API, reported as a test failure without a traceback.

    Raised by the ``mockrouter`` fixture when the server cannot start (its message is the server's last lines of
    output), when the server stopped during the session, and when the admin API refuses a call (an unknown scenario
    name: the server's message lists the loaded ones). Like ``pytest.fail``, it derives from ``BaseException``
    through ``pytest.fail.Exception``: ``except Exception`` does not catch it, ``except MockrouterError`` does.
    """

    # Reports name it as the package exports it.
    __module__ = "pytest_mockrouter"

    def __init__(self, message: str) -> None:
        super().__init__(message, pytrace=False)

    @property
    def message(self) -> str:
        """The message, as the test report shows it."""
        return str(self.msg)


def quoted_output(lines: Iterable[str]) -> str:
    """The last :data:`QUOTED_LINES` of ``lines``, each indented by two spaces, or ``(no output)`` when there are none."""
    kept = list(lines)[-QUOTED_LINES:]
    if not kept:
        return "  (no output)"
    return "\n".join(f"  {line}" for line in kept)
