#!/usr/bin/env python3
"""Sums the test counts of every runner in a CI log (stdin) and prints the closing line
`tests: N passed, N failed` (skipped counted apart). Runners read: cargo test
(`test result: ... N passed; N failed`), pytest (`N passed, N failed, N skipped in`) and
node --test (`# pass N`, `# fail N`, `# skipped N`)."""

import re
import sys

passed = failed = skipped = 0
for line in sys.stdin:
    line = line.strip()
    m = re.match(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored", line)
    if m:
        passed += int(m[1]); failed += int(m[2]); skipped += int(m[3])
        continue
    # pytest's summary, bare or framed in `=`: "N passed, N failed, N skipped ... in 1.23s".
    if re.fullmatch(r"\d+ (passed|failed|skipped)(, \d+ \w+)* in [\d.]+s", line) or (
        re.search(r"\d+ (passed|failed).* in [\d.]+s", line) and line.startswith("=")
    ):
        for count, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", line):
            if word == "passed":
                passed += int(count)
            elif word == "skipped":
                skipped += int(count)
            else:
                failed += int(count)
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
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
