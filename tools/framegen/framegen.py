#!/usr/bin/env python3
"""Deterministic generator of labelled synthetic camera frames for the frame-analysis accuracy tests.

Document frames: an ID-card-like document (photo, text lines, MRZ band) projected through a pinhole camera onto a
cluttered desk, one frame per expected primary feedback class (GOOD, NO_DOCUMENT, CUT_OFF, MOVE_CLOSER, MOVE_AWAY,
TILTED, TOO_DARK, TOO_BRIGHT, BLURRY, GLARE). Selfie frames: scikit-image's sample portrait placed, scaled and offset
in a room (GOOD, NO_FACE, MULTIPLE_FACES, FACE_TOO_SMALL, FACE_TOO_LARGE, FACE_NOT_CENTERED, TOO_DARK, BLURRY).
Every frame then goes through camera physics (lens blur, vignetting, shot and read noise, JPEG at a random quality,
baseline or progressive). Each class's parameters sit well inside its class, away from any threshold, so a label is
what a careful human would say about the frame.

Output: DIR/<mode>_<class>_<index>.jpg and DIR/labels.json:
  {"generator": "framegen/1", "seed": N, "frames": [{"file", "mode", "expected", "width", "height",
   "corners": [[x, y] x4] clockwise from top-left in frame pixels (document frames with a document, else null),
   "faces": [[x, y, w, h], ...] (selfie frames), "sharp": bool, "fill", "params": {...}}]}
With --sequence K it also writes K frames of one still GOOD document (seq_still_<i>.jpg, independent noise, sub-pixel
hand shake) and K frames of a moving one (seq_moving_<i>.jpg, every frame 3..5 % of the width from the last), labelled with "sequence".

Usage: framegen.py --out DIR --seed N --count-per-class K [--size 1280x720[,1920x1080]] [--modes document,selfie]
                   [--classes GOOD,BLURRY] [--sequence K] [--jobs N]
Same arguments, same bytes: every frame draws from its own generator seeded by (seed, class, index).
"""
import argparse
import json
import multiprocessing
import os
import sys
import zlib

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import camera  # noqa: E402
import scene  # noqa: E402

DOCUMENT_CLASSES = ["GOOD", "NO_DOCUMENT", "CUT_OFF", "MOVE_CLOSER", "MOVE_AWAY", "TILTED", "TOO_DARK",
                    "TOO_BRIGHT", "BLURRY", "GLARE"]
SELFIE_CLASSES = ["GOOD", "NO_FACE", "MULTIPLE_FACES", "FACE_TOO_SMALL", "FACE_TOO_LARGE", "FACE_NOT_CENTERED",
                  "TOO_DARK", "BLURRY"]

# Document geometry per class: fill = projected document area / frame area; pitch/yaw = out-of-plane tilt (degrees);
# roll = in-plane rotation (degrees).
GOOD_FILL = (0.28, 0.55)
GOOD_TILT = 7.0
GOOD_ROLL = 12.0


def frame_rng(seed, *parts):
    key = zlib.crc32("/".join(str(p) for p in (seed,) + parts).encode())
    return np.random.default_rng([seed, key])


# ----------------------------------------------------------------------------------------------------------------
# Geometry: a pinhole camera looking at a card-shaped plane.

def rotation(pitch, yaw, roll):
    p, y, r = np.radians([pitch, yaw, roll])
    rx = np.array([[1, 0, 0], [0, np.cos(p), -np.sin(p)], [0, np.sin(p), np.cos(p)]])
    ry = np.array([[np.cos(y), 0, np.sin(y)], [0, 1, 0], [-np.sin(y), 0, np.cos(y)]])
    rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    return rz @ rx @ ry


def project_card(w, h, fill, centre, pitch, yaw, roll):
    """Corners (TL, TR, BR, BL of the card) in frame pixels for a card whose projection covers about `fill` of the
    frame, centred at `centre` (pixels)."""
    focal = 0.8 * w  # about a 64 degree horizontal field of view, as phone main cameras have
    half = np.array([[-0.5, -0.5 / scene.CARD_ASPECT, 0], [0.5, -0.5 / scene.CARD_ASPECT, 0],
                     [0.5, 0.5 / scene.CARD_ASPECT, 0], [-0.5, 0.5 / scene.CARD_ASPECT, 0]])
    rotated = half @ rotation(pitch, yaw, roll).T
    depth = focal / np.sqrt(fill * w * h * scene.CARD_ASPECT)
    for _ in range(4):  # perspective changes the area a little: rescale the distance until the fill is right
        tx = (centre[0] - w / 2) * depth / focal
        ty = (centre[1] - h / 2) * depth / focal
        points = rotated + np.array([tx, ty, depth])
        corners = np.stack([focal * points[:, 0] / points[:, 2] + w / 2,
                            focal * points[:, 1] / points[:, 2] + h / 2], 1)
        area = abs(polygon_area(corners)) / (w * h)
        depth *= np.sqrt(area / fill)
    return corners


def polygon_area(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def canonical_order(corners):
    """Clockwise (in image coordinates, y down) starting at the corner nearest the frame's top-left."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ordered = corners[np.argsort(angles)]  # increasing angle = clockwise on screen
    start = int(np.argmin(ordered[:, 0] + ordered[:, 1]))
    return np.roll(ordered, -start, axis=0)


def skew_degrees(corners):
    """The largest deviation of a corner angle from 90 degrees, in the image."""
    worst = 0.0
    for i in range(4):
        a = corners[i - 1] - corners[i]
        b = corners[(i + 1) % 4] - corners[i]
        cosine = np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b))
        worst = max(worst, abs(np.degrees(np.arccos(np.clip(cosine, -1, 1))) - 90))
    return worst


def inside(corners, w, h, margin):
    return bool(np.all(corners[:, 0] >= margin) and np.all(corners[:, 0] <= w - margin)
                and np.all(corners[:, 1] >= margin) and np.all(corners[:, 1] <= h - margin))


def place_card(rng, w, h, fill_range, tilt, roll_max, margin_fraction=0.03, tilted=False):
    """Draws a pose whose corners all lie inside the frame with a margin; retries with new draws."""
    margin = margin_fraction * min(w, h)
    for _ in range(400):
        fill = rng.uniform(*fill_range)
        if tilted:
            strong = rng.uniform(38, 55) * rng.choice([-1, 1])
            weak = rng.uniform(-8, 8)
            pitch, yaw = (strong, weak) if rng.random() < 0.5 else (weak, strong)
        else:
            pitch, yaw = rng.uniform(-tilt, tilt, 2)
        roll = rng.uniform(-roll_max, roll_max)
        centre = (w / 2 + rng.uniform(-0.25, 0.25) * w, h / 2 + rng.uniform(-0.25, 0.25) * h)
        for place in (centre, (w / 2, h / 2)):  # off-centre, else the same pose in the middle
            corners = project_card(w, h, fill, place, pitch, yaw, roll)
            skew = skew_degrees(corners)
            # A tilted document looks tilted (corners at least 22 degrees off square); any other looks square.
            if inside(corners, w, h, margin) and (skew >= 22 if tilted else skew <= 6):
                return corners, dict(fill=fill, pitch=pitch, yaw=yaw, roll=roll)
    raise RuntimeError("no pose fits the frame")


def place_cut_off(rng, w, h):
    """A well-exposed, mid-size document with one or two corners outside the frame."""
    for _ in range(400):
        fill = rng.uniform(0.25, 0.5)
        pitch, yaw = rng.uniform(-GOOD_TILT, GOOD_TILT, 2)
        roll = rng.uniform(-GOOD_ROLL, GOOD_ROLL)
        side = rng.integers(0, 4)
        corners = project_card(w, h, fill, (w / 2, h / 2), pitch, yaw, roll)
        span = corners.max(axis=0) - corners.min(axis=0)
        # Push past one edge (or a corner) by 12..30 % of the document's size.
        shift = np.zeros(2)
        push = rng.uniform(0.12, 0.30)
        if side == 0:
            shift[0] = -(corners[:, 0].min() + push * span[0])
        elif side == 1:
            shift[0] = w - corners[:, 0].max() + push * span[0]
        elif side == 2:
            shift[1] = -(corners[:, 1].min() + push * span[1])
        else:
            shift[1] = h - corners[:, 1].max() + push * span[1]
        if rng.random() < 0.3:  # a corner: also past the other axis
            other = 1 - (side // 2)
            sign = rng.choice([-1, 1])
            shift[other] += sign * (push * span[other] + (corners[:, other].max() - corners[:, other].min()) * 0
                                    + (w if other == 0 else h) / 2 - span[other] / 2)
        corners = corners + shift
        outside = np.sum((corners[:, 0] < 0) | (corners[:, 0] > w) | (corners[:, 1] < 0) | (corners[:, 1] > h))
        visible = visible_fraction(corners, w, h)
        if 1 <= outside <= 3 and 0.55 <= visible <= 0.9:
            return corners, dict(fill=fill, pitch=pitch, yaw=yaw, roll=roll, corners_outside=int(outside),
                                 visible=visible)
    raise RuntimeError("no cut-off pose found")


def visible_fraction(corners, w, h):
    """The share of the document's area inside the frame."""
    canvas = np.zeros((h + 2, w + 2), np.uint8)
    big = np.zeros((3 * h, 3 * w), np.uint8)
    cv2.fillConvexPoly(big, np.round(corners + (w, h)).astype(np.int32), 1)
    total = big.sum()
    canvas = big[h:2 * h, w:2 * w]
    return float(canvas.sum()) / max(1, float(total))


# ----------------------------------------------------------------------------------------------------------------
# Frames.

def common_camera(rng, image, scale, exposure=(0.95, 1.1), read_sigma=(1.0, 2.5), blur=(0.4, 0.9)):
    image = camera.apply_exposure(image, rng.uniform(*exposure))
    image = camera.vignette(image, rng.uniform(0.0, 0.35))
    image = camera.lens_blur(image, rng.uniform(*blur) * scale)
    return image


def document_frame(rng, label, w, h):
    scale = camera.scale_of(h)
    # A camera's exposure control brings a frame without a card to an ordinary level, and a frame darker than half
    # the minimum brightness is TOO_DARK whatever it shows (docs/capture.md): no-document desks stay clear of that.
    image = scene.background(rng, w, h, **({"luminance_range": (60, 150)} if label == "NO_DOCUMENT" else {}))
    params = {}
    corners = None
    if label == "NO_DOCUMENT":
        pass
    elif label == "CUT_OFF":
        corners, params = place_cut_off(rng, w, h)
    elif label == "MOVE_CLOSER":
        corners, params = place_card(rng, w, h, (0.035, 0.09), GOOD_TILT, GOOD_ROLL)
    elif label == "MOVE_AWAY":
        corners, params = place_card(rng, w, h, (0.74, 0.84), 4.0, 2.0, margin_fraction=0.004)
    elif label == "TILTED":
        corners, params = place_card(rng, w, h, (0.22, 0.45), GOOD_TILT, GOOD_ROLL, tilted=True)
    else:
        corners, params = place_card(rng, w, h, GOOD_FILL, GOOD_TILT, GOOD_ROLL)
    if corners is not None:
        card, mask = scene.card(rng)
        scene.paste_warped(image, card, mask, corners)
    if label == "GLARE":
        blobs = int(rng.integers(1, 3))
        fraction = rng.uniform(0.05, 0.12)
        camera.add_glare(image, corners, rng, blobs, fraction)
        params.update(glare_blobs=blobs, glare_core_fraction=fraction)
    exposure = (0.9, 1.05)
    read_sigma = (1.0, 2.5)
    shot = rng.uniform(0.02, 0.08)
    if label == "TOO_DARK":
        exposure = (0.12, 0.22)
        read_sigma = (1.5, 3.0)
    elif label == "TOO_BRIGHT":
        exposure = (1.9, 2.4)
    gain = rng.uniform(*exposure)
    image = camera.apply_exposure(image, gain, offset=40.0 if label == "TOO_BRIGHT" else 0.0)
    image = camera.vignette(image, rng.uniform(0.0, 0.3))
    if label == "BLURRY":
        if rng.random() < 0.5:
            sigma = rng.uniform(4.0, 7.0) * scale
            image = camera.lens_blur(image, sigma)
            params.update(blur="gaussian", blur_sigma=sigma)
        else:
            length = rng.uniform(22, 40) * scale
            angle = rng.uniform(0, 180)
            image = camera.motion_blur(image, length, angle)
            params.update(blur="motion", blur_length=length, blur_angle=angle)
    else:
        image = camera.lens_blur(image, rng.uniform(0.4, 0.9) * scale)
    image = camera.sensor_noise(image, rng, rng.uniform(*read_sigma), shot)
    quality = int(rng.integers(60, 96))
    params.update(exposure_gain=gain, jpeg_quality=quality)
    jpeg = camera.finish(image, rng, quality)
    ordered = canonical_order(corners) if corners is not None else None
    fill = float(abs(polygon_area(corners)) / (w * h)) if corners is not None else 0.0
    if corners is not None:
        params["skew"] = skew_degrees(corners)
    return jpeg, dict(corners=None if ordered is None else [[round(float(x), 2), round(float(y), 2)]
                                                            for x, y in ordered],
                      faces=[], sharp=label != "BLURRY", fill=round(fill, 4), params=_round(params))


def place_portrait(image, rng, face_height, face_centre, mirror=False):
    """Pastes the head-and-shoulders crop so the face box is `face_height` pixels tall with its centre at
    `face_centre`; returns the face box in frame pixels."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = scene.PORTRAIT_CROP
    crop = scene.portrait()[y0:y1, x0:x1]
    fx, fy, fw, fh = scene.PORTRAIT_FACE_BOX
    if mirror:
        crop = crop[:, ::-1]
        fx = (x1 - x0) - (fx - x0) - fw + x0
    factor = face_height / fh
    face_cx = (fx - x0 + fw / 2) * factor
    face_cy = (fy - y0 + fh / 2) * factor
    ox, oy = face_centre[0] - face_cx, face_centre[1] - face_cy
    matrix = np.float32([[factor, 0, ox], [0, factor, oy]])
    warped = cv2.warpAffine(np.ascontiguousarray(crop), matrix, (w, h),
                            flags=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)  # cubic: the 512 px source is upscaled
    mask = np.ones(crop.shape[:2], np.float32)
    feather = max(2, int(6 / factor))
    mask[:feather, :] = 0  # soft edges all round except where the crop meets the frame bottom
    mask[:, :feather] = 0
    mask[:, -feather:] = 0
    mask = cv2.GaussianBlur(mask, (0, 0), feather)
    alpha = cv2.warpAffine(mask, matrix, (w, h), flags=cv2.INTER_LINEAR)
    image *= (1 - alpha)[..., None]
    image += warped * alpha[..., None]
    return [round(float(ox + (fx - x0) * factor), 1), round(float(oy + (fy - y0) * factor), 1),
            round(float(fw * factor), 1), round(float(fh * factor), 1)]


def selfie_frame(rng, label, w, h):
    scale = camera.scale_of(h)
    image = scene.background(rng, w, h, luminance_range=(70, 170))
    faces = []
    params = {}
    good_height = (0.36, 0.5)  # face box height / frame height
    centre_jitter = 0.04  # of the frame size
    if label == "NO_FACE":
        if rng.random() < 0.5:  # the suit, helmet and shuttle: a person-ish scene without a face
            part = scene.portrait()[260:512, :]
            size = (int(w * rng.uniform(0.4, 0.7)), int(h * rng.uniform(0.4, 0.7)))
            px, py = int(rng.uniform(0, w - size[0])), int(rng.uniform(0, h - size[1]))
            image[py:py + size[1], px:px + size[0]] = cv2.resize(part, size, interpolation=cv2.INTER_AREA)
    elif label == "MULTIPLE_FACES":
        height = rng.uniform(0.22, 0.3) * h
        for index, cx in enumerate([0.3, 0.7]):
            centre = (w * (cx + rng.uniform(-0.04, 0.04)), h * rng.uniform(0.38, 0.55))
            faces.append(place_portrait(image, rng, height, centre, mirror=index == 1))
    else:
        height = rng.uniform(*good_height) * h
        centre = np.array([w / 2, h * 0.45]) + rng.uniform(-centre_jitter, centre_jitter, 2) * (w, h)
        if label == "FACE_TOO_SMALL":
            height = rng.uniform(0.1, 0.16) * h
        elif label == "FACE_TOO_LARGE":
            height = rng.uniform(0.74, 0.86) * h
            centre = np.array([w / 2, h * 0.5]) + rng.uniform(-0.02, 0.02, 2) * (w, h)
        elif label == "FACE_NOT_CENTERED":
            direction = rng.choice(["left", "right", "up", "down"])
            # Sideways: a third of the width off; up or down: smaller, so the face stays whole in the frame.
            height = rng.uniform(0.3, 0.42 if direction in ("left", "right") else 0.32) * h
            dx = rng.uniform(0.24, 0.3) * w
            dy = rng.uniform(0.27, 0.3) * h
            centre = np.array([w / 2, h / 2]) + {"left": (-dx, 0), "right": (dx, 0), "up": (0, -dy),
                                                  "down": (0, dy)}[direction]
            params["direction"] = direction
        faces.append(place_portrait(image, rng, height, centre, mirror=rng.random() < 0.5))
    exposure = (0.9, 1.05)
    read_sigma = (1.0, 2.5)
    if label == "TOO_DARK":
        exposure = (0.12, 0.22)
        read_sigma = (1.5, 3.0)
    gain = rng.uniform(*exposure)
    image = camera.apply_exposure(image, gain)
    image = camera.vignette(image, rng.uniform(0.0, 0.3))
    if label == "BLURRY":
        if rng.random() < 0.5:
            sigma = rng.uniform(4.0, 6.0) * scale
            image = camera.lens_blur(image, sigma)
            params.update(blur="gaussian", blur_sigma=sigma)
        else:
            length = rng.uniform(22, 34) * scale
            angle = rng.uniform(0, 180)
            image = camera.motion_blur(image, length, angle)
            params.update(blur="motion", blur_length=length, blur_angle=angle)
    else:
        image = camera.lens_blur(image, rng.uniform(0.4, 0.9) * scale)
    image = camera.sensor_noise(image, rng, rng.uniform(*read_sigma), rng.uniform(0.02, 0.08))
    quality = int(rng.integers(60, 96))
    params.update(exposure_gain=gain, jpeg_quality=quality)
    jpeg = camera.finish(image, rng, quality)
    return jpeg, dict(corners=None, faces=faces, sharp=label != "BLURRY", fill=0.0, params=_round(params))


def sequence_frames(seed, count, w, h, moving):
    """One GOOD document scene filmed `count` times: each frame has new sensor noise and a sub-pixel hand shake
    (still) or a jump of 3..5 % of the frame width back and forth between frames (moving)."""
    rng = frame_rng(seed, "sequence", "moving" if moving else "still")
    background = scene.background(rng, w, h)
    card, mask = scene.card(rng)
    corners, params = place_card(rng, w, h, (0.3, 0.4), GOOD_TILT, GOOD_ROLL, margin_fraction=0.12)
    angle = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.cos(angle), np.sin(angle)])
    frames = []
    for index in range(count):
        frame_rng_ = frame_rng(seed, "sequence-frame", moving, index)
        if moving:
            # Back and forth between two poses 3..5 % of the frame width apart: every frame moved, none leaves.
            step = frame_rng_.uniform(0.03, 0.05) * w
            offset = direction * step * (index % 2)
        else:
            offset = frame_rng_.normal(0, 0.3, 2)
        placed = corners + offset
        image = background.copy()
        scene.paste_warped(image, card, mask, placed)
        image = camera.vignette(image, 0.15)
        image = camera.lens_blur(image, 0.6 * camera.scale_of(h))
        image = camera.sensor_noise(image, frame_rng_, 1.5, 0.04)
        jpeg = camera.finish(image, frame_rng_, 88)
        ordered = canonical_order(placed)
        frames.append((jpeg, dict(corners=[[round(float(x), 2), round(float(y), 2)] for x, y in ordered],
                                  faces=[], sharp=True, fill=round(float(abs(polygon_area(placed)) / (w * h)), 4),
                                  params=_round(params))))
    return frames


def _round(params):
    return {k: (round(float(v), 4) if isinstance(v, (float, np.floating)) else
                int(v) if isinstance(v, np.integer) else str(v) if isinstance(v, np.str_) else v)
            for k, v in params.items()}


def render(item):
    """One frame from (seed, mode, class, index, size): a pure function, so frames can render in parallel."""
    seed, mode, label, index, (w, h) = item
    rng = frame_rng(seed, mode, label, index, w, h)
    make = document_frame if mode == "document" else selfie_frame
    jpeg, info = make(rng, label, w, h)
    name = f"{mode}_{label.lower()}_{index:04d}_{h}p.jpg"
    return name, jpeg, dict(file=name, mode=mode, expected=label, width=w, height=h, **info)


def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        try:
            w, h = (int(v) for v in part.lower().split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"size '{part}' is not WIDTHxHEIGHT")
        if not (160 <= w <= 8000 and 120 <= h <= 8000):
            raise argparse.ArgumentTypeError(f"size '{part}' is out of range")
        sizes.append((w, h))
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="output directory (created)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count-per-class", type=int, required=True)
    parser.add_argument("--size", type=parse_sizes, default=[(1280, 720)],
                        help="WIDTHxHEIGHT, or a comma list used in turn (default 1280x720)")
    parser.add_argument("--modes", default="document,selfie")
    parser.add_argument("--classes", default="", help="comma list of classes to generate (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes (default: cores)")
    parser.add_argument("--sequence", type=int, default=0, help="also write still and moving sequences of K frames")
    args = parser.parse_args(argv)
    if args.count_per_class < 0 or args.sequence < 0:
        parser.error("counts must not be negative")
    modes = [m for m in args.modes.split(",") if m]
    wanted = set(c for c in args.classes.split(",") if c)
    os.makedirs(args.out, exist_ok=True)
    frames = []
    jobs = []
    for mode in modes:
        classes = {"document": DOCUMENT_CLASSES, "selfie": SELFIE_CLASSES}.get(mode)
        if classes is None:
            parser.error(f"unknown mode '{mode}'")
        for label in classes:
            if wanted and label not in wanted:
                continue
            for index in range(args.count_per_class):
                jobs.append((mode, label, index))
    work = [(args.seed, mode, label, index, args.size[index % len(args.size)]) for mode, label, index in jobs]
    if args.jobs > 1 and len(work) > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(render, work, chunksize=4)
    else:
        results = [render(item) for item in work]
    for name, jpeg, entry in results:
        with open(os.path.join(args.out, name), "wb") as handle:
            handle.write(jpeg)
        frames.append(entry)
    if args.sequence:
        w, h = args.size[0]
        for moving in (False, True):
            kind = "moving" if moving else "still"
            for index, (jpeg, info) in enumerate(sequence_frames(args.seed, args.sequence, w, h, moving)):
                name = f"seq_{kind}_{index:04d}_{h}p.jpg"
                with open(os.path.join(args.out, name), "wb") as handle:
                    handle.write(jpeg)
                frames.append(dict(file=name, mode="document", expected="GOOD", sequence=kind, width=w, height=h,
                                   **info))
    with open(os.path.join(args.out, "labels.json"), "w") as handle:
        json.dump(dict(generator="framegen/1", seed=args.seed, frames=frames), handle, indent=1)
    print(f"framegen: wrote {len(frames)} frames and labels.json to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
