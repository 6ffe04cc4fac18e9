"""The whole suite: nodes a test starts (in this process or as `python -m server`) keep their rooms in memory
unless the test names a store. The server's own default is a SQLite file (`./data/marcopolo.db`), which
tests must not share; `tests/deploy/test_config.py` checks that default with a node of its own."""

from __future__ import annotations

import os

os.environ.setdefault("MARCOPOLO_STORE", "memory")
