"""Finding the ``mockrouter`` command, and the Node.js that runs it.

Where the command comes from, first found wins: ``--mockrouter-bin``, the environment variable ``MOCKROUTER_BIN``,
``node_modules/.bin/mockrouter`` in pytest's rootdir or a folder above it, ``mockrouter`` on the ``PATH``. A value of
the first two that is no file is split as a shell does, so ``npx --yes mockrouter`` works. When the program is a
Node.js script (a ``node`` shebang, or a ``.js`` or ``.mjs`` file, which is run with ``node``), the ``node`` on the
``PATH`` must be :data:`MIN_NODE` or newer.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import List, Mapping, Optional, Tuple

import pytest

#: The oldest Node.js the standalone server runs on: its strictest dependency (@noble/hashes) needs 20.19. The
#: package's ``engines`` asks for 22.12, the version it is supported and tested on (mockrouter's docs/ci.md).
MIN_NODE: Tuple[int, int] = (20, 19)

#: The Node.js version mockrouter supports, for messages.
SUPPORTED_NODE = "22.12"

#: How long ``node --version`` may take, seconds.
NODE_VERSION_TIMEOUT_S = 30

INSTALL_HINT = (
    "Install it in the project (Node.js {supported} or newer): npm i -D mockrouter "
    "(until it is on the npm registry: npm i -D <the tarball that npm pack makes in a checkout of mockrouter>)\n"
    "or name the command: pytest --mockrouter-bin=<checkout of mockrouter>/bin/mockrouter.js "
    "(or MOCKROUTER_BIN=<checkout of mockrouter>/bin/mockrouter.js)"
).format(supported=SUPPORTED_NODE)


def _bin_names() -> List[str]:
    """The file names of the command in ``node_modules/.bin``: npm writes ``mockrouter.cmd`` on Windows."""
    return ["mockrouter.cmd", "mockrouter"] if os.name == "nt" else ["mockrouter"]


def _in_node_modules(rootdir: Path) -> Optional[Path]:
    """``node_modules/.bin/mockrouter`` of ``rootdir`` or the nearest folder above it that has one."""
    for folder in [rootdir, *rootdir.parents]:
        for name in _bin_names():
            candidate = folder / "node_modules" / ".bin" / name
            if candidate.is_file():
                return candidate
    return None


def _given_command(value: str, source: str, env: Mapping[str, str]) -> List[str]:
    """The command a flag or ``MOCKROUTER_BIN`` names: a file, else a command line whose program is on the PATH.

    :raises pytest.UsageError: when it names neither, saying where the value came from.
    """
    if Path(value).is_file():
        return [str(Path(value).resolve())]
    try:
        words = shlex.split(value)
    except ValueError:
        words = []
    program = shutil.which(words[0], path=env.get("PATH")) if words else None
    if program is None:
        raise pytest.UsageError(f"{source} {value!r}: no such file or command.\n{INSTALL_HINT}")
    return [program, *words[1:]]


def find_server(explicit: Optional[str], env: Mapping[str, str], rootdir: Path) -> List[str]:
    """The command that starts the server (program and arguments), before the plugin's arguments.

    :param explicit: ``--mockrouter-bin``, or ``None``.
    :param env: the environment (``MOCKROUTER_BIN``, and ``PATH`` for the last resort).
    :param rootdir: pytest's rootdir, where the search of ``node_modules/.bin`` starts.
    :raises pytest.UsageError: when there is none, saying what to install (``npm i -D mockrouter``, or the tarball of a checkout) or which command to name.
    """
    if explicit:
        return _given_command(explicit, "--mockrouter-bin", env)
    if env.get("MOCKROUTER_BIN"):
        return _given_command(env["MOCKROUTER_BIN"], "MOCKROUTER_BIN", env)
    local = _in_node_modules(rootdir)
    if local is not None:
        return [str(local)]
    on_path = shutil.which("mockrouter", path=env.get("PATH"))
    if on_path is not None:
        return [on_path]
    raise pytest.UsageError(
        "mockrouter: the mockrouter command was not found (looked at --mockrouter-bin, MOCKROUTER_BIN, "
        f"node_modules/.bin/mockrouter in {rootdir} and the folders above it, and the PATH).\n{INSTALL_HINT}"
    )


def _runs_on_node(program: str) -> bool:
    """Whether ``program`` is a Node.js script: a ``.js``/``.mjs``/``.cjs`` file, or a ``node`` shebang (npm's links)."""
    if program.endswith((".js", ".mjs", ".cjs")):
        return True
    try:
        with open(program, "rb") as file:
            first = file.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"node" in first


def node_version(node: str) -> Optional[Tuple[int, int, int]]:
    """``node``'s version as (major, minor, patch), or ``None`` when it does not answer ``--version`` with one."""
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=NODE_VERSION_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.match(r"^v(\d+)\.(\d+)\.(\d+)", done.stdout.strip())
    return None if match is None else (int(match[1]), int(match[2]), int(match[3]))


def with_node(command: List[str], env: Mapping[str, str]) -> List[str]:
    """``command`` checked for the Node.js it needs: a ``.js`` program is run with ``node``.

    Commands that are not Node.js scripts (a shell wrapper, a Windows ``.cmd``) are returned as they are.

    :raises pytest.UsageError: when the program needs Node.js and none is on the ``PATH``, or it is older than
        :data:`MIN_NODE`, saying which one was found and what to install.
    """
    program = command[0]
    if not _runs_on_node(program):
        return command
    node = shutil.which("node", path=env.get("PATH"))
    if node is None:
        raise pytest.UsageError(
            f"mockrouter: {program} needs Node.js, and there is no node on the PATH. "
            f"Install Node.js {SUPPORTED_NODE} or newer (https://nodejs.org)."
        )
    version = node_version(node)
    if version is None or version[:2] < MIN_NODE:
        found = "an unknown version" if version is None else "v" + ".".join(map(str, version))
        raise pytest.UsageError(
            f"mockrouter: {node} is Node.js {found}; the mockrouter server needs {MIN_NODE[0]}.{MIN_NODE[1]} or newer. "
            f"Install Node.js {SUPPORTED_NODE} or newer (https://nodejs.org), or put it first on the PATH."
        )
    return [node, *command] if program.endswith((".js", ".mjs", ".cjs")) else command
