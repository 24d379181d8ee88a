#!/usr/bin/env python3
"""Compares `kycctl` builds on labelled frame sets (framegen's or camsim's): what a change to the engine did.

Usage:
  python3 tools/framegen/compare.py [--mode document|selfie] [--out DIR] [--sequence] [--confusion]
      [--outlines] [--trace] --set NAME=DIR [--set NAME=DIR ...] --run LABEL=KYCCTL [--run LABEL=KYCCTL ...]

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
  - with --confusion, the reference build's and the last build's mislabelled frames by (label, answer), most first;
  - with --trace (documents; builds that have `kycctl analyze --trace`), each listed frame also names the search
    that answered it in each build (`[find.first -> find.pitchedPastWinner]`: the last step of its `searchTrace` that
    gave an outline, docs/capture.md "Tracing the document search"), and per build the frames each search answered.
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
    options = {"mode": "document", "out": None, "sequence": False, "confusion": False, "outlines": False,
               "trace": False, "sets": [], "runs": []}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("--sequence", "--confusion", "--outlines", "--trace"):
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
    if options["trace"] and options["mode"] != "document":
        raise ValueError("--trace reads the document search: document mode only")
    return options


class BuildFailed(Exception):
    pass


def analyse(kycctl, mode, files, sequence, out_path, trace=False):
    command = ([kycctl, "analyze", "--mode", mode] + (["--sequence"] if sequence else [])
               + (["--trace"] if trace else []) + files)
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


# Steps that record an outline without answering on it (docs/capture.md, "Tracing the document search").
NOT_ANSWERS = ("locate.largerCardImplied", "locate.givenUpRepeating")


def answered_by(result):
    """The search that gave `result` its outline, from its searchTrace: the last `locate.*` step that took an outline
    whose corners are the answer's (each within 0.2 % of the frame's diagonal); else, when the frame-wide search's
    `find.result` is the answer, the step of that search before it. Searches with a prefix (`detectionScale.`,
    `window.`, `colour.`) answer only through a `locate.*` step. "-" for no outline, "?" when no step has it."""
    region = corners_of(result.get("region"))
    if not region:
        return "-"
    tolerance = 0.002 * (result["width"] ** 2 + result["height"] ** 2) ** 0.5
    steps = result.get("searchTrace") or []

    def is_answer(step):
        corners = [(p["x"], p["y"]) for p in step["corners"]]
        return len(corners) == 4 and all(((x - u) ** 2 + (y - v) ** 2) ** 0.5 <= tolerance
                                         for (x, y), (u, v) in zip(corners, region))
    taken = [s for s in steps if s["step"].startswith("locate.") and s["step"] not in NOT_ANSWERS and is_answer(s)]
    if taken:
        return taken[-1]["step"]
    for index in range(len(steps) - 1, -1, -1):
        if steps[index]["step"] == "find.result" and is_answer(steps[index]):
            found = [s["step"] for s in steps[:index] if s["step"].startswith("find.")]
            return found[-1] if found else "find.result"
    return "?"


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
                                                 os.path.join(out, label, name + ".jsonl"), options["trace"])
                if options["sequence"]:
                    results[(label, name + "-seq")] = analyse(kycctl, mode, files, True,
                                                              os.path.join(out, label, name + "-seq.jsonl"),
                                                              options["trace"])
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
    if options["trace"]:
        print("\nframes answered by each search (single frames, every set)")
        for label, _ in options["runs"]:
            searches = collections.Counter(answered_by(r) for name, _, _ in sets for r in results[(label, name)])
            print(f"  {label}: " + ", ".join(f"{step} {count}" for step, count in searches.most_common()))

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
                    if options["trace"]:
                        corners += f" [{answered_by(a)} -> {answered_by(b)}]"
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
