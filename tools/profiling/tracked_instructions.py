#!/usr/bin/env python3
"""Instructions a `kycctl` build spends per frame, counted by callgrind: the steady measure of a speed change.

Wall time on a shared virtual machine moves a few per cent between identical runs, more than most single changes to
the analysis save; instruction counts do not move. For each build this counts, with valgrind's callgrind, the
instructions of one kycctl run over N frames and of one over the same N frames twice, and prints their difference per
frame: the second pass in steady state (process start, the libraries' loading and one-time costs such as the face
cascades, loaded by the first frame that looks for a card's portrait, all fall in both runs and cancel out):
  - tracked (default): framegen's still sequence in DIR (seq_still_*_<size>.jpg, repeated in order up to N frames)
    played as one stream with `maxTrackedFrames` and `stillFrames` at 1000, so that every frame after the first is
    found around the previous one: what a stream pays most of the time (docs/capture.md, "Streams");
  - with --single: DIR's document frames of that size (document_*_<size>.jpg), each alone, the bench's frames.
valgrind cannot read the Swift toolchain's DWARF, so each build is copied without its debug info first
(`strip --strip-debug`). Needs valgrind and binutils; a run takes a few seconds per frame.

usage: tracked_instructions.py --frames DIR [--size 720p] [--count 20] [--single] KYCCTL [KYCCTL ...]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile


def instructions(binary, arguments, cwd):
    """callgrind's instruction count for one kycctl run."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, *arguments],
                                capture_output=True, text=True, cwd=cwd)
        if result.returncode != 0:
            raise RuntimeError(f"{binary} {' '.join(arguments[:3])}… failed: {result.stderr.strip()[-500:]}")
        match = re.search(r"Collected : (\d+)", result.stderr)
        if not match:
            raise RuntimeError("callgrind printed no instruction count")
        return int(match.group(1))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", required=True, help="a framegen directory (labels.json, seq_still_*, document_*)")
    parser.add_argument("--size", default="720p", help="the frames' size suffix (default 720p)")
    parser.add_argument("--count", type=int, default=20, help="frames per pass (default 20)")
    parser.add_argument("--single", action="store_true", help="document frames each alone, not a tracked stream")
    parser.add_argument("builds", nargs="+", metavar="KYCCTL")
    try:
        options = parser.parse_args(argv)
    except SystemExit as exit:
        return 2 if exit.code else 0
    if options.count < 1:
        print("tracked_instructions: --count must be at least 1", file=sys.stderr)
        return 2
    directory = os.path.abspath(options.frames)
    pattern = "document_*_{}.jpg" if options.single else "seq_still_*_{}.jpg"
    listed = sorted(os.path.basename(p) for p in glob.glob(os.path.join(directory, pattern.format(options.size))))
    if not listed:
        print(f"tracked_instructions: no {pattern.format(options.size)} in {directory}", file=sys.stderr)
        return 2
    frames = [listed[i % len(listed)] for i in range(options.count)]
    with tempfile.TemporaryDirectory() as scratch:
        thresholds = os.path.join(scratch, "tracked.json")
        with open(thresholds, "w") as out:
            json.dump({"maxTrackedFrames": 1000, "stillFrames": 1000}, out)
        stream = [] if options.single else ["--sequence", "--thresholds", thresholds]
        what = "single frames" if options.single else "tracked stream frames"
        print(f"{options.count} {what} of {directory} ({pattern.format(options.size)}), instructions per frame:")
        for index, build in enumerate(options.builds):
            stripped = os.path.join(scratch, f"kycctl-{index}")
            try:
                subprocess.run(["strip", "--strip-debug", "-o", stripped, build], check=True, capture_output=True)
                twice = instructions(stripped, ["analyze", *stream, *frames, *frames], directory)
                once = instructions(stripped, ["analyze", *stream, *frames], directory)
            except (RuntimeError, subprocess.CalledProcessError, FileNotFoundError) as error:
                print(f"tracked_instructions: {build}: {error}", file=sys.stderr)
                return 2
            print(f"  {build}: {(twice - once) / options.count / 1e6:.3f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
