#!/usr/bin/env python3
"""Where a frame's heap allocations come from: sums a heaptrack diff's backtraces by the first frame in our own code.

`make bench` counts allocations per analysed frame as the difference of a 6-round and a 2-round heaptrack run of
`kyc-bench capture` (docs/capture.md, "Profiling"). `heaptrack_print --diff` lists every backtrace that differs,
often hundreds, most of them deep in the Swift runtime; this script groups them by the first frame under `Sources/`
(file and line), so the sites to work on read as one short table.

usage: allocation_sites.py SIX_ROUNDS.zst TWO_ROUNDS.zst FRAMES [--top N]
  FRAMES: the frames the 4 extra rounds analysed (4 × the profile's `capture.profile.frames`).
"""
import argparse
import collections
import re
import subprocess
import sys


def diff_backtraces(six, two):
    """heaptrack_print's "most calls" section for the difference of the two recordings, every backtrace listed."""
    out = subprocess.run(["heaptrack_print", "-f", six, "--diff", two, "--print-peaks", "0", "--print-temporary", "0",
                          "--print-allocators", "1", "--peak-limit", "1000", "--sub-peak-limit", "1000"],
                         capture_output=True, text=True, check=True).stdout
    return out.split("\n")


def sites(lines):
    """Calls per site: the first `Sources/...:line` frame of each backtrace ("?" when none)."""
    counts = collections.Counter()
    calls, site = None, None
    for line in lines:
        header = re.match(r"^\s*(-?\d+) calls with", line)
        if header:
            if calls is not None:
                counts[site or "?"] += calls
            calls, site = int(header.group(1)), None
            continue
        frame = re.match(r"^\s+at (\S*Sources/\S+)", line)
        if frame and calls is not None and site is None:
            site = "Sources/" + frame.group(1).split("Sources/", 1)[1]
    if calls is not None:
        counts[site or "?"] += calls
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("six")
    parser.add_argument("two")
    parser.add_argument("frames", type=int)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    counts = sites(diff_backtraces(args.six, args.two))
    total = sum(counts.values())
    print(f"{total} calls over {args.frames} frames: {total / args.frames:.2f} per frame")
    for site, calls in counts.most_common(args.top):
        print(f"{calls / args.frames:8.2f}  {site}")


if __name__ == "__main__":
    sys.exit(main())
