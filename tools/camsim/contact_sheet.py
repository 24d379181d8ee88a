#!/usr/bin/env python3
"""Writes a contact sheet PNG of a camsim (or framegen) set: thumbnails with the class, the true quad (documents) or
face boxes (selfies) drawn.

Usage: python3 tools/camsim/contact_sheet.py DIR/labels.json OUT.png [--per-class N] [--width 320]
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
    args = parser.parse_args()
    labels = json.load(open(args.labels))["frames"]
    root = os.path.dirname(args.labels)
    wanted = [c for c in args.classes.split(",") if c]
    rows = {}
    for f in labels:
        if wanted and f["expected"] not in wanted:
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
            for x, y, w, h in f.get("faces") or []:
                cv2.rectangle(tile, (int(x * s) + ox, int(y * s)), (int((x + w) * s) + ox, int((y + h) * s)),
                              (0, 255, 0), 1)
            p = f.get("params", {})
            if f.get("mode") == "selfie":
                text = f"{cls} L{p.get('face_luma', p.get('frame_luma', 0)):.0f} s{p.get('face_size', 0):.2f}"
            else:
                text = f"{cls} L{p.get('doc_luma', p.get('frame_luma', 0)):.0f} s{p.get('saturated', 0):.2f}"
            cv2.putText(tile, text, (4, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(tile, text, (4, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1, cv2.LINE_AA)
            tiles.append(tile)
        while len(tiles) < args.per_class:
            tiles.append(np.zeros((th, tw, 3), np.uint8))
        sheet.append(np.hstack(tiles))
    cv2.imwrite(args.out, np.vstack(sheet))


if __name__ == "__main__":
    main()
