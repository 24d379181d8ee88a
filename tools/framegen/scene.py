"""Scene content for synthetic capture frames: cluttered backgrounds, ID-card-like documents (photo box, text lines,
machine-readable-zone band) and the sample portrait used for selfies. Colours are BGR float32 in 0..255."""
import string

import cv2
import numpy as np
from skimage import data as skdata

# ID-1 card (85.60 x 53.98 mm) rendered at about 300 dpi.
CARD_WIDTH, CARD_HEIGHT = 1012, 638
CARD_ASPECT = CARD_WIDTH / CARD_HEIGHT
# Corner radius of an ID-1 card: 3.18 mm of 85.6 mm.
CARD_CORNER_RADIUS = int(round(CARD_WIDTH * 3.18 / 85.6))

_PORTRAIT = None
# Face box of skimage's astronaut (Eileen Collins) in its 512 x 512 image: brows-to-chin, cheek to cheek, as a
# frontal-face detector frames it.
PORTRAIT_FACE_BOX = (170.0, 52.0, 100.0, 112.0)
# Head-and-shoulders crop of the portrait (x0, y0, x1, y1) used as the selfie subject.
PORTRAIT_CROP = (80, 0, 360, 340)


def portrait():
    """The astronaut sample image as BGR float32."""
    global _PORTRAIT
    if _PORTRAIT is None:
        _PORTRAIT = skdata.astronaut()[:, :, ::-1].astype(np.float32)
    return _PORTRAIT


def _smooth_noise(rng, h, w, cell):
    small = rng.random((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng, w, h, luminance_range=(25, 150)):
    """A desk-like surface: wood, fabric, marble or a plain gradient, then clutter (coins, pens, sticky notes,
    scribbles, a keyboard-ish grid). The mean luminance stays inside `luminance_range` so a light card reads."""
    kind = rng.choice(["wood", "fabric", "marble", "plain", "tiles"])
    base = np.array(rng.uniform(0.4, 1.0, 3), np.float32)
    level = rng.uniform(*luminance_range)
    if kind == "wood":
        yy = np.mgrid[0:h, 0:w][0].astype(np.float32)
        warp = _smooth_noise(rng, h, w, 64) * rng.uniform(20, 60)
        grain = 0.5 + 0.5 * np.sin((yy + warp) / rng.uniform(3, 9))
        texture = 0.75 + 0.25 * grain + 0.1 * (_smooth_noise(rng, h, w, 8) - 0.5)
        if rng.random() < 0.5:
            texture = texture.T.copy() if h == w else cv2.resize(texture.T.copy(), (w, h))
    elif kind == "fabric":
        texture = 0.8 + 0.2 * rng.random((h, w)).astype(np.float32)
        texture = cv2.GaussianBlur(texture, (0, 0), 0.8)
    elif kind == "marble":
        texture = 0.6 + 0.4 * _smooth_noise(rng, h, w, 40) + 0.15 * (_smooth_noise(rng, h, w, 6) - 0.5)
    elif kind == "tiles":
        texture = np.full((h, w), 0.85, np.float32)
        step = int(rng.uniform(60, 160))
        for x in range(int(rng.uniform(0, step)), w, step):
            texture[:, x:x + 3] = 0.55
        for y in range(int(rng.uniform(0, step)), h, step):
            texture[y:y + 3, :] = 0.55
        texture += 0.05 * (_smooth_noise(rng, h, w, 30) - 0.5)
    else:
        texture = np.ones((h, w), np.float32)
    # Uneven room light: a tilted plane.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    image = (texture * light)[..., None] * base[None, None, :]
    image *= level / max(1e-3, float(image.mean()))
    _clutter(rng, image, w, h)
    return image.astype(np.float32)


def _clutter(rng, image, w, h):
    """Small objects on the desk; none is a large light rectangle (that would be a second document)."""
    scale = h / 720.0
    for _ in range(int(rng.integers(3, 10))):
        colour = tuple(float(c) for c in rng.uniform(10, 200, 3))
        kind = rng.choice(["coin", "pen", "note", "scribble", "blob", "cable"])
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        if kind == "coin":
            r = int(rng.uniform(12, 45) * scale)
            cv2.circle(image, (x, y), r, colour, -1, cv2.LINE_AA)
            cv2.circle(image, (x, y), max(1, r - 4), tuple(c * 0.8 for c in colour), 2, cv2.LINE_AA)
        elif kind == "pen":
            length = rng.uniform(120, 380) * scale
            angle = rng.uniform(0, np.pi)
            x2, y2 = int(x + length * np.cos(angle)), int(y + length * np.sin(angle))
            cv2.line(image, (x, y), (x2, y2), colour, int(rng.uniform(6, 16) * scale), cv2.LINE_AA)
        elif kind == "note":
            side = rng.uniform(40, 90) * scale  # at most ~1 % of a frame: a sticky note, not a document
            box = cv2.boxPoints(((x, y), (side, side), rng.uniform(0, 90)))
            cv2.fillConvexPoly(image, np.round(box).astype(np.int32), colour, cv2.LINE_AA)
        elif kind == "scribble":
            points = np.cumsum(rng.normal(0, 12 * scale, (14, 2)), axis=0) + (x, y)
            cv2.polylines(image, [np.round(points).astype(np.int32)], False, colour, 2, cv2.LINE_AA)
        elif kind == "cable":
            t = np.linspace(0, 1, 40)
            xs = x + t * rng.uniform(-400, 400) * scale
            ys = y + np.sin(t * rng.uniform(2, 8)) * 60 * scale + t * rng.uniform(-200, 200) * scale
            pts = np.stack([xs, ys], 1)
            cv2.polylines(image, [np.round(pts).astype(np.int32)], False, colour, int(4 * scale) + 1, cv2.LINE_AA)
        else:
            n = int(rng.integers(5, 9))
            angles = np.sort(rng.uniform(0, 2 * np.pi, n))
            radii = rng.uniform(15, 60, n) * scale
            pts = np.stack([x + radii * np.cos(angles), y + radii * np.sin(angles)], 1)
            cv2.fillPoly(image, [np.round(pts).astype(np.int32)], colour, cv2.LINE_AA)


def _random_text(rng, length, alphabet=string.ascii_uppercase + string.digits + "  "):
    return "".join(rng.choice(list(alphabet), length))


def card(rng):
    """An ID-card-like document (BGR float32, CARD_HEIGHT x CARD_WIDTH) and its alpha mask with rounded corners."""
    w, h = CARD_WIDTH, CARD_HEIGHT
    tint = np.array(rng.uniform(165, 230, 3), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gradient = 1.0 + 0.08 * np.sin(xx / w * rng.uniform(2, 6) + rng.uniform(0, 6))[..., None]
    # Drawn in 8 bits: OpenCV's text renderer takes only 8-bit images.
    image = np.clip(np.ones((h, w, 3), np.float32) * tint * gradient, 0, 255).astype(np.uint8)
    # Guilloche: fine low-contrast wavy lines, as security printing has.
    for k in range(int(rng.integers(6, 14))):
        phase, period, amplitude = rng.uniform(0, 6), rng.uniform(80, 240), rng.uniform(10, 60)
        ys = np.arange(0, w, 4)
        line = h * (k + 0.5) / 12 + amplitude * np.sin(ys / period * 2 * np.pi + phase)
        pts = np.stack([ys, line], 1).astype(np.int32)
        cv2.polylines(image, [pts], False, tuple(float(c) * 0.9 for c in tint), 1, cv2.LINE_AA)
    # Header band with the issuing state.
    header = tuple(float(c) for c in rng.uniform(40, 150, 3))
    cv2.rectangle(image, (0, 0), (w, int(h * 0.14)), header, -1)
    cv2.putText(image, rng.choice(["REPUBLIC OF TURKIYE", "IDENTITY CARD", "KIMLIK KARTI", "NATIONAL ID"]),
                (int(w * 0.28), int(h * 0.1)), cv2.FONT_HERSHEY_DUPLEX, 1.4, (245, 245, 245), 2, cv2.LINE_AA)
    # Photo box: the sample portrait's face, desaturated, as a printed ID photo.
    px0, py0, px1, py1 = int(w * 0.04), int(h * 0.2), int(w * 0.29), int(h * 0.68)
    face = portrait()[20:250, 130:320]
    face = cv2.resize(face, (px1 - px0, py1 - py0), interpolation=cv2.INTER_AREA)
    grey = face.mean(axis=2, keepdims=True)
    image[py0:py1, px0:px1] = np.clip(0.6 * grey + 0.4 * face, 0, 255).astype(np.uint8)
    # Text lines: small grey labels and black values.
    x0 = int(w * 0.33)
    for row in range(int(rng.integers(4, 7))):
        y = int(h * (0.24 + row * 0.085))
        cv2.putText(image, _random_text(rng, int(rng.integers(4, 10))), (x0, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    (90, 90, 90), 1, cv2.LINE_AA)
        cv2.putText(image, _random_text(rng, int(rng.integers(6, 18))), (x0, y + 24), cv2.FONT_HERSHEY_SIMPLEX,
                    0.8, (20, 20, 20), 2, cv2.LINE_AA)
    # Signature and a chip, sometimes.
    if rng.random() < 0.6:
        sx = np.linspace(w * 0.05, w * 0.27, 30)
        sy = h * 0.73 + np.cumsum(rng.normal(0, 3, 30))
        cv2.polylines(image, [np.stack([sx, sy], 1).astype(np.int32)], False, (60, 30, 20), 2, cv2.LINE_AA)
    if rng.random() < 0.5:
        cv2.rectangle(image, (int(w * 0.8), int(h * 0.3)), (int(w * 0.92), int(h * 0.48)), (60, 170, 210), -1)
    # Machine-readable zone: a pale band with three lines of OCR-style characters.
    band_top = int(h * 0.76)
    image[band_top:, :] = (image[band_top:, :] * 0.3 + 225 * 0.7).astype(np.uint8)
    mrz = [
        "I<TUR" + _random_text(rng, 9, string.digits) + "<" + _random_text(rng, 15, string.digits + "<"),
        _random_text(rng, 7, string.digits) + "M" + _random_text(rng, 7, string.digits) + "TUR" + "<" * 11
        + _random_text(rng, 1, string.digits),
        _random_text(rng, 8, string.ascii_uppercase) + "<<" + _random_text(rng, 6, string.ascii_uppercase)
        + "<" * 14,
    ]
    for index, line in enumerate(mrz):
        cv2.putText(image, line[:30], (int(w * 0.03), band_top + 38 + index * 50), cv2.FONT_HERSHEY_PLAIN, 2.6,
                    (25, 25, 25), 2, cv2.LINE_AA)
    image = image.astype(np.float32)
    mask = np.zeros((h, w), np.float32)
    r = CARD_CORNER_RADIUS
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)]:
        cv2.circle(mask, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return image, mask


def paste_warped(frame, source, mask, corners, shadow=True):
    """Warps `source` (with alpha `mask`) so its corners land on `corners` (TL, TR, BR, BL, frame pixels) and
    composites it onto `frame` in place, with a soft contact shadow. Pre-shrinks the source to about the projected
    size so the warp does not alias."""
    h, w = frame.shape[:2]
    sh, sw = source.shape[:2]
    edges = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
    target_width = max(edges[0], edges[2]) * 1.5
    if target_width < sw:
        factor = target_width / sw
        size = (max(8, int(sw * factor)), max(8, int(sh * factor)))
        source = cv2.resize(source, size, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
        sh, sw = source.shape[:2]
    src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    warped = cv2.warpPerspective(source, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    alpha = cv2.warpPerspective(mask, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    if shadow:
        offset = np.float32([[1, 0, 0.006 * w], [0, 1, 0.008 * h]])
        soft = cv2.GaussianBlur(cv2.warpAffine(alpha, offset, (w, h)), (0, 0), 0.01 * h + 1)
        frame *= (1.0 - 0.35 * soft)[..., None]
    frame *= (1.0 - alpha)[..., None]
    frame += warped * alpha[..., None]
    return alpha
