#!/usr/bin/env python3
"""Pastes a printed page (light paper, lines of small text) into a frame: a fixture whose card lies beside print that
runs on to the frame's edge, as a page or a form beside the card does.

Usage: python3 tools/camsim/printed_page.py IN.jpg OUT.jpg --box X0,Y0,X1,Y1 [--text-scale 0.45] [--line-pitch 16]
           [--seed 7]

The page fills the box (input pixels, X1 and Y1 exclusive): text in OpenCV's Hershey font, softened as a lens does
(Gaussian, sigma 0.8), written back as JPEG quality 90. Deterministic for a given seed and OpenCV build.
"""
import argparse

import cv2
import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--box", required=True, help="X0,Y0,X1,Y1 in input pixels")
    parser.add_argument("--text-scale", type=float, default=0.45)
    parser.add_argument("--line-pitch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    x0, y0, x1, y1 = (int(v) for v in args.box.split(","))
    image = cv2.imread(args.source)
    if image is None:
        raise SystemExit(f"cannot read {args.source}")
    rng = np.random.default_rng(args.seed)
    page = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    page[:] = (190, 196, 196)
    for row in range(12, y1 - y0 - 6, args.line_pitch):
        x = 4
        while x < x1 - x0 - 10:
            length = int(rng.integers(3, 9))
            word = "".join(chr(int(c)) for c in rng.integers(65, 91, length))
            cv2.putText(page, word, (x, row), cv2.FONT_HERSHEY_SIMPLEX, args.text_scale, (40, 40, 40), 1,
                        cv2.LINE_AA)
            x += int(length * 22 * args.text_scale) + 6
    image[y0:y1, x0:x1] = cv2.GaussianBlur(page, (3, 3), 0.8)
    cv2.imwrite(args.out, image, [cv2.IMWRITE_JPEG_QUALITY, 90])


if __name__ == "__main__":
    main()
