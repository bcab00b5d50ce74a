"""``python -m game2048.lab``: see ``game2048.lab.cli``."""

from .cli import main

raise SystemExit(main())
