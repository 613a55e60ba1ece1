"""The plugin's own tests. They run with the plugin installed (``pip install ./python``) and the server given by
``MOCKROUTER_BIN`` or ``--mockrouter-bin`` (``test/pytest-plugin.test.ts`` passes this repository's
``bin/mockrouter.js``); the ``pytester`` fixture runs inner pytest sessions for what a session does as a whole.
"""
pytest_plugins = ["pytester"]
