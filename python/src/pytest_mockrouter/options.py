"""The plugin's command-line flags and ini keys, and the settings read from them.

Each option is a flag and an ini key (``[pytest]``, ``[tool.pytest.ini_options]``, ``setup.cfg``); the flag wins. A
folder in an ini key is relative to the ini file's folder, a folder on the command line to the current folder.
"""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

import pytest

#: The speech modes of the server's ``--speech``.
SPEECH_MODES = ("tones", "words")

#: The key the fixture's ``api_key`` is when none is set: the server takes any non-empty key unless started with ``--keys``.
DEFAULT_API_KEY = "sk-mockrouter-test"

#: How long the server may take to print its ready line, seconds, unless ``--mockrouter-start-timeout`` says otherwise.
DEFAULT_START_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Settings:
    """What the plugin starts the server with, read from the flags and ini keys by :func:`read_settings`."""

    #: ``--mockrouter-bin``: the command that runs the server, as given (found by ``locate.find_server``).
    bin: Optional[str]
    #: ``--mockrouter-seed``: the server's ``--seed`` (``None``: the server's default, 0).
    seed: Optional[int]
    #: ``--mockrouter-speech``: ``tones`` or ``words`` (``None``: the server's default, tones).
    speech: Optional[str]
    #: ``--mockrouter-scenarios``: folders of scenario files, absolute.
    scenarios: List[Path] = field(default_factory=list)
    #: ``--mockrouter-fixtures``: a fixtures folder, absolute.
    fixtures: Optional[Path] = None
    #: ``--mockrouter-args``: more arguments for the server, after the plugin's own (so they win).
    extra_args: List[str] = field(default_factory=list)
    #: ``--mockrouter-api-key``: the key the fixture hands to tests.
    api_key: str = DEFAULT_API_KEY
    #: ``--mockrouter-start-timeout``: seconds to wait for the ready line.
    start_timeout_s: float = DEFAULT_START_TIMEOUT_S

    def server_args(self) -> List[str]:
        """The server's arguments: a free port, no request log, stop when stdin ends, then the options, then the extra ones."""
        args = ["--port", "0", "--quiet", "--stop-on-stdin-close"]
        if self.seed is not None:
            args += ["--seed", str(self.seed)]
        if self.speech is not None:
            args += ["--speech", self.speech]
        for folder in self.scenarios:
            args += ["--scenarios", str(folder)]
        if self.fixtures is not None:
            args += ["--fixtures", str(self.fixtures)]
        return args + self.extra_args


def add_options(parser: pytest.Parser) -> None:
    """Declares the flags (group ``mockrouter``) and their ini keys."""
    group = parser.getgroup("mockrouter", "mockrouter server (pytest-mockrouter)")
    group.addoption(
        "--mockrouter-bin",
        metavar="PATH",
        help="the mockrouter command (default: env MOCKROUTER_BIN, else node_modules/.bin/mockrouter from the rootdir "
        "up, else mockrouter on the PATH); a command line such as 'npx --yes mockrouter' works too",
    )
    group.addoption("--mockrouter-seed", metavar="N", help="the server's --seed (ini mockrouter_seed)")
    group.addoption("--mockrouter-speech", choices=SPEECH_MODES, help="the server's --speech (ini mockrouter_speech)")
    group.addoption(
        "--mockrouter-scenarios",
        metavar="DIR",
        action="append",
        help="a folder of scenario files, the server's --scenarios; repeatable (ini mockrouter_scenarios, one a line)",
    )
    group.addoption("--mockrouter-fixtures", metavar="DIR", help="the server's --fixtures (ini mockrouter_fixtures)")
    group.addoption(
        "--mockrouter-args",
        metavar="ARGS",
        help="more arguments for the server, split as a shell does, after the ini key's (ini mockrouter_args)",
    )
    group.addoption("--mockrouter-api-key", metavar="KEY", help=f"the fixture's api_key (default {DEFAULT_API_KEY})")
    group.addoption(
        "--mockrouter-start-timeout",
        metavar="SECONDS",
        help=f"how long the server may take to start (default {DEFAULT_START_TIMEOUT_S:g})",
    )
    parser.addini("mockrouter_seed", "the mockrouter server's --seed")
    parser.addini("mockrouter_speech", "the mockrouter server's --speech: tones or words")
    parser.addini("mockrouter_scenarios", "folders of scenario files (the server's --scenarios), one a line", type="paths")
    parser.addini("mockrouter_fixtures", "the mockrouter server's --fixtures folder")
    parser.addini("mockrouter_args", "more arguments for the mockrouter server", type="args")
    parser.addini("mockrouter_api_key", "the key the mockrouter fixture hands to tests")
    parser.addini("mockrouter_start_timeout", "seconds the mockrouter server may take to start")


def _flag_or_ini(config: pytest.Config, name: str) -> Optional[str]:
    """The flag ``--mockrouter-<name>`` when given, else the ini key ``mockrouter_<name>``, else ``None``."""
    value = config.getoption(f"mockrouter_{name}")
    if value is None:
        value = config.getini(f"mockrouter_{name}") or None
    return None if value is None else str(value).strip()


def _ini_folder(config: pytest.Config) -> Path:
    """The folder an ini key's relative path starts from: the ini file's, or the rootdir without one."""
    inipath = getattr(config, "inipath", None)
    return Path(inipath).parent if inipath else Path(str(config.rootpath))


def read_settings(config: pytest.Config) -> Settings:
    """Reads the flags and ini keys.

    :raises pytest.UsageError: a seed that is not an integer, a speech mode other than tones or words, a start
        timeout that is not a positive number of seconds, or extra arguments a shell could not split.
    """
    seed_text = _flag_or_ini(config, "seed")
    seed = None
    if seed_text is not None:
        try:
            seed = int(seed_text)
        except ValueError:
            raise pytest.UsageError(f"--mockrouter-seed / mockrouter_seed: expected an integer, got {seed_text!r}") from None

    speech = _flag_or_ini(config, "speech")
    if speech is not None and speech not in SPEECH_MODES:
        raise pytest.UsageError(f"mockrouter_speech: expected tones or words, got {speech!r}")

    flag_scenarios = config.getoption("mockrouter_scenarios") or []
    scenarios = [Path(os.path.abspath(folder)) for folder in flag_scenarios] or [
        Path(folder).resolve() for folder in config.getini("mockrouter_scenarios")
    ]

    fixtures = None
    if config.getoption("mockrouter_fixtures") is not None:
        fixtures = Path(os.path.abspath(config.getoption("mockrouter_fixtures")))
    elif config.getini("mockrouter_fixtures"):
        fixtures = (_ini_folder(config) / str(config.getini("mockrouter_fixtures")).strip()).resolve()

    extra_args = list(config.getini("mockrouter_args") or [])
    flag_args = config.getoption("mockrouter_args")
    if flag_args:
        try:
            extra_args += shlex.split(flag_args)
        except ValueError as error:
            raise pytest.UsageError(f"--mockrouter-args {flag_args!r}: {error}") from None

    timeout_text = _flag_or_ini(config, "start_timeout")
    start_timeout_s = DEFAULT_START_TIMEOUT_S
    if timeout_text is not None:
        try:
            start_timeout_s = float(timeout_text)
        except ValueError:
            start_timeout_s = -1.0
        if not 0 < start_timeout_s < float("inf"):
            raise pytest.UsageError(f"--mockrouter-start-timeout: expected a positive number of seconds, got {timeout_text!r}")

    return Settings(
        bin=config.getoption("mockrouter_bin"),
        seed=seed,
        speech=speech,
        scenarios=scenarios,
        fixtures=fixtures,
        extra_args=extra_args,
        api_key=_flag_or_ini(config, "api_key") or DEFAULT_API_KEY,
        start_timeout_s=start_timeout_s,
    )
