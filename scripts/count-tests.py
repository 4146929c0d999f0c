#!/usr/bin/env python3
"""Sums the test counts of every runner in a CI log and prints the closing line
`tests: N passed, N failed, N skipped`. Reads the log files named as arguments, else stdin
(a pipe or a file, never a terminal). Runners read: cargo test (`test result: ... N passed;
N failed`), pytest (`N passed, N failed, N skipped in 1.23s`, with or without the
`(0:01:48)` of a long run, bare or framed in `=`) and node --test (`# pass N`, `# fail N`,
`# skipped N`).

Exits 1 when a test failed or when the log holds no runner's summary at all (an empty or
wrong log is not "0 failed"), 2 when there is no log to read.

Its checks: `python3 -m doctest scripts/count-tests.py` (run by scripts/ci/10-lint.sh)."""

import re
import sys

# pytest's summary: "N passed, N failed, N skipped ... in 1.23s", maybe "(0:01:48)" after it.
PYTEST_END = r" in [\d.]+s( \(\d+:\d\d:\d\d\))?"


def count(lines):
    """(passed, failed, skipped, summaries) over the lines of a log.

    >>> count(["test result: ok. 3 passed; 1 failed; 2 ignored; 0 measured; 0 filtered out"])
    (3, 1, 2, 1)
    >>> count(["120 passed, 2 skipped in 108.12s (0:01:48)"])
    (120, 0, 2, 1)
    >>> count(["========= 1 failed, 4 passed, 1 error in 0.50s (0:00:00) ========="])
    (4, 2, 0, 1)
    >>> count(["5 passed in 2.00s", "# pass 7", "# fail 0", "# skipped 1"])
    (12, 0, 1, 4)
    >>> count(["collected 5 items", "it passed in 2s, said the log"])
    (0, 0, 0, 0)
    """
    passed = failed = skipped = summaries = 0
    for line in lines:
        line = line.strip()
        m = re.match(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", line)
        if m:
            passed += int(m[1])
            failed += int(m[2])
            skipped += int(m[3])
            summaries += 1
            continue
        bare = r"\d+ (passed|failed|skipped|errors?)(, \d+ \w+)*" + PYTEST_END
        framed = r"=+ " + bare + r" =+"
        if re.fullmatch(bare, line) or re.fullmatch(framed, line):
            for n, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", line):
                if word == "passed":
                    passed += int(n)
                elif word == "skipped":
                    skipped += int(n)
                else:
                    failed += int(n)
            summaries += 1
            continue
        m = re.fullmatch(r"# (pass|fail|skipped) (\d+)", line)
        if m:
            n = int(m[2])
            if m[1] == "pass":
                passed += n
            elif m[1] == "fail":
                failed += n
            else:
                skipped += n
            summaries += 1
    return passed, failed, skipped, summaries


def main(paths):
    if paths:
        lines = []
        for path in paths:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines.extend(f)
    elif sys.stdin.isatty():
        print("usage: count-tests.py LOG... (or a log on stdin)", file=sys.stderr)
        return 2
    else:
        lines = sys.stdin
    passed, failed, skipped, summaries = count(lines)
    if not summaries:
        print("tests: no test runner's summary in the log", file=sys.stderr)
        return 1
    print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
