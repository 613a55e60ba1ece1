"""The mockrouter server process: started, waited for until it prints its ready line, and stopped.

The server is started with ``--stop-on-stdin-close`` and a pipe as its stdin that this process never writes to: when
pytest ends, however it ends (a SIGKILL included), the kernel closes the pipe and the server stops, so no process is
left behind. Its output (stdout and stderr together) is read by a thread for as long as it runs, so a full pipe never
blocks it, and its last lines are kept for messages.
"""
from __future__ import annotations

import collections
import os
import re
import signal
import subprocess
import threading
import time
from typing import Deque, List, Optional

from .errors import MockrouterError, quoted_output

#: The ready line: ``mockrouter listening on http://127.0.0.1:<port>/api/v1`` (mockrouter's docs/options.md).
READY_LINE = re.compile(r"^mockrouter listening on (https?://\S+/api/v1)\b")

#: Lines of output kept for messages.
KEPT_LINES = 200

#: How long a stopping server may take to exit after SIGTERM, then after SIGKILL, seconds.
STOP_GRACE_S = 5.0

#: How long a server whose connection is refused is given to end (be reaped) before it is said to still run, seconds.
REAP_GRACE_S = 1.0


class ServerProcess:
    """A running mockrouter server.

    :ivar base_url: the API's base URL the server printed, such as ``http://127.0.0.1:41234/api/v1``.
    :ivar origin: its scheme, host and port, such as ``http://127.0.0.1:41234``.
    :ivar start_seconds: how long the start took, from spawning the process to its ready line, seconds.
    """

    def __init__(self, command: List[str], timeout_s: float) -> None:
        """Starts ``command`` and returns once it printed its ready line.

        :param command: the program and every argument.
        :param timeout_s: how long the ready line may take, seconds.
        :raises MockrouterError: when it cannot be started, exits before it is ready (the message quotes its last lines
            of output and its exit code), or prints no ready line within ``timeout_s`` (it is then stopped).
        """
        self.command = command
        self._lines: Deque[str] = collections.deque(maxlen=KEPT_LINES)
        self._ready = threading.Event()
        self._ended = threading.Event()
        self.base_url = ""
        self._stopped = False
        started = time.monotonic()
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                # Its own process group: Ctrl-C in the terminal reaches pytest, which stops the server in order.
                start_new_session=os.name == "posix",
            )
        except OSError as error:
            raise MockrouterError(f"mockrouter: cannot start {command[0]}: {error.strerror or error}") from None
        threading.Thread(target=self._read_output, name="mockrouter-output", daemon=True).start()
        ready = self._ready.wait(timeout_s)
        if not ready or not self.base_url:
            self.stop()
            raise MockrouterError(self._start_failure(timeout_s, ready))
        self.origin = self.base_url[: -len("/api/v1")]
        self.start_seconds = time.monotonic() - started

    @property
    def pid(self) -> int:
        """The process id of the started program."""
        return self._process.pid

    def _read_output(self) -> None:
        """Reads the output line by line until it ends, noting the ready line; sets ``_ready`` then or at the end."""
        assert self._process.stdout is not None
        for raw in self._process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self._lines.append(line)
            if not self.base_url:
                match = READY_LINE.match(line)
                if match:
                    self.base_url = match[1]
                    self._ready.set()
        self._ended.set()
        self._ready.set()

    def _start_failure(self, timeout_s: float, ended: bool) -> str:
        """The message of a start that failed: how, the command, and the server's last lines."""
        command = " ".join(self.command)
        if ended:
            code = self._process.wait()
            how = f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
            head = f"mockrouter: the server {how} before it was ready"
        else:
            head = f"mockrouter: the server printed no ready line within {timeout_s:g} s (--mockrouter-start-timeout)"
        return f"{head}.\ncommand: {command}\nits last output:\n{quoted_output(self._lines)}"

    def running(self) -> bool:
        """Whether the process is still running."""
        return self._process.poll() is None

    def death_notice(self) -> str:
        """Why the server no longer answers: its exit code and last lines (or that it runs but refuses connections).

        A server that was just killed may not have been reaped yet when its connection is refused: it is given up to
        :data:`REAP_GRACE_S` to end before it is said to run.
        """
        try:
            code = self._process.wait(timeout=REAP_GRACE_S)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return f"mockrouter: the server (pid {self.pid}) does not answer at {self.origin}"
        how = f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}"
        return f"mockrouter: the server {how} during the session.\nits last output:\n{quoted_output(self._lines)}"

    def stop(self) -> None:
        """Stops the server and waits for it: its stdin closed and SIGTERM (either stops it cleanly), then SIGKILL.

        Each waits at most :data:`STOP_GRACE_S`. Signals go to its process group, so a wrapper (npx, a shell script)
        goes with it. Calling it again does nothing.
        """
        process = self._process
        if self._stopped:
            return
        self._stopped = True
        if process.stdin is not None and not process.stdin.closed:
            try:
                process.stdin.close()
            except OSError:
                pass
        # The whole group, even when the program itself has exited (a wrapper's child may still run), unless its exit
        # was already collected: then its pid, the group's id, may belong to another process.
        if process.returncode is None:
            self._signal(signal.SIGTERM)
            try:
                process.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
                try:
                    process.wait(STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    pass
        # Closed only once the reading thread is done with it (a process that outlives every signal keeps it open).
        if self._ended.wait(STOP_GRACE_S) and process.stdout is not None:
            process.stdout.close()

    def _signal(self, sent: int) -> None:
        """Sends ``sent`` to the server's process group (its own, see ``start_new_session``), or to it alone."""
        try:
            if os.name == "posix":
                os.killpg(self._process.pid, sent)
            else:
                self._process.send_signal(sent)
        except (ProcessLookupError, PermissionError):
            pass
