#!/usr/bin/env python3
"""camsim: an independent generator of labelled document and selfie frames with a physical camera model.

Writes JPEG frames and a labels.json in tools/framegen's format (so tools/framegen/evaluate.py and the Swift accuracy
test read it). Each class is defined by the physical quantity docs/capture.md judges, chosen with a clear margin
from the engine's default threshold; every frame is measured after rendering (on the decoded JPEG) and re-drawn if
its truth would be ambiguous. Selfie frames (--mode selfie) are rendered by selfies.py. See tools/camsim/README.md.
"""
import argparse
import json
import math
import os
import sys
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import camera  # noqa: E402
import documents  # noqa: E402
import scenes  # noqa: E402
import selfies  # noqa: E402

GENERATOR = "camsim/1"
CLASSES = ["GOOD", "NO_DOCUMENT", "CUT_OFF", "MOVE_CLOSER", "MOVE_AWAY", "TILTED", "TOO_DARK", "TOO_BRIGHT", "BLURRY",
           "GLARE"]
DEFAULT_SIZES = "1280x720,1920x1080,1280x720,1920x1080,1440x1080"

# Margins around the engine's documented defaults (docs/capture.md). Left: threshold; right: what a frame of the
# class (or of any other class, for "normal") must satisfy here.
EDGE_INSIDE = 0.05       # edgeMargin 0.01: corners at least 5 % of the short side inside the frame
EDGE_OUTSIDE = -0.05     # CUT_OFF: a corner at least 5 % of the short side outside
FILL_NORMAL = (0.28, 0.60)   # minFill 0.18 / maxFill 0.75
FILL_CLOSER = (0.05, 0.115)  # < 0.18
FILL_AWAY = (0.86, 1.15)     # > 0.75 (visible part, clipped to the frame, also > 0.84)
SKEW_NORMAL = 7.0            # maxSkew 15
SKEW_TILTED = (23.0, 40.0)
LUMA_NORMAL = (100.0, 195.0)  # minBrightness 80 / maxBrightness 225
LUMA_DARK = 52.0
LUMA_BRIGHT = 238.0
SAT_NORMAL = 0.004           # maxGlareFraction 0.03
BLOB_NORMAL = 0.003          # maxGlareBlob 0.015
SAT_GLARE = (0.065, 0.22)    # > 0.03, well under overexposedFraction 0.35
SAT_OVEREXPOSED = 0.55
# Blur in "units" of (frame long side / 640): the engine's working image is ~640 px long (docs/capture.md),
# where a Gaussian sigma of 1 working pixel gives sharpness ~0.5 (the threshold).
BLUR_DEFOCUS = (3.5, 8.0)    # disc radius 3.5 units = sigma 1.75 working px: sharpness well under 0.3
BLUR_MOTION = (8.0, 20.0)    # a 8-unit smear leaves a third of the step in the fine difference: ~0


def largest_card_area(width, height):
    aspect = 85.60 / 53.98
    return height * height * aspect if width / height >= aspect else width * width / aspect


def order_clockwise(q):
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # y points down: increasing angle runs clockwise on screen
    start = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -start, axis=0)


def skew_of(q):
    worst = 0.0
    for i in range(4):
        a, b, c = q[i - 1], q[i], q[(i + 1) % 4]
        u, v = a - b, c - b
        cos = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))
        worst = max(worst, abs(math.degrees(math.acos(np.clip(cos, -1, 1))) - 90))
    return worst


def edge_distance(q, width, height):
    short = min(width, height)
    d = [min(x, width - 1 - x, y, height - 1 - y) for x, y in q]
    return min(d) / short


def clipped_area(q, width, height):
    frame = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    area, _ = cv2.intersectConvexConvex(q.astype(np.float32), frame)
    return float(area)


def choose_pose(rng, cls, width, height, K, size_mm):
    """Samples a document pose until the projected quad meets the class's geometric definition with margin."""
    w, h = size_mm
    full = largest_card_area(width, height)
    for _ in range(400):
        roll = float(np.clip(rng.normal(0, 9), -25, 25))
        if cls == "TILTED":
            big = rng.uniform(38, 62) * rng.choice([-1, 1])
            small = rng.normal(0, 6)
            pitch, yaw = (big, small) if rng.random() < 0.5 else (small, big)
        else:
            pitch, yaw = rng.normal(0, 5), rng.normal(0, 5)
        if cls == "MOVE_CLOSER":
            fill = rng.uniform(*FILL_CLOSER)
        elif cls == "MOVE_AWAY":
            fill = rng.uniform(*FILL_AWAY)
        elif cls == "CUT_OFF":
            fill = rng.uniform(0.25, 0.5)
        elif cls == "TILTED":
            fill = rng.uniform(0.25, 0.5)
        else:
            fill = rng.uniform(*FILL_NORMAL)
        if cls == "CUT_OFF":
            centre = (rng.uniform(-0.05, 1.05) * width, rng.uniform(-0.05, 1.05) * height)
        elif cls == "MOVE_AWAY":
            centre = (width / 2 + rng.normal(0, 0.03) * width, height / 2 + rng.normal(0, 0.03) * height)
        else:
            centre = (rng.uniform(0.25, 0.75) * width, rng.uniform(0.25, 0.75) * height)
        R = camera.rotation(pitch, yaw, roll)
        t = camera.place(K, R, size_mm, centre, fill * full)
        H = camera.plane_homography(K, R, t, size_mm)
        q = camera.apply_h(H, [(0, 0), (w, 0), (w, h), (0, h)])
        area = camera.quad_area(q)
        skew = skew_of(q)
        edge = edge_distance(q, width, height)
        visible = clipped_area(q, width, height)
        true_fill = area / full
        ok = True
        if cls == "TILTED":
            ok = SKEW_TILTED[0] <= skew <= SKEW_TILTED[1] and edge >= EDGE_INSIDE and 0.22 <= true_fill <= 0.6
        elif cls == "CUT_OFF":
            ok = (skew <= SKEW_NORMAL and edge <= EDGE_OUTSIDE and visible / area >= 0.55 and visible / full <= 0.55
                  and visible / full >= 0.15)
        elif cls == "MOVE_AWAY":
            ok = skew <= SKEW_NORMAL and visible / full >= 0.84
        elif cls == "MOVE_CLOSER":
            ok = skew <= SKEW_NORMAL and edge >= EDGE_INSIDE and true_fill <= FILL_CLOSER[1] + 0.01
        else:
            ok = skew <= SKEW_NORMAL and edge >= EDGE_INSIDE and FILL_NORMAL[0] - 0.02 <= true_fill <= FILL_NORMAL[1] + 0.03
        if ok:
            return H, q, {"pitch": round(float(pitch), 2), "yaw": round(float(yaw), 2), "roll": round(roll, 2),
                          "fill": round(true_fill, 4), "visible_fill": round(visible / full, 4),
                          "skew": round(skew, 2), "edge_distance": round(edge, 4),
                          "distance_mm": round(float(np.linalg.norm(t)), 1)}
    raise RuntimeError(f"no pose found for {cls}")


def render_scene(rng, cls, width, height):
    """Scene radiance (linear RGB) as the lens sees it, before optics. Returns (radiance, H, quad, info)."""
    K = camera.intrinsics(width, height, rng.uniform(58, 72), rng)
    kind = "passport" if rng.random() < 0.15 else "id1"
    size_mm = documents.ID3_MM if kind == "passport" else documents.ID1_MM
    pose_cls = cls if cls != "NO_DOCUMENT" else "GOOD"
    H, quad, info = choose_pose(rng, pose_cls, width, height, K, size_mm)
    has_doc = cls != "NO_DOCUMENT"
    setting = "desk" if rng.random() < 0.6 else "handheld"
    info.update({"document": kind if has_doc else None, "setting": setting,
                 "hfov": round(float(2 * math.degrees(math.atan(width / 2 / K[0, 0]))), 1)})
    shape = (height, width)
    light = scenes.light_colour(rng)
    shadow = rng.random() < 0.35
    E = scenes.irradiance(rng, width, height, shadow)
    info["cast_shadow"] = bool(shadow)
    # Background reflectance.
    if setting == "desk":
        surface = str(rng.choice(["wood", "fabric", "paper", "plain"]))
        Hinv = np.linalg.inv(H)
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
        P = np.stack([xx, yy, np.ones_like(xx)], axis=-1) @ Hinv.T
        front = np.sign(P[..., 2]) == np.sign((Hinv @ np.array([width / 2, height / 2, 1.0]))[2])
        X = (P[..., 0] / P[..., 2]).astype(np.float32)
        Y = (P[..., 1] / P[..., 2]).astype(np.float32)
        X[~front], Y[~front] = 0, 0
        bg = scenes.desk_surface(rng, X, Y, surface)
        bg[~front] = 0.3
        allow = ["pen", "coin", "mug", "keyboard", "cable"]
        if rng.random() < 0.8:
            scenes.desk_objects(rng, bg, H, (-8, -8, size_mm[0] + 8, size_mm[1] + 8), allow)
        info["surface"] = surface
        bg_radiance = bg * E[..., None] * light
    else:
        bg = scenes.room_background(rng, width, height)
        bg_radiance = bg * E[..., None] * light
        # The room is far behind the card the lens is focused on: strongly defocused.
        bg_radiance = camera.convolve(bg_radiance, camera.disc_kernel(rng.uniform(0.006, 0.02) * width))
    radiance = bg_radiance
    refl_scale = E[..., None] * light
    # Card density: enough texels for the nearest (largest) side of the projected document.
    edges = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
    density = float(np.clip(max(edges[0], edges[2]) / size_mm[0] * 1.3, 3, 24))
    density = max(density, float(np.clip(max(edges[1], edges[3]) / size_mm[1] * 1.3, 3, 24)))
    S = np.array([[1 / density, 0, 0.5 / density], [0, 1 / density, 0.5 / density], [0, 0, 1]])
    Htex = H @ S
    warp = lambda img: cv2.warpPerspective(img, Htex, (width, height), flags=cv2.INTER_LINEAR,  # noqa: E731
                                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    hand = setting == "handheld" or rng.random() < 0.2
    behind = front_mask = None
    if hand:
        behind, skin_b, front_mask, skin_f = scenes.hand_layers(rng, H, size_mm, shape)
        if setting == "desk":
            behind = None  # a finger pressing the card down: no palm under it
        info["hand"] = True
    if behind is not None:
        shade = scenes.shade_rounded(behind, 0.01 * width)
        radiance = radiance * (1 - behind[..., None]) + (behind * shade)[..., None] * skin_b * refl_scale
    if has_doc:
        refl, mask, _, design = documents.render_document(rng, density, kind)
        card_mask = warp(mask)
        card_pre = warp(refl * mask[..., None])
        if setting == "desk":
            # Contact shadow of the card's thickness on the desk.
            off = rng.uniform(1, 4, 2)
            Msh = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
            sh = cv2.warpAffine(card_mask, Msh, (width, height))
            sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(1.5, 4))
            radiance = radiance * (1 - 0.35 * sh[..., None])
        # Laminate: a broad faint sheen everywhere, and in GLARE frames the mirror image of a lamp or window.
        th, tw = mask.shape
        ty, tx = np.mgrid[0:th, 0:tw].astype(np.float32)
        sx, sy = rng.uniform(0.1, 0.9) * tw, rng.uniform(0.1, 0.9) * th
        sheen = rng.uniform(0.0, 0.05) * np.exp(-(((tx - sx) ** 2 + (ty - sy) ** 2) / (0.5 * tw) ** 2))
        spec = sheen
        if cls == "GLARE":
            frac = rng.uniform(0.09, 0.2)
            aspect = rng.uniform(0.5, 2.0)
            area = frac * tw * th
            rx, ry = math.sqrt(area * aspect / math.pi), math.sqrt(area / aspect / math.pi)
            gx, gy = rng.uniform(0.25, 0.75) * tw, rng.uniform(0.25, 0.75) * th
            a = rng.uniform(0, math.pi)
            u = ((tx - gx) * math.cos(a) + (ty - gy) * math.sin(a)) / rx
            v = (-(tx - gx) * math.sin(a) + (ty - gy) * math.cos(a)) / ry
            r = np.sqrt(u * u + v * v)
            peak = rng.uniform(5, 14)
            # Saturated core out to r ~ 1, then a halo falling off (the reflected lamp's own glow).
            spec = spec + peak * np.exp(-np.power(r / 1.05, 4) * math.log(peak * 2)).astype(np.float32)
            info["glare_peak"] = round(float(peak), 2)
            info["glare_target_fraction"] = round(float(frac), 3)
        card_spec = warp((spec * mask).astype(np.float32))
        card_radiance = card_pre * refl_scale + card_spec[..., None] * E[..., None] * light
        radiance = radiance * (1 - card_mask[..., None]) + card_radiance
        info["design"] = design
    if front_mask is not None:
        # The thumb shades the card next to it, then covers part of one edge (never a corner).
        off = rng.uniform(2, 8, 2)
        sh = cv2.warpAffine(front_mask, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (width, height))
        sh = cv2.GaussianBlur(sh, (0, 0), rng.uniform(3, 8))
        radiance = radiance * (1 - 0.4 * sh[..., None])
        shade = scenes.shade_rounded(front_mask, 0.006 * width)
        radiance = radiance * (1 - front_mask[..., None]) + (front_mask * shade)[..., None] * skin_f * refl_scale
    return radiance.astype(np.float32), H, quad, info


def measure(gray, quad, width, height):
    """The physical truth the class is defined by, measured on the decoded frame."""
    out = {"frame_luma": float(gray.mean())}
    if quad is None:
        return out
    mask = np.zeros((height, width), np.uint8)
    cv2.fillPoly(mask, [np.round(quad * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    inside = mask.astype(bool)
    area = max(int(inside.sum()), 1)
    sat = (gray >= 250) & inside
    n, _, stats, _ = cv2.connectedComponentsWithStats(sat.astype(np.uint8), connectivity=4)
    blob = int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0
    out.update({"doc_luma": float(gray[inside].mean()), "saturated": float(sat.sum()) / area,
                "largest_blob": blob / area})
    return out


def luma_window(cls):
    if cls == "TOO_DARK":
        return (12.0, LUMA_DARK - 10)
    if cls == "TOO_BRIGHT":
        return (LUMA_BRIGHT + 4, 254.0)
    return (LUMA_NORMAL[0] + 10, LUMA_NORMAL[1] - 15)


def acceptable(cls, m):
    """True when the rendered frame's truth is unambiguous for its class (docs/capture.md definitions)."""
    if cls == "NO_DOCUMENT":
        return LUMA_NORMAL[0] <= m["frame_luma"] <= LUMA_NORMAL[1]
    if cls == "TOO_DARK":
        return m["doc_luma"] <= LUMA_DARK and m["frame_luma"] <= 60
    if cls == "TOO_BRIGHT":
        return (m["doc_luma"] >= LUMA_BRIGHT or m["saturated"] >= SAT_OVEREXPOSED) and m["frame_luma"] >= 180
    if not LUMA_NORMAL[0] <= m["doc_luma"] <= LUMA_NORMAL[1]:
        return False
    if cls == "GLARE":
        return SAT_GLARE[0] <= m["saturated"] <= SAT_GLARE[1] and m["largest_blob"] >= 0.04
    return m["saturated"] <= SAT_NORMAL and m["largest_blob"] <= BLOB_NORMAL


def make_frame(task):
    seed, cls, index, width, height, out_dir = task
    unit = max(width, height) / 640.0
    last = None
    for attempt in range(12):
        rng = np.random.default_rng([seed, CLASSES.index(cls), index, attempt])
        radiance, H, quad, info = render_scene(rng, cls, width, height)
        # Optics: defocus disc and shake path in linear light (so a blurred highlight still clips), then the
        # lens's own softness and residual vignetting.
        sharp = True
        if cls == "BLURRY":
            sharp = False
            if rng.random() < 0.5:
                r = rng.uniform(*BLUR_DEFOCUS) * unit
                radiance = camera.convolve(radiance, camera.disc_kernel(r))
                info.update({"blur": "defocus", "blur_radius_px": round(float(r), 2)})
            else:
                length, angle = rng.uniform(*BLUR_MOTION) * unit, rng.uniform(0, 180)
                radiance = camera.convolve(radiance, camera.motion_kernel(rng, length, angle))
                info.update({"blur": "motion", "blur_length_px": round(float(length), 2),
                             "blur_angle": round(float(angle), 1)})
        else:
            radiance = camera.residual_blur(radiance, rng, unit)
        radiance = camera.lens(radiance, rng, width, height)
        # Exposure: the camera meters the scene; darkness is the AE running out of exposure time and gain in a dim
        # room, over-exposure is AE lag after the scene brightened (or a backlit meter).
        if cls == "TOO_DARK":
            gain, bias = rng.uniform(8, 24), rng.uniform(-3.6, -2.4)
        elif cls == "TOO_BRIGHT":
            gain, bias = rng.uniform(1, 1.5), rng.uniform(2.0, 3.2)
        else:
            gain, bias = float(np.exp(rng.uniform(0, math.log(6)))), rng.normal(0, 0.3)
        sensor = {"full_well": rng.uniform(5000, 12000), "gain": gain, "read_noise": rng.uniform(1.5, 4.0)}
        isp = camera.random_isp(rng, unit, saturation_max=1.35, contrast_max=0.35)
        noise_seed = int(rng.integers(0, 2 ** 31))

        def judge(gray):
            m = measure(gray, quad if cls != "NO_DOCUMENT" else None, width, height)
            return m.get("doc_luma", m["frame_luma"]), m

        data, m, bias = camera.auto_exposed(radiance, bias, sensor, isp, noise_seed, luma_window(cls), judge,
                                            settled=lambda m: cls == "GLARE" and acceptable(cls, m))
        last = (cls, m)
        if acceptable(cls, m):
            break
    else:
        raise RuntimeError(f"{cls} #{index}: no unambiguous frame in 12 attempts (last {last})")
    name = f"document_{cls.lower()}_{index:04d}_{width}x{height}.jpg"
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data)
    has_doc = cls != "NO_DOCUMENT"
    corners = [[round(float(x), 2), round(float(y), 2)] for x, y in order_clockwise(quad)] if has_doc else None
    params = dict(info)
    params.update({"attempt": attempt, "exposure_bias_ev": round(float(bias), 2), "gain": round(gain, 2),
                   "jpeg_quality": isp["jpeg_quality"], "progressive": isp["progressive"],
                   "sharpen": round(isp["sharpen"], 2)})
    params.update({k: round(v, 4) for k, v in m.items()})
    if not has_doc:
        for key in ("pitch", "yaw", "roll", "fill", "visible_fill", "skew", "edge_distance", "distance_mm"):
            params.pop(key, None)
    return {"file": name, "mode": "document", "expected": cls, "width": width, "height": height,
            "corners": corners, "faces": [], "sharp": sharp, "fill": info["fill"] if has_doc else 0.0,
            "params": params}


def parse_sizes(text):
    sizes = []
    for part in text.split(","):
        w, h = part.lower().split("x")
        sizes.append((int(w), int(h)))
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="output directory (created)")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count-per-class", type=int, required=True)
    parser.add_argument("--size", default=None,
                        help=f"WIDTHxHEIGHT, or a comma list used in turn (default {DEFAULT_SIZES}; selfies "
                             f"{selfies.DEFAULT_SIZES})")
    parser.add_argument("--mode", choices=["document", "selfie"], default="document",
                        help="document frames (default) or selfie frames (a person in front of the front camera)")
    parser.add_argument("--classes", default=None, help="comma list of classes (default: all of the mode's)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel processes (default: cores)")
    args = parser.parse_args(argv)
    known = CLASSES if args.mode == "document" else selfies.SELFIE_CLASSES
    classes = [c.strip().upper() for c in (args.classes or ",".join(known)).split(",") if c.strip()]
    unknown = [c for c in classes if c not in known]
    if unknown:
        parser.error(f"unknown classes: {', '.join(unknown)} (known: {', '.join(known)})")
    sizes = parse_sizes(args.size or (DEFAULT_SIZES if args.mode == "document" else selfies.DEFAULT_SIZES))
    os.makedirs(args.out, exist_ok=True)
    tasks = [(args.seed, cls, i, *sizes[i % len(sizes)], args.out)
             for cls in classes for i in range(args.count_per_class)]
    cv2.setNumThreads(1)
    work = make_frame if args.mode == "document" else selfies.make_selfie_frame
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            frames = pool.map(work, tasks, chunksize=1)
    else:
        frames = [work(t) for t in tasks]
    with open(os.path.join(args.out, "labels.json"), "w") as f:
        json.dump({"generator": GENERATOR, "seed": args.seed, "frames": frames}, f, indent=1)
    print(f"camsim: wrote {len(frames)} frames and labels.json to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
