#!/usr/bin/env python3
# Exchanges two names atomically with renameat2(RENAME_EXCHANGE) in a loop until killed: a real folder
# inside the root and a symlink to a folder outside it trade places. Linux only.
# Usage: exchange-swap.py path_a path_b
import ctypes, os, signal, sys

libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_EXCHANGE = 2
a, b = (p.encode() for p in sys.argv[1:3])
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
renameat2 = getattr(libc, "renameat2", None)
if renameat2 is None:
    sys.exit(3)
first = True
while True:
    if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        sys.exit(4)
    if first:
        os.write(1, b"ready\n")
        first = False
