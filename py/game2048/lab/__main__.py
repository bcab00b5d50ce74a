"""``python -m game2048.lab``: see ``game2048.lab.cli``.

Ctrl-C at any moment, the imports included, ends with one line and exit code 130 (the shell's for SIGINT).
"""

import sys

try:
    from .interrupts import held_back

    with held_back():
        from .cli import main
    code = main()
except KeyboardInterrupt:
    print("\ninterrupted", file=sys.stderr)
    code = 130
raise SystemExit(code)
