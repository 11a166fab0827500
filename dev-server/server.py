#!/usr/bin/env python3
"""sclm dev-server: a StoryCLM-compatible development backend on 127.0.0.1. Run with --help."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from devserver.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
