#!/usr/bin/env python3
"""The filesystem's floor under the registry benchmark: the system calls alone, no JSON.

For i in 0..N, a file of i * BYTES bytes is (a) read, then written to a temporary file and
renamed over the original (what any atomic, re-reading writer of one growing file pays), and
(b) the same without the read. BYTES is about what one registration adds to
`agent-sessions.json` in bench_moai.py (460 bytes: metadata, result and chain entry).
(c) is the seed's kind of write: truncate and write in place, 200 bytes per registration (its
file has no results).

    .venv/bin/python benches/python/io_floor.py [N]      # default 2000

Prints the seconds of each loop.
"""

import os
import sys
import tempfile
import time

BYTES = 460
SEED_BYTES = 200


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    buf = b"x" * (BYTES * n)
    with tempfile.TemporaryDirectory(dir=tempfile.gettempdir()) as tmp:
        path, temp = os.path.join(tmp, "f.json"), os.path.join(tmp, ".f.json.tmp")
        open(path, "wb").close()

        def replace(size):
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, buf[:size])
            os.close(fd)
            os.rename(temp, path)

        start = time.perf_counter()
        for i in range(n):
            with open(path, "rb") as f:
                f.read()
            replace(BYTES * i)
        read_replace = time.perf_counter() - start
        start = time.perf_counter()
        for i in range(n):
            replace(BYTES * i)
        replace_only = time.perf_counter() - start
        start = time.perf_counter()
        for i in range(n):
            with open(path, "wb") as f:
                f.write(buf[: SEED_BYTES * i])
        in_place = time.perf_counter() - start
    print(f"N = {n:,}: read + write temp + rename {read_replace:.2f} s; "
          f"write temp + rename {replace_only:.2f} s; seed-style truncate + write "
          f"({SEED_BYTES} B per registration) {in_place:.2f} s")


if __name__ == "__main__":
    main()
