"""What is in front of the camera besides the document: the surface it lies on (or the room behind a hand-held card),
objects on the desk, the hand holding the card, and the light (uneven key light, colour, cast shadows).

Desk surfaces are evaluated in the desk plane's own millimetres (the document lies on that plane, so the surface has
the same perspective as the card); a hand-held card's background is a far room, defocused by the lens.
"""
import math

import cv2
import numpy as np

from documents import srgb_to_linear


def value_noise(rng, shape, cells, octaves=4):
    """Smooth fractal noise in 0..1 at `shape`, coarsest grid `cells` across."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        n = max(2, int(cells * 2 ** o))
        grid = rng.random((max(2, int(n * h / max(w, 1)) + 1), n + 1)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    out /= total
    return (out - out.min()) / max(float(out.max() - out.min()), 1e-6)


def _sample(tex, X, Y, mm_per_px):
    """Samples a plane-space texture (mm_per_px per texel, origin at its centre) at plane coordinates X, Y."""
    h, w = tex.shape[:2]
    mx = (X / mm_per_px + w / 2).astype(np.float32)
    my = (Y / mm_per_px + h / 2).astype(np.float32)
    return cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def desk_surface(rng, X, Y, kind):
    """Reflectance (linear RGB) of a desk surface at plane millimetres X, Y."""
    noise = value_noise(rng, (256, 256), 3)
    fine = value_noise(rng, (512, 512), 24, 3)
    low = _sample(noise, X, Y, 4.0)
    if kind == "wood":
        base = np.array(rng.choice([[0.55, 0.36, 0.2], [0.72, 0.55, 0.36], [0.35, 0.22, 0.13], [0.8, 0.68, 0.5]]))
        angle = rng.uniform(0, math.pi)
        u = X * math.cos(angle) + Y * math.sin(angle)
        v = -X * math.sin(angle) + Y * math.cos(angle)
        period = rng.uniform(3, 9)
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * (v + 18 * low) / period)
        grain = _sample(fine, u * 0.08, v * 3, 1.0)
        k = (0.78 + 0.22 * rings ** 3) * (0.9 + 0.2 * grain)
        srgb = base[None, None, :] * k[..., None]
    elif kind == "fabric":
        base = np.array(rng.uniform(0.15, 0.8, 3))
        pitch = rng.uniform(0.8, 2.2)
        weave = (0.5 + 0.25 * np.sin(2 * math.pi * X / pitch)) * (0.5 + 0.25 * np.sin(2 * math.pi * Y / pitch))
        k = 0.8 + 0.35 * weave + 0.15 * (low - 0.5)
        srgb = base[None, None, :] * k[..., None]
    elif kind == "paper":
        base = np.array([0.9, 0.89, 0.84]) - rng.uniform(0, 0.1, 3)
        fib = _sample(fine, X, Y, 0.3)
        k = 0.96 + 0.05 * (fib - 0.5) + 0.06 * (low - 0.5)
        srgb = base[None, None, :] * k[..., None]
    else:  # laminate / painted desk with a faint mottled finish
        base = np.array(rng.choice([[0.92, 0.92, 0.9], [0.2, 0.2, 0.22], [0.55, 0.56, 0.58], [0.78, 0.7, 0.6],
                                    [0.35, 0.42, 0.5]]))
        k = 0.92 + 0.16 * low
        srgb = base[None, None, :] * k[..., None]
    return srgb_to_linear(np.clip(srgb, 0, 1))


def _poly_mm(H, pts):
    from camera import apply_h
    return apply_h(H, pts)


def _fill(canvas, pts_px, colour, alpha=1.0):
    """Anti-aliased polygon fill (4 bits sub-pixel) of a linear colour into a float canvas."""
    h, w = canvas.shape[:2]
    pts_px = np.asarray(pts_px, np.float64)
    finite = np.isfinite(pts_px).all(axis=1)
    if not finite.any():
        return
    x0 = int(max(0, math.floor(pts_px[finite, 0].min()) - 1))
    y0 = int(max(0, math.floor(pts_px[finite, 1].min()) - 1))
    x1 = int(min(w, math.ceil(pts_px[finite, 0].max()) + 2))
    y1 = int(min(h, math.ceil(pts_px[finite, 1].max()) + 2))
    if x1 <= x0 or y1 <= y0:
        return
    # Only the polygon's bounding box is touched: desks carry dozens of small shapes (keyboard keys).
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    local = np.clip(pts_px - (x0, y0), -4096, 8192)
    cv2.fillPoly(mask, [np.round(local * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    mask *= alpha
    region = canvas[y0:y1, x0:x1]
    region *= (1 - mask[..., None])
    region += mask[..., None] * np.asarray(colour, np.float32)


def _capsule(p0, p1, radius, n=24):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0])
    arc1 = [p1 + radius * np.array([math.cos(a + t), math.sin(a + t)]) for t in np.linspace(-math.pi / 2, math.pi / 2, n)]
    arc0 = [p0 + radius * np.array([math.cos(a + t), math.sin(a + t)]) for t in np.linspace(math.pi / 2, 3 * math.pi / 2, n)]
    return np.array(arc1 + arc0)


def _circle(c, r, n=48):
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(t), c[1] + r * np.sin(t)], axis=1)


def desk_objects(rng, canvas, H, keep_out, allow):
    """Draws everyday desk clutter (plane millimetres via H) outside the `keep_out` box (x0, y0, x1, y1 in mm)."""
    x0, y0, x1, y1 = keep_out
    count = int(rng.integers(1, 5))
    for _ in range(count):
        kind = rng.choice(allow)
        for _attempt in range(10):
            cx, cy = rng.uniform(x0 - 180, x1 + 180), rng.uniform(y0 - 140, y1 + 140)
            if not (x0 - 60 < cx < x1 + 60 and y0 - 60 < cy < y1 + 60):
                break
        else:
            continue
        colour = srgb_to_linear(rng.uniform(0.05, 0.9, 3))
        if kind == "pen":
            a = rng.uniform(0, math.pi)
            d = 70 * np.array([math.cos(a), math.sin(a)])
            _fill(canvas, _poly_mm(H, _capsule((cx, cy) - d, (cx, cy) + d, 4.5)), colour)
            _fill(canvas, _poly_mm(H, _capsule((cx, cy) - d * 0.9, (cx, cy) + d * 0.9, 1.0)),
                  np.minimum(colour * 1.8 + 0.1, 0.9))
        elif kind == "coin":
            r = rng.uniform(9, 13)
            metal = srgb_to_linear(np.array(rng.choice([[0.75, 0.6, 0.35], [0.7, 0.7, 0.72]])))
            _fill(canvas, _poly_mm(H, _circle((cx, cy), r)), metal)
            _fill(canvas, _poly_mm(H, _circle((cx, cy), r * 0.8)), metal * 0.8)
        elif kind == "mug":
            r = rng.uniform(38, 45)
            _fill(canvas, _poly_mm(H, _circle((cx, cy), r)), colour)
            _fill(canvas, _poly_mm(H, _circle((cx, cy), r * 0.86)), colour * 0.35)
        elif kind == "keyboard":
            a = rng.uniform(-0.3, 0.3) + (math.pi / 2 if rng.random() < 0.2 else 0)
            rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            body = np.array([[-150, -55], [150, -55], [150, 55], [-150, 55]]) @ rot.T + (cx, cy)
            dark = rng.random() < 0.6
            shell = srgb_to_linear(np.full(3, 0.12 if dark else 0.8))
            key = srgb_to_linear(np.full(3, 0.2 if dark else 0.92))
            _fill(canvas, _poly_mm(H, body), shell)
            for row in range(5):
                for col in range(15):
                    kx, ky = -140 + col * 19 + 9, -47 + row * 19 + 9
                    kpts = np.array([[kx - 8, ky - 8], [kx + 8, ky - 8], [kx + 8, ky + 8], [kx - 8, ky + 8]])
                    _fill(canvas, _poly_mm(H, kpts @ rot.T + (cx, cy)), key)
        elif kind == "cable":
            p = np.array([cx, cy]) + rng.uniform(-150, 150, (4, 2))
            t = np.linspace(0, 1, 60)[:, None]
            curve = ((1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1] + 3 * (1 - t) * t ** 2 * p[2] + t ** 3 * p[3])
            shade = srgb_to_linear(np.full(3, 0.05 if rng.random() < 0.6 else 0.85))
            for a, b in zip(curve[:-1], curve[1:]):
                _fill(canvas, _poly_mm(H, _capsule(a, b, 2.0, 6)), shade)


def room_background(rng, width, height):
    """A far room behind a hand-held card: wall, furniture blocks, maybe a bright window, in image space."""
    small_w, small_h = 320, int(320 * height / width)
    wall = srgb_to_linear(rng.uniform(0.35, 0.9, 3))
    img = np.ones((small_h, small_w, 3), np.float32) * wall
    img *= (0.75 + 0.4 * value_noise(rng, (small_h, small_w), 2, 3))[..., None]
    for _ in range(int(rng.integers(1, 4))):
        # Large blocks that run off the frame (shelves, a sofa, a door), never a card-sized rectangle in full view.
        x0 = rng.uniform(-0.3, 0.8) * small_w
        y0 = rng.uniform(0.3, 0.9) * small_h
        pts = np.array([[x0, y0], [x0 + rng.uniform(0.5, 1.2) * small_w, y0 + rng.uniform(-20, 20)],
                        [small_w * 1.5, small_h * 1.5], [x0, small_h * 1.5]])
        _fill(img, pts, srgb_to_linear(rng.uniform(0.05, 0.7, 3)))
    if rng.random() < 0.35:
        x0 = rng.uniform(-0.2, 0.7) * small_w
        pts = np.array([[x0, -10], [x0 + rng.uniform(60, 140), -10], [x0 + rng.uniform(60, 140), small_h * 0.5],
                        [x0, small_h * 0.5]])
        _fill(img, pts, np.full(3, rng.uniform(2.0, 4.0), np.float32))  # window: brighter than any lit surface
        bar = srgb_to_linear(np.full(3, rng.uniform(0.3, 0.9)))
        xm, ym = (pts[0, 0] + pts[1, 0]) / 2, small_h * rng.uniform(0.15, 0.35)
        _fill(img, np.array([[xm - 2, -10], [xm + 2, -10], [xm + 2, small_h * 0.5], [xm - 2, small_h * 0.5]]), bar)
        _fill(img, np.array([[pts[0, 0], ym - 2], [pts[1, 0], ym - 2], [pts[1, 0], ym + 2], [pts[0, 0], ym + 2]]), bar)
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_CUBIC)


def skin_tone(rng):
    light, dark = np.array([0.93, 0.76, 0.66]), np.array([0.42, 0.28, 0.2])
    t = rng.random()
    return srgb_to_linear(light * (1 - t) + dark * t)


def _blob(rng, centre, radii, angle, n=64):
    """A smooth organic outline (palm): an ellipse with a few low-order wobbles, no straight sides."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = 1 + sum(rng.uniform(-0.06, 0.06) * np.cos(k * t + rng.uniform(0, 6)) for k in (2, 3, 5))
    x, y = radii[0] * r * np.cos(t), radii[1] * r * np.sin(t)
    c, s = math.cos(angle), math.sin(angle)
    return np.stack([centre[0] + c * x - s * y, centre[1] + s * x + c * y], axis=1)


def hand_layers(rng, H, size_mm, canvas_shape):
    """A hand holding the card by one long edge: palm and fingers behind the card, the thumb over its front.

    The thumb crosses the edge well away from both corners (≥ 14 mm), so every corner stays in view.
    Returns (behind_mask, behind_colour, front_mask, front_colour) in image space.
    """
    w, h = size_mm
    skin = skin_tone(rng)
    bottom = rng.random() < 0.7
    x = rng.uniform(26, w - 26)
    thumb_w = rng.uniform(9, 11)
    reach = rng.uniform(6, 14)  # how far the thumb tip reaches over the card
    if bottom:
        tip, base = (x + rng.uniform(-6, 6), h - reach), (x + rng.uniform(-25, 25), h + 55)
        palm = _blob(rng, (x + rng.uniform(-10, 10), h + 48), (44, 60), rng.uniform(-0.3, 0.3))
    else:
        tip, base = (w - reach, min(max(h / 2 + rng.uniform(-8, 8), 16), h - 16)), (w + 55, h / 2 + rng.uniform(-20, 20))
        palm = _blob(rng, (w + 50, tip[1] + rng.uniform(-8, 8)), (60, 44), rng.uniform(-0.3, 0.3))
    behind = np.zeros(canvas_shape, np.float32)
    cv2.fillPoly(behind, [np.round(_poly_mm(H, palm) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    front = np.zeros(canvas_shape, np.float32)
    cv2.fillPoly(front, [np.round(_poly_mm(H, _capsule(base, tip, thumb_w)) * 16).astype(np.int32)], 1.0,
                 cv2.LINE_AA, 4)
    return behind, skin, front, skin


def shade_rounded(mask, width_px):
    """Darkens a flat silhouette towards its rim, as a rounded finger or palm is lit."""
    inner = cv2.GaussianBlur(mask, (0, 0), max(width_px, 0.5))
    return 0.55 + 0.45 * np.clip(inner * 2 - 0.2, 0, 1)


def irradiance(rng, width, height, shadow, dim=1.0):
    """Light falling on the scene: a lamp off to one side (uneven), ambient fill, and maybe a soft cast shadow
    (the phone's or the user's) across the middle of the frame."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    lx, ly = rng.uniform(-0.6, 1.6) * width, rng.uniform(-0.6, 1.6) * height
    spread = rng.uniform(0.8, 2.2) * max(width, height)
    d2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / spread ** 2
    lamp = 1 / (1 + d2)
    lamp /= lamp.max()
    ambient = rng.uniform(0.25, 0.6)
    e = ambient + (1 - ambient) * lamp
    if shadow:
        cx, cy = rng.uniform(0.3, 0.7) * width, rng.uniform(0.3, 0.7) * height
        a = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(a), math.sin(a)
        # A half-plane shadow edge through (cx, cy), with a wavy outline and a soft penumbra.
        dist = (xx - cx) * nx + (yy - cy) * ny
        wave = 0.04 * max(width, height) * np.sin((-(xx - cx) * ny + (yy - cy) * nx) / (0.15 * width) + rng.uniform(0, 6))
        penumbra = rng.uniform(0.01, 0.05) * max(width, height)
        inside = 1 / (1 + np.exp(-(dist + wave) / penumbra))
        depth = rng.uniform(0.45, 0.7)  # light left in the shadow (ambient)
        e = e * (1 - (1 - depth) * inside)
    return (e * dim).astype(np.float32)


def light_colour(rng):
    """The light's colour: warm tungsten to cool daylight/LED, as linear RGB multipliers."""
    t = rng.uniform(0, 1)
    warm, cool = np.array([1.0, 0.78, 0.55]), np.array([0.88, 0.95, 1.05])
    return (warm * (1 - t) + cool * t).astype(np.float32)
