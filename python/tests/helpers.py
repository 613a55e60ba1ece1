"""What the plugin's tests share: the speech model, an ``openai`` client without retries, inner sessions, processes."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from openai import OpenAI

#: A speech model of the built-in catalog.
MODEL = "openai/gpt-4o-mini-tts-2025-12-15"

#: This repository's root (python/tests/ is two folders below it).
REPOSITORY = Path(__file__).resolve().parents[2]

#: How long a process may take to go away, seconds: an upper bound for a busy machine, not an expected time.
GONE_WITHIN_S = 20.0


def client_of(mockrouter, **options) -> OpenAI:
    """An ``openai`` client of the fixture's server that fails on the first error (no retries: no waits)."""
    return OpenAI(base_url=mockrouter.base_url, api_key=mockrouter.api_key, max_retries=0, **options)


def speak(client: OpenAI, text: str = "Hello from pytest.", **options):
    """One speech call with its raw response (headers and bytes)."""
    return client.audio.speech.with_raw_response.create(model=MODEL, voice="alloy", input=text, **options)


def server_pid(entry: dict) -> int:
    """The pid of the server that answered a journal entry: its ``replica`` is ``<hostname>:<pid>`` by default."""
    return int(entry["replica"].rsplit(":", 1)[1])


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie not yet reaped by its new parent counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False


def wait_until(condition: Callable[[], bool], timeout_s: float = GONE_WITHIN_S) -> bool:
    """Polls ``condition`` every 50 ms until it holds (``True``) or ``timeout_s`` passes (``False``)."""
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def start_pytest(args: list, cwd: Path, env: Optional[dict] = None) -> subprocess.Popen:
    """An inner pytest in its own process (this interpreter), its output on pipes, not waited for."""
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
