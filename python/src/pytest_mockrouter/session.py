"""The session's server: found when the tests are collected, started when a test first needs it, stopped at the end.

One per pytest process, so one per pytest-xdist worker, each on a free port.
"""
from __future__ import annotations

import atexit
import os
from pathlib import Path
from typing import List, Optional

import pytest

from .admin import AdminClient
from .errors import MockrouterError
from .locate import find_server, with_node
from .mock_router import MockRouter
from .options import Settings
from .server import ServerProcess


def _admin_token(args: List[str]) -> Optional[str]:
    """The admin token the server will require: ``--admin-token`` of its arguments, else env ``MOCKROUTER_ADMIN_TOKEN``."""
    token = os.environ.get("MOCKROUTER_ADMIN_TOKEN") or None
    for index, arg in enumerate(args):
        if arg == "--admin-token" and index + 1 < len(args):
            token = args[index + 1]
        elif arg.startswith("--admin-token="):
            token = arg.split("=", 1)[1]
    return token


class ServerSession:
    """The server of one pytest session, and the ``MockRouter`` its tests share.

    :param settings: the flags and ini keys.
    :param rootdir: pytest's rootdir, where the search of ``node_modules/.bin`` starts.
    """

    def __init__(self, settings: Settings, rootdir: Path) -> None:
        self.settings = settings
        self.rootdir = rootdir
        self._command: Optional[List[str]] = None
        self._server: Optional[ServerProcess] = None
        self._admin: Optional[AdminClient] = None
        self._router: Optional[MockRouter] = None
        self._failure: Optional[str] = None

    def locate(self) -> List[str]:
        """The command that starts the server, found once (the program, a node in front of a ``.js`` file).

        :raises pytest.UsageError: no mockrouter command, no Node.js or one too old, or the admin API turned off in
            the extra arguments; each saying what to do.
        """
        if self._command is None:
            if "--no-admin" in self.settings.extra_args:
                raise pytest.UsageError("mockrouter: --no-admin in the server's arguments: the plugin needs the admin API")
            command = find_server(self.settings.bin, os.environ, self.rootdir)
            self._command = with_node(command, os.environ)
        return self._command

    def router(self) -> MockRouter:
        """The session's ``MockRouter``, the server started on the first call.

        :raises MockrouterError: when the server cannot start: its message and last lines of output; later calls
            raise the same at once, without starting it again.
        """
        if self._router is not None:
            return self._router
        if self._failure is not None:
            raise MockrouterError(self._failure)
        try:
            command = self.locate()
        except pytest.UsageError as error:
            self._failure = str(error)
            raise MockrouterError(self._failure) from None
        args = self.settings.server_args()
        try:
            server = ServerProcess(command + args, self.settings.start_timeout_s)
        except MockrouterError as error:
            self._failure = error.message
            raise
        atexit.register(server.stop)
        self._server = server
        self._admin = AdminClient(server.origin, _admin_token(args), server.death_notice)
        self._router = MockRouter(server.base_url, server.origin, self.settings.api_key, self._admin)
        return self._router

    @property
    def server(self) -> Optional[ServerProcess]:
        """The server process once started, else ``None``."""
        return self._server

    def stop(self) -> None:
        """Closes the admin connection and stops the server, if it was started; safe to call more than once."""
        if self._admin is not None:
            self._admin.close()
        if self._server is not None:
            self._server.stop()
            atexit.unregister(self._server.stop)
        self._router = None
        self._failure = None
