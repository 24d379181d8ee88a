#!/usr/bin/env python3
"""Whether two `kycctl` builds answer byte for byte alike: the check behind every change meant to keep the outputs.

A speed change or a refactor of the engine must not move a single answer, corner or metric. compare.py reports what
changed in the feedback and the outlines; this reports whether anything at all did, reading kycctl's whole output
line by line (every metric to the last digit). For each directory it analyses, with each build:
  - its document frames (document_*.jpg), each its own stream, and all of them as one stream (--sequence): the
    single-frame path and the tracked path both;
  - framegen's still and moving sequences (seq_still_*.jpg, seq_moving_*.jpg, per size), each as one stream;
  - with --tracked, its still sequences once more with `maxTrackedFrames` and `stillFrames` at 1000, so that every
    frame after the first is found around the previous one (the tracked path alone).
and compares the outputs. Prints one line per output that differs (the first differing frame) and the totals; exit 1
when any output differs, 2 for bad arguments or a build that fails.

usage: same_outputs.py --base KYCCTL --new KYCCTL [--base-args ARGS] [--new-args ARGS] [--tracked] [--jobs N] DIR...
  ARGS: extra kycctl analyze arguments for that side, one string (e.g. "--thresholds t.json"), to check that a
  setting changes nothing, or to see what it changes.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def runs(directory, tracked_thresholds):
    """(name, frames, options) for each kycctl run over `directory`: its outputs' names and what each analyses.
    `tracked_thresholds`: a thresholds file for the fully tracked still sequences, or None for none."""
    listed = []
    documents = sorted(glob.glob(os.path.join(directory, "document_*.jpg")))
    if documents:
        listed.append(("documents", documents, []))
        listed.append(("documents-stream", documents, ["--sequence"]))
    # framegen's sequences: seq_<kind>_<index>_<size>.jpg, one stream per kind and size.
    sequences = {}
    for path in sorted(glob.glob(os.path.join(directory, "seq_*.jpg"))):
        match = re.match(r"seq_(still|moving)_\d+_(.+)\.jpg$", os.path.basename(path))
        if match:
            sequences.setdefault((match.group(1), match.group(2)), []).append(path)
    for (kind, size), frames in sorted(sequences.items()):
        listed.append((f"{kind}-{size}", frames, ["--sequence"]))
        if tracked_thresholds and kind == "still":
            listed.append((f"{kind}-{size}-tracked", frames, ["--sequence", "--thresholds", tracked_thresholds]))
    return listed


def analyse(binary, extra, frames, options):
    """kycctl analyze's output lines for `frames`, or raises with its error."""
    result = subprocess.run([binary, "analyze", *options, *extra, *frames], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{binary} analyze failed ({result.returncode}): {result.stderr.strip()[:500]}")
    return result.stdout.splitlines()


def first_difference(a, b):
    """The index of the first line that differs (or where one output ends), None when equal."""
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def frame_name(line):
    try:
        return os.path.basename(json.loads(line).get("file", "?"))
    except (ValueError, AttributeError):
        return "?"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the reference kycctl")
    parser.add_argument("--new", required=True, help="the kycctl to check")
    parser.add_argument("--base-args", default="", help="extra analyze arguments for the reference")
    parser.add_argument("--new-args", default="", help="extra analyze arguments for the build checked")
    parser.add_argument("--tracked", action="store_true", help="also every still sequence fully tracked")
    parser.add_argument("--jobs", type=int, default=2, help="kycctl processes at once (default 2)")
    parser.add_argument("directories", nargs="+", metavar="DIR")
    try:
        options = parser.parse_args(argv)
    except SystemExit as exit:
        return 2 if exit.code else 0
    for binary in (options.base, options.new):
        if not os.access(binary, os.X_OK):
            print(f"same_outputs: {binary} is not an executable", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as scratch:
        # Every frame after the first found around the previous one (none searched whole for a capture).
        tracked = os.path.join(scratch, "tracked.json")
        with open(tracked, "w") as out:
            json.dump({"maxTrackedFrames": 1000, "stillFrames": 1000}, out)
        work = []
        for directory in options.directories:
            listed = runs(directory, tracked if options.tracked else None)
            if not listed:
                print(f"same_outputs: no document_*.jpg or seq_*.jpg in {directory}", file=sys.stderr)
                return 2
            work += [(directory, *run) for run in listed]
        base_extra, new_extra = shlex.split(options.base_args), shlex.split(options.new_args)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
            futures = [(item, pool.submit(analyse, options.base, base_extra, item[2], item[3]),
                        pool.submit(analyse, options.new, new_extra, item[2], item[3])) for item in work]
            differing, lines = 0, 0
            try:
                for (directory, name, _, _), base, new in futures:
                    a, b = base.result(), new.result()
                    lines += len(a)
                    index = first_difference(a, b)
                    if index is not None:
                        differing += 1
                        count = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
                        where = frame_name(a[index]) if index < len(a) else "(end of output)"
                        print(f"DIFF {directory} {name}: {count} of {len(a)} lines, first at {where}")
            except RuntimeError as error:
                print(f"same_outputs: {error}", file=sys.stderr)
                return 2
    print(f"outputs: {len(work)}, differing: {differing}, lines: {lines}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
