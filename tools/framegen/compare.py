#!/usr/bin/env python3
"""Compares `kycctl` builds on labelled frame sets (framegen's or camsim's): what a change to the engine did.

Usage:
  python3 tools/framegen/compare.py [--mode document|selfie] [--out DIR] [--sequence] [--confusion]
      [--outlines] --set NAME=DIR [--set NAME=DIR ...] --run LABEL=KYCCTL [--run LABEL=KYCCTL ...]

Each build (`--run`, a kycctl binary; the first is the reference) analyses each set (`--set`: a directory with
labels.json and the mode's frames), every file its own stream, and with --sequence the set's files also as one stream
(as CaptureService plays them; the lines are kept apart as NAME-seq). Outputs go to DIR/LABEL/NAME.jsonl (default
DIR: a new directory under /tmp, printed), so a later run can be diffed by hand or fed to evaluate.py. Then:
  - per set and build: frames judged as labelled, "unsafe" frames (judged GOOD, labelled otherwise: a capture of a
    bad frame), and for documents the mean corner error on sharp frames with the whole document in view;
  - every frame whose feedback codes differ from the reference build's, marked better / worse when the first code
    became / stopped being the label's, with the totals; for documents with each build's corner error on the frame
    (`corners A -> B`, of the diagonal; `-` where a build found no outline; a cut-off card's true corners lie beyond
    the frame, so its error there is at least the part out of view);
  - with --outlines (documents), also the frames whose codes are the same but whose outline moved (corner error
    changed by more than 0.01): what a change did to the geometry without changing an answer;
  - with --confusion, the reference build's and the last build's mislabelled frames by (label, answer), most first.
Exit code 0; 2 for bad arguments, an unreadable set, or a build that cannot be run or fails on a set (its error is
printed: a comparison with a build's answers missing would read as that build getting every frame wrong).
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evaluate import corner_error, corners_of, primary, whole_in_view  # noqa: E402


def parse(argv):
    options = {"mode": "document", "out": None, "sequence": False, "confusion": False, "outlines": False, "sets": [],
               "runs": []}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--sequence", "--confusion", "--outlines"):
            options[arg[2:]] = True
        elif arg in ("--mode", "--out", "--set", "--run"):
            if not args:
                raise ValueError(f"{arg} needs a value")
            value = args.pop(0)
            if arg in ("--set", "--run"):
                name, sep, path = value.partition("=")
                if not sep or not name or not path:
                    raise ValueError(f"{arg} takes NAME=PATH, not {value!r}")
                options[arg[2:] + "s"].append((name, path))
            else:
                options[arg[2:]] = value
        else:
            raise ValueError(f"unknown argument {arg!r}")
    if options["mode"] not in ("document", "selfie"):
        raise ValueError("--mode is document or selfie")
    if not options["sets"] or not options["runs"]:
        raise ValueError("at least one --set and one --run")
    return options


class BuildFailed(Exception):
    pass


def analyse(kycctl, mode, files, sequence, out_path):
    command = [kycctl, "analyze", "--mode", mode] + (["--sequence"] if sequence else []) + files
    with open(out_path, "w") as out:
        try:
            run = subprocess.run(command, stdout=out, stderr=subprocess.PIPE, check=False)
        except OSError as error:
            raise BuildFailed(f"cannot run {kycctl}: {error}") from error
    if run.returncode != 0:
        message = run.stderr.decode(errors="replace").strip().splitlines()
        raise BuildFailed(f"{kycctl} exited {run.returncode}" + (f": {message[-1]}" if message else ""))
    return [json.loads(line) for line in open(out_path) if line.startswith("{")]


def codes(result):
    return [f.get("code", "?") for f in result.get("feedback") or []]


def frame_corner_error(result, label):
    """The corner error of `result`'s outline against the label's corners, or None (no outline, or no true corners)."""
    found = corners_of(result.get("region"))
    if not found or not label or len(label.get("corners") or []) != 4:
        return None
    return corner_error(label["corners"], found, label["width"], label["height"])


def shown(error):
    return "-" if error is None else f"{error:.3f}"


def score(results, labels, mode):
    right = unsafe = 0
    errors = []
    for result in results:
        label = labels.get(os.path.basename(result.get("file", "")))
        if label is None:
            continue
        expected, got = label["expected"], primary(result)
        right += got == expected
        unsafe += got == "GOOD" and expected != "GOOD"
        if mode == "document" and label["sharp"] and whole_in_view(label):
            found = corners_of(result.get("region"))
            if found:
                errors.append(corner_error(label["corners"], found, label["width"], label["height"]))
    mean = sum(errors) / len(errors) if errors else float("nan")
    return right, len(results), unsafe, mean


def main(argv):
    try:
        options = parse(argv[1:])
        sets = []
        for name, directory in options["sets"]:
            labels = {f["file"]: f for f in json.load(open(os.path.join(directory, "labels.json")))["frames"]}
            prefix = options["mode"] + "_"
            files = sorted(os.path.join(directory, f) for f in labels
                           if f.startswith(prefix) and labels[f]["mode"] == options["mode"]
                           and not labels[f].get("sequence"))
            sets.append((name, labels, files))
    except (OSError, ValueError, KeyError) as error:
        print(f"compare: {error}", file=sys.stderr)
        print(__doc__, file=sys.stderr)
        return 2
    out = options["out"] or tempfile.mkdtemp(prefix="kyc-compare.")
    print(f"outputs in {out}")
    mode = options["mode"]
    results = {}
    for label, kycctl in options["runs"]:
        os.makedirs(os.path.join(out, label), exist_ok=True)
        for name, labels, files in sets:
            try:
                results[(label, name)] = analyse(kycctl, mode, files, False,
                                                 os.path.join(out, label, name + ".jsonl"))
                if options["sequence"]:
                    results[(label, name + "-seq")] = analyse(kycctl, mode, files, True,
                                                              os.path.join(out, label, name + "-seq.jsonl"))
            except BuildFailed as error:
                print(f"compare: build {label} on set {name}: {error}", file=sys.stderr)
                return 2

    print("\nper set: right/frames  unsafe GOOD" + ("  mean corner error" if mode == "document" else ""))
    for name, labels, _ in sets:
        cells = []
        for label, _ in options["runs"]:
            right, total, unsafe, mean = score(results[(label, name)], labels, mode)
            cells.append(f"{label}: {right}/{total} unsafe {unsafe}" + (f" ce {mean:.4f}" if mode == "document" else ""))
        print(f"  {name:10s} " + " | ".join(cells))

    reference = options["runs"][0][0]
    for label, _ in options["runs"][1:]:
        better = worse = changed = moved = 0
        print(f"\n{label} against {reference}: frames whose feedback changed")
        for name, labels, _ in sets:
            for key in [name] + ([name + "-seq"] if options["sequence"] else []):
                for a, b in zip(results[(reference, key)], results[(label, key)]):
                    file = os.path.basename(a.get("file", ""))
                    frame = labels.get(file, {})
                    errors = ((frame_corner_error(a, frame), frame_corner_error(b, frame)) if mode == "document"
                              else (None, None))
                    corners = f" corners {shown(errors[0])} -> {shown(errors[1])}" if any(
                        e is not None for e in errors) else ""
                    if codes(a) == codes(b) and a.get("capture") == b.get("capture"):
                        if options["outlines"] and (None in errors and errors[0] != errors[1]
                                                    or None not in errors and abs(errors[0] - errors[1]) > 0.01):
                            moved += 1
                            print(f"  {key} {file} ({frame.get('expected', '?')}): {codes(a)} outline moved{corners}")
                        continue
                    changed += 1
                    expected = frame.get("expected", "?")
                    mark = ""
                    if primary(b) == expected and primary(a) != expected:
                        mark, better = "better", better + 1
                    elif primary(a) == expected and primary(b) != expected:
                        mark, worse = "worse", worse + 1
                    print(f"  {key} {file} ({expected}): {codes(a)} -> {codes(b)}{corners} {mark}".rstrip())
        print(f"  {changed} changed, {better} better, {worse} worse"
              + (f"; {moved} outlines moved with the same answer" if options["outlines"] else ""))

    if options["confusion"]:
        for label in dict.fromkeys([reference, options["runs"][-1][0]]):
            confusion = collections.Counter()
            for name, labels, _ in sets:
                for result in results[(label, name)]:
                    expected = labels.get(os.path.basename(result.get("file", "")), {}).get("expected")
                    if expected and primary(result) != expected:
                        confusion[(expected, primary(result))] += 1
            print(f"\n{label}: mislabelled frames by (label -> answer)")
            for (expected, got), count in confusion.most_common():
                print(f"  {count:3d} {expected} -> {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
