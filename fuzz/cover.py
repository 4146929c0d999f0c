"""Picks the inputs of the shared fuzz corpus: a greedy set cover over (target, edge) pairs.

Usage: python3 fuzz/cover.py CONTROL_FILE...   (one libFuzzer `-set_cover_merge=1
-merge_control_file=...` control file per target, all made over the same inputs; see
fuzz/minimise.sh). Prints the chosen input paths, one a line. Every edge any input covers in
any target stays covered in that target; an input none of whose (target, edge) pairs is
missing from the inputs already chosen is left out. Ties go to the smaller input, then the name.
"""

import heapq
import os
import sys


def features(control_files):
    """Maps each input path to its (target, feature) pairs, as one int bitset."""
    paths, bits, ids = None, {}, {}
    for target, control in enumerate(control_files):
        with open(control) as f:
            lines = f.read().split("\n")
        count = int(lines[0])
        names = lines[2 : 2 + count]
        if paths is None:
            paths = names
        if names != paths:
            sys.exit(f"{control}: not made over the same inputs as {control_files[0]}")
        for line in lines[2 + count :]:
            fields = line.split()
            if fields[:1] == ["FT"]:
                path = paths[int(fields[1])]
                for feature in fields[2:]:
                    pair = ids.setdefault((target, int(feature)), len(ids))
                    bits[path] = bits.get(path, 0) | (1 << pair)
    return bits


def cover(bits):
    """Greedy set cover, re-scoring lazily: the input adding most uncovered pairs first."""
    size = {path: os.path.getsize(path) for path in bits}
    heap = [(-b.bit_count(), size[p], p) for p, b in bits.items()]
    heapq.heapify(heap)
    covered, chosen = 0, []
    while heap:
        _, _, path = heapq.heappop(heap)
        gain = (bits[path] & ~covered).bit_count()
        if gain == 0:
            continue
        entry = (-gain, size[path], path)
        if heap and heap[0] < entry:
            heapq.heappush(heap, entry)
            continue
        covered |= bits[path]
        chosen.append(path)
    return chosen


if __name__ == "__main__":
    for path in sorted(cover(features(sys.argv[1:]))):
        print(path)
