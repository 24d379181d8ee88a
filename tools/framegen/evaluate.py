#!/usr/bin/env python3
"""Scores the engine on a framegen set from `kycctl analyze` output, for tuning thresholds without a Swift build.

Usage: kycctl analyze --mode document DIR/document_*.jpg > doc.jsonl
       kycctl analyze --mode selfie DIR/selfie_*.jpg > selfie.jsonl
       python3 tools/framegen/evaluate.py DIR/labels.json doc.jsonl selfie.jsonl
Reads one JSON object per line ({file, width, height, region, feedback, ...}); prints per-class feedback accuracy
(criterion: >= 95 % per class), the misses, and the mean corner error on sharp frames with the whole document in
view, every labelled corner inside the frame (criterion: <= 2 % of the diagonal). Exit code 1 when a criterion is
missed, 2 for unreadable input.
"""
import json
import math
import os
import sys


def primary(result):
    feedback = result.get("feedback") or []
    if not feedback:
        return "GOOD"
    first = feedback[0]
    return first.get("code", "?") if isinstance(first, dict) else str(first)


def corners_of(region):
    if not region:
        return None
    corners = region.get("corners") or []
    points = [(c["x"], c["y"]) if isinstance(c, dict) else (c[0], c[1]) for c in corners]
    return points if len(points) == 4 else None


def whole_in_view(label):
    """Whether every labelled corner lies inside the frame (a CUT_OFF card's do not, nor do those of a card held too
    close that runs past the frame): only then can an outline reach the document's corners."""
    corners = label.get("corners") or []
    return len(corners) == 4 and all(0 <= x <= label["width"] - 1 and 0 <= y <= label["height"] - 1
                                     for x, y in corners)


def corner_error(truth, found, width, height):
    diagonal = math.hypot(width, height)
    best = math.inf
    for shift in range(4):
        total = sum(math.dist(truth[i], found[(i + shift) % 4]) for i in range(4))
        best = min(best, total / 4 / diagonal)
    return best


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        labels = {f["file"]: f for f in json.load(open(argv[1]))["frames"]}
        results = {}
        for path in argv[2:]:
            for line in open(path):
                line = line.strip()
                if line.startswith("{"):
                    item = json.loads(line)
                    results[os.path.basename(item.get("file", ""))] = item
    except (OSError, ValueError, KeyError) as error:
        print(f"evaluate: {error}", file=sys.stderr)
        return 2
    ok = True
    for mode in ("document", "selfie"):
        rows = {}
        for name, label in labels.items():
            if label["mode"] != mode or label.get("sequence") or name not in results:
                continue
            rows.setdefault(label["expected"], []).append((name, primary(results[name]), results[name]))
        if not rows:
            continue
        print(f"{mode} feedback accuracy (required >= 95 % per class)")
        for expected, items in rows.items():
            hits = sum(1 for _, got, _ in items if got == expected)
            accuracy = hits / len(items)
            ok &= accuracy >= 0.95
            misses = {}
            for _, got, _ in items:
                if got != expected:
                    misses[got] = misses.get(got, 0) + 1
            detail = " ".join(f"{k}x{v}" for k, v in sorted(misses.items()))
            print(f"  {expected:18s} {accuracy * 100:5.1f} %  ({hits}/{len(items)})  {detail}")
    errors = []
    for name, label in labels.items():
        if label["mode"] == "document" and label["sharp"] and whole_in_view(label) and name in results:
            found = corners_of(results[name].get("region"))
            if found:
                errors.append(corner_error(label["corners"], found, label["width"], label["height"]))
    if errors:
        mean = sum(errors) / len(errors)
        ok &= mean <= 0.02
        print(f"corner error on sharp detected frames: mean {mean:.4f} of the diagonal over {len(errors)} frames "
              f"(required <= 0.02)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
