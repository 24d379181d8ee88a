#!/usr/bin/env python3
"""Writes a contact sheet PNG of a camsim (or framegen) set: thumbnails with the class, the true quad (documents) or
face boxes (selfies) drawn.

Usage: python3 tools/camsim/contact_sheet.py DIR/labels.json OUT.png [--per-class N] [--width 320]
           [--classes A,B] [--answers ANSWERS.jsonl [--misses]]

With --answers (`kycctl analyze` output for the set, e.g. compare.py's DIR/LABEL/NAME.jsonl), each document tile also
shows the engine's outline (red) and its feedback codes; --misses keeps only the frames whose first code is not the
label's: what the engine got wrong, with what it saw.
"""
import argparse
import json
import os

import cv2
import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels")
    parser.add_argument("out")
    parser.add_argument("--per-class", type=int, default=4)
    parser.add_argument("--width", type=int, default=320)
    parser.add_argument("--classes", default="")
    parser.add_argument("--answers", default="")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    if args.misses and not args.answers:
        parser.error("--misses needs --answers")
    labels = json.load(open(args.labels))["frames"]
    root = os.path.dirname(args.labels)
    wanted = [c for c in args.classes.split(",") if c]
    # The engine's answer per file name: its outline (input pixels) and its codes, first first.
    answers = {}
    if args.answers:
        for line in open(args.answers):
            answer = json.loads(line)
            codes = [f["code"] for f in answer.get("feedback") or []] or ["GOOD"]
            region = answer.get("region")
            corners = [(c["x"], c["y"]) for c in region["corners"]] if region else None
            answers[os.path.basename(answer["file"])] = (codes, corners)
    rows = {}
    for f in labels:
        if wanted and f["expected"] not in wanted:
            continue
        answer = answers.get(os.path.basename(f["file"]))
        if args.misses and (answer is None or answer[0][0] == f["expected"]):
            continue
        rows.setdefault(f["expected"], [])
        if len(rows[f["expected"]]) < args.per_class:
            rows[f["expected"]].append(f)
    tw = args.width
    th = tw * 9 // 16
    sheet = []
    for cls, frames in rows.items():
        tiles = []
        for f in frames:
            img = cv2.imread(os.path.join(root, f["file"]))
            # Fit the frame in the tile (portrait selfies are letterboxed, not cropped).
            s = min(tw / img.shape[1], th / img.shape[0])
            tile = np.zeros((th, tw, 3), np.uint8)
            small = cv2.resize(img, (int(img.shape[1] * s), int(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
            ox = (tw - small.shape[1]) // 2
            tile[:small.shape[0], ox:ox + small.shape[1]] = small
            if f.get("corners"):
                q = np.array(f["corners"]) * s + (ox, 0)
                cv2.polylines(tile, [np.round(q * 16).astype(np.int32)], True, (0, 255, 0), 1, cv2.LINE_AA, 4)
                cv2.circle(tile, tuple(int(v) for v in q[0]), 3, (0, 0, 255), -1)
            answer = answers.get(os.path.basename(f["file"]))
            if answer and answer[1]:
                q = np.array(answer[1]) * s + (ox, 0)
                cv2.polylines(tile, [np.round(q * 16).astype(np.int32)], True, (0, 0, 255), 1, cv2.LINE_AA, 4)
            for x, y, w, h in f.get("faces") or []:
                cv2.rectangle(tile, (int(x * s) + ox, int(y * s)), (int((x + w) * s) + ox, int((y + h) * s)),
                              (0, 255, 0), 1)
            p = f.get("params", {})
            if f.get("mode") == "selfie":
                text = f"{cls} L{p.get('face_luma', p.get('frame_luma', 0)):.0f} s{p.get('face_size', 0):.2f}"
            else:
                text = f"{cls} L{p.get('doc_luma', p.get('frame_luma', 0)):.0f} s{p.get('saturated', 0):.2f}"
            lines = [text, os.path.splitext(os.path.basename(f["file"]))[0].split("_", 1)[-1]]
            if answer:
                lines.append(",".join(answer[0]))
            for k, line in enumerate(lines):
                cv2.putText(tile, line, (4, 14 + 14 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
                cv2.putText(tile, line, (4, 14 + 14 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1,
                            cv2.LINE_AA)
            tiles.append(tile)
        while len(tiles) < args.per_class:
            tiles.append(np.zeros((th, tw, 3), np.uint8))
        sheet.append(np.hstack(tiles))
    cv2.imwrite(args.out, np.vstack(sheet))


if __name__ == "__main__":
    main()
