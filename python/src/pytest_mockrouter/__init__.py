"""pytest-mockrouter: a mockrouter server (a local simulator of the OpenRouter API) for a pytest session.

The plugin registers itself (entry point ``pytest11``); tests use the ``mockrouter`` fixture, a :class:`MockRouter`.
"""
from .errors import MockrouterError
from .mock_router import MockRouter

__all__ = ["MockRouter", "MockrouterError", "__version__"]

__version__ = "0.1.0"
