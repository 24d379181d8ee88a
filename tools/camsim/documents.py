"""Document artwork in the document's own millimetre space: ID-1 cards and ID-3 passport data pages.

Everything here is reflectance (linear, 0..1 per RGB channel), drawn at a caller-chosen density (pixels per mm) so
the texture is only as detailed as the projected document needs. The document outline (rounded corners) is returned
as a separate coverage mask at the same density.
"""
import math

import cv2
import numpy as np

ID1_MM = (85.60, 53.98)
ID3_MM = (125.0, 88.0)
ID1_CORNER_RADIUS_MM = 3.18
ID3_CORNER_RADIUS_MM = 3.5

_PHOTO_SOURCE = None


def _photo_source():
    """A real portrait (scikit-image's bundled astronaut photo) used as the holder's photo."""
    global _PHOTO_SOURCE
    if _PHOTO_SOURCE is None:
        from skimage import data
        _PHOTO_SOURCE = data.astronaut()[20:300, 120:340].astype(np.float32) / 255.0
    return _PHOTO_SOURCE


def srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float32)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def _palette(rng, dark):
    """Base colour and pattern colour (sRGB) of a card design."""
    hue = rng.uniform(0, 360)
    if dark:
        value, saturation = rng.uniform(0.22, 0.42), rng.uniform(0.3, 0.8)
    else:
        value, saturation = rng.uniform(0.80, 0.96), rng.uniform(0.05, 0.35)
    base = _hsv(hue, saturation, value)
    pattern_hue = (hue + rng.uniform(-60, 60)) % 360
    if dark:
        pattern = _hsv(pattern_hue, rng.uniform(0.3, 0.7), min(1.0, value + rng.uniform(0.12, 0.25)))
    else:
        pattern = _hsv(pattern_hue, rng.uniform(0.25, 0.6), value - rng.uniform(0.1, 0.25))
    ink = np.array([0.95, 0.95, 0.93]) if dark else np.array([0.08, 0.08, 0.12]) + rng.uniform(0, 0.1, 3)
    return base, pattern, ink


def _hsv(h, s, v):
    pixel = np.uint8([[[int(h / 2) % 180, int(s * 255), int(v * 255)]]])
    return cv2.cvtColor(pixel, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float64) / 255.0


def _guilloche(canvas, rng, color, density):
    """Interleaved rosette and wave curves, the fine-line security print of real ID documents."""
    h, w = canvas.shape[:2]
    thickness = max(1, int(round(0.12 * density)))
    colour = tuple(float(c) * 255 for c in color)
    t = np.linspace(0, 2 * math.pi, 2400)
    for _ in range(rng.integers(1, 3)):
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        big, small = rng.uniform(0.25, 0.55) * h, rng.uniform(0.05, 0.2) * h
        lobes = int(rng.integers(5, 17))
        for k in range(int(rng.integers(6, 14))):
            phase = k * 2 * math.pi / lobes / 6
            r = big + small * np.cos(lobes * t + phase)
            pts = np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)
            cv2.polylines(canvas, [np.round(pts * 16).astype(np.int32)], True, colour, thickness, cv2.LINE_AA, 4)
    x = np.linspace(0, w, 600)
    for k in range(int(rng.integers(8, 20))):
        y0 = rng.uniform(0, h)
        amp, period = rng.uniform(0.02, 0.08) * h, rng.uniform(0.15, 0.5) * w
        pts = np.stack([x, y0 + amp * np.sin(2 * math.pi * x / period + k)], axis=1)
        cv2.polylines(canvas, [np.round(pts * 16).astype(np.int32)], False, colour, thickness, cv2.LINE_AA, 4)


def _text_line(canvas, rng, x, y, height_px, width_px, colour, mono=False):
    """One printed line at (x, y) baseline, `height_px` cap height, stretched to at most `width_px`."""
    if height_px < 2 or width_px < 4:
        return
    if mono:
        text = "".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<<<<<<<<"), 30))
        font = cv2.FONT_HERSHEY_PLAIN
    else:
        words = ["".join(rng.choice(list("ABCDEFGHIKLMNOPRSTUVWYZ"), rng.integers(2, 9))) for _ in range(4)]
        text = " ".join(words)
        font = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX][rng.integers(0, 3)]
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height_px / max(th, 1)
    if tw * scale > width_px:
        text = text[: max(1, int(len(text) * width_px / (tw * scale)))]
    thick = max(1, int(round(scale * (1.2 if mono else 1.5))))
    cv2.putText(canvas, text, (int(x), int(y)), font, scale, tuple(float(c) * 255 for c in colour), thick, cv2.LINE_AA)


def _rounded_mask(w, h, radius):
    mask = np.zeros((h, w), np.float32)
    r = int(round(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return mask


def render_document(rng, density, kind):
    """Returns (reflectance HxWx3 linear float32, coverage mask HxW, size_mm, design dict).

    kind: "id1" or "passport". `density` is pixels per millimetre of the texture.
    """
    size_mm = ID1_MM if kind == "id1" else ID3_MM
    radius_mm = ID1_CORNER_RADIUS_MM if kind == "id1" else ID3_CORNER_RADIUS_MM
    w, h = int(round(size_mm[0] * density)), int(round(size_mm[1] * density))
    dark = kind == "id1" and rng.random() < 0.35
    base, pattern, ink = _palette(rng, dark)
    if kind == "passport":
        base = np.array([0.93, 0.91, 0.84]) - rng.uniform(0, 0.08, 3)
        pattern = base - np.array([0.15, 0.1, 0.02]) * rng.uniform(0.6, 1.2)
        ink = np.array([0.1, 0.1, 0.15])
    # Drawn in 8-bit sRGB (OpenCV's text renderer needs 8-bit), converted to linear reflectance at the end.
    ramp = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
    other = np.clip(base + rng.uniform(-0.12, 0.12, 3), 0, 1)
    canvas = np.repeat((base[None, None, :] * (1 - ramp) + other[None, None, :] * ramp) * 255, h, axis=0)
    canvas = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
    _guilloche(canvas, rng, pattern, density)
    d = density
    # Header band (issuer name) on many cards.
    if kind == "id1" and rng.random() < 0.6:
        band = np.clip(pattern * rng.uniform(0.6, 1.0), 0, 1)
        cv2.rectangle(canvas, (0, 0), (w, int(9 * d)), tuple(float(c) * 255 for c in band), -1)
        _text_line(canvas, rng, 4 * d, 6.5 * d, 3.2 * d, w - 8 * d, (0.97, 0.97, 0.97) if not dark else ink)
    top = 11 * d if kind == "id1" else 14 * d
    # Holder photo (a real photo, desaturated a little as printed photos are).
    photo_w, photo_h = (22 * d, 28 * d) if kind == "id1" else (32 * d, 42 * d)
    photo_left = rng.random() < 0.75
    px = 4 * d if photo_left else w - 4 * d - photo_w
    py = top + (1 * d if kind == "id1" else 2 * d)
    src = _photo_source()
    photo = cv2.resize(src, (max(2, int(photo_w)), max(2, int(photo_h))), interpolation=cv2.INTER_AREA)
    grey = photo.mean(axis=2, keepdims=True)
    photo = grey + (photo - grey) * rng.uniform(0.4, 1.0)
    y0, x0 = int(py), int(px)
    ph, pw = photo.shape[:2]
    ph, pw = min(ph, h - y0), min(pw, w - x0)
    canvas[y0:y0 + ph, x0:x0 + pw] = np.clip(photo[:ph, :pw] * 255 * 0.9 + canvas[y0:y0 + ph, x0:x0 + pw] * 0.1, 0, 255)
    # Text fields beside the photo.
    tx = px + photo_w + 4 * d if photo_left else 4 * d
    tw = w - tx - 4 * d if photo_left else px - 8 * d
    line = top + 4 * d
    while line < (h - 14 * d if kind == "id1" else h - 20 * d):
        small = rng.uniform(1.2, 1.6) * d
        _text_line(canvas, rng, tx, line, small, tw * rng.uniform(0.3, 0.6), np.clip(ink * 0.6 + pattern * 0.4, 0, 1))
        line += small + 1.2 * d
        big = rng.uniform(1.8, 2.6) * d
        _text_line(canvas, rng, tx, line + big, big, tw * rng.uniform(0.5, 1.0), ink)
        line += big + rng.uniform(2.5, 4.0) * d
    # Chip on many ID-1 cards: gold contact pad.
    if kind == "id1" and rng.random() < 0.55 and photo_left:
        cx0, cy0 = int(w - 20 * d), int(top + 6 * d)
        gold = (217, 173, 82)
        cv2.rectangle(canvas, (cx0, cy0), (int(cx0 + 11 * d), int(cy0 + 9 * d)), gold, -1, cv2.LINE_AA)
        for k in range(1, 3):
            cv2.line(canvas, (cx0, int(cy0 + k * 3 * d)), (int(cx0 + 11 * d), int(cy0 + k * 3 * d)),
                     (128, 97, 38), max(1, int(0.25 * d)), cv2.LINE_AA)
        cv2.line(canvas, (int(cx0 + 5.5 * d), cy0), (int(cx0 + 5.5 * d), int(cy0 + 9 * d)),
                 (128, 97, 38), max(1, int(0.25 * d)), cv2.LINE_AA)
    # Machine-readable zone: a pale band with two or three OCR-style lines at the bottom.
    has_mrz = kind == "passport" or rng.random() < 0.6
    if has_mrz:
        lines = 2 if kind == "passport" else int(rng.integers(2, 4))
        band_h = (lines * 4.2 + 2) * d
        band = np.clip(base * 0.3 + 0.7 * np.array([0.95, 0.95, 0.92]), 0, 1) if not dark else base * 0.8
        cv2.rectangle(canvas, (0, int(h - band_h)), (w, h), tuple(float(c) * 255 for c in band), -1)
        for k in range(lines):
            _text_line(canvas, rng, 3 * d, h - band_h + (k + 1) * 4.2 * d, 2.4 * d, w - 6 * d, ink, mono=True)
    # Hologram patch: iridescent, seen as a colour-shifted, slightly brighter area.
    if kind == "id1" and rng.random() < 0.4:
        hx, hy = int(rng.uniform(0.35, 0.7) * w), int(rng.uniform(0.3, 0.7) * h)
        rad = int(rng.uniform(4, 8) * d)
        overlay = canvas.copy()
        cv2.circle(overlay, (hx, hy), rad, tuple(float(c) * 255 for c in rng.uniform(0.5, 0.95, 3)), -1, cv2.LINE_AA)
        canvas = cv2.addWeighted(canvas, 0.6, overlay, 0.4, 0)
    reflectance = np.clip(srgb_to_linear(canvas.astype(np.float32) / 255.0), 0.01, 0.92)
    mask = _rounded_mask(w, h, radius_mm * density)
    design = {"kind": kind, "dark": bool(dark)}
    return reflectance.astype(np.float32), mask, size_mm, design
