"""Selfie scenes: a person at arm's length in front of a phone's front camera, in a room.

The head is a 3-D object: an ellipsoid (about head-sized) carrying a real portrait (scikit-image's astronaut picture,
the only real face available offline) projected onto its front along the face's axis, with the hair continuing
round the back; a neck (a cylinder) and shoulders (a wide ellipsoid) below. Every pixel's ray from the camera is
intersected with these surfaces (so head pose, perspective at 25-150 cm and the curvature of the face are physical),
shaded by a key light to one side plus ambient, and composited over an out-of-focus room. The face is varied per
frame: mirrored, skin recoloured to a tone between light and dark, hair recoloured, head proportions and face size
changed, pose and light changed.

Geometry is in millimetres in the camera frame (x right, y down, z forward). The face box (what docs/capture.md's
faceSize and faceOffset measure) is brows to chin and cheek to cheek: the box of the portrait's face region as it
projects on the head surface, visible side only.
"""
import math

import cv2
import numpy as np

import camera
import scenes
from documents import srgb_to_linear

# In the 512 x 512 astronaut picture: the face box (brows to chin, cheek to cheek) and the head ellipsoid's centre
# on the face's vertical axis. The ellipsoid is tall (its top above the hair, which the portrait's outline cuts) so
# that the chin is on its front, not at its lower pole where the face would fold away from the camera.
FACE_BOX_TEX = (182.0, 88.0, 272.0, 187.0)
HEAD_CENTRE_TEX = (227.0, 120.0)
# Where a Haar-type face box centres (between the eyes and the nose tip: the engine's box on this picture spans
# forehead to below the mouth, 175..273 x 65..163): the offset is checked from both centres, so that a frame's class
# does not depend on which one a detector calls the face's centre.
MID_FACE_TEX = (227.0, 114.0)

_PORTRAIT = None


def _portrait():
    """Linear albedo of the portrait, its head (face + hair) coverage and a skin weight, computed once."""
    global _PORTRAIT
    if _PORTRAIT is None:
        from skimage import data
        srgb8 = data.astronaut()
        albedo = srgb_to_linear(srgb8.astype(np.float32) / 255.0)
        sat = cv2.GaussianBlur(cv2.cvtColor(srgb8, cv2.COLOR_RGB2HSV)[..., 1].astype(np.float32), (0, 0), 1.5)
        head = (sat > 60).astype(np.uint8)
        head[205:] = 0
        _, labels = cv2.connectedComponents(head)
        head = (labels == labels[130, 227]).astype(np.uint8)
        filled = head.copy()
        cv2.floodFill(filled, np.zeros((514, 514), np.uint8), (0, 0), 1)
        head[filled == 0] = 1  # holes (eyes, mouth: darker and less saturated than skin)
        yy, xx = np.mgrid[0:512, 0:512].astype(np.float32)
        jaw = ((xx - 227) / 48) ** 2 + ((yy - 128) / 60) ** 2 <= 1
        head[(yy > 128) & ~jaw] = 0  # cut along the jaw: the neck is drawn as its own surface
        alpha = cv2.GaussianBlur(head.astype(np.float32), (0, 0), 0.8)
        skin = (((xx - 227) / 47) ** 2 + ((yy - 128) / 60) ** 2 <= 1) & (yy > 74)
        # Up to the outline below the eyes (cheeks and jaw): the picture's light wall beside the cheeks would
        # otherwise be recoloured as hair, a light rim round a dark or grey-haired face.
        skin |= (yy > 105) & (((xx - 227) / 54) ** 2 + ((yy - 128) / 66) ** 2 <= 1)
        skin_w = cv2.GaussianBlur(skin.astype(np.float32), (0, 0), 2.5) * alpha
        hair_w = np.clip(alpha - skin_w, 0, 1)
        lum = camera.luminance(albedo)
        skin_mean = (albedo * skin_w[..., None]).reshape(-1, 3).sum(0) / skin_w.sum()
        hair_lum = float((lum * hair_w).sum() / hair_w.sum())
        _PORTRAIT = (albedo, alpha, skin_w, lum, skin_mean.astype(np.float32), hair_lum)
    return _PORTRAIT


HAIR_COLOURS = [(0.05, 0.045, 0.04), (0.16, 0.1, 0.06), (0.33, 0.21, 0.12), (0.62, 0.48, 0.3), (0.55, 0.55, 0.55),
                (0.45, 0.2, 0.1)]


class Person:
    """One person: head pose and place, head shape, recoloured portrait, neck and shoulders."""

    def __init__(self, rng, yaw, pitch, roll):
        albedo, alpha, skin_w, lum, skin_mean, hair_lum = _portrait()
        self.tone = scenes.skin_tone(rng)
        hair = srgb_to_linear(np.array(HAIR_COLOURS[int(rng.integers(len(HAIR_COLOURS)))]) *
                              rng.uniform(0.85, 1.15))
        ratio = (self.tone / skin_mean).astype(np.float32)
        hair_tex = hair[None, None, :] * np.clip(lum / hair_lum, 0, 3)[..., None]
        tex = skin_w[..., None] * albedo * ratio + (1 - skin_w[..., None]) * hair_tex
        self.mirror = bool(rng.random() < 0.5)
        if self.mirror:
            tex, alpha = tex[:, ::-1], alpha[:, ::-1]
        self.tex = np.ascontiguousarray(tex, np.float32)
        self.alpha = np.ascontiguousarray(alpha, np.float32)
        self.hair = hair.astype(np.float32)
        self.face_mm = rng.uniform(125, 145)             # face box width (cheek to cheek)
        self.s = self.face_mm / (FACE_BOX_TEX[2] - FACE_BOX_TEX[0])  # mm per texel
        k = rng.uniform(0.92, 1.06)
        self.axes = np.array([104 * k * rng.uniform(0.95, 1.05), 170 * k, 108 * k * rng.uniform(0.95, 1.08)])
        self.axes = self.axes * self.s / 1.45
        self.yaw, self.pitch, self.roll = yaw, pitch, roll
        self.R = camera.rotation(pitch, yaw, roll)
        body_yaw = yaw * rng.uniform(0.0, 0.5) + rng.normal(0, 6)
        if abs(yaw) > 90:
            body_yaw = yaw + rng.normal(0, 8)
        self.Rb = camera.rotation(0, body_yaw, roll * rng.uniform(0, 0.4))
        self.neck_r = rng.uniform(48, 58)
        self.torso_axes = np.array([rng.uniform(225, 260), rng.uniform(95, 120), rng.uniform(95, 120)])
        self.shirt = srgb_to_linear(rng.uniform(0.08, 0.85, 3) * rng.uniform(0.6, 1.0))
        self.shirt_pattern = scenes.value_noise(rng, (64, 64), 6, 3)
        self.back_pattern = scenes.value_noise(rng, (128, 128), 10, 3)
        self.C = np.zeros(3)

    # The face box's centre in the head frame (on the surface, roughly).
    def face_centre_local(self):
        x0, y0, x1, y1 = FACE_BOX_TEX
        y = ((y0 + y1) / 2 - HEAD_CENTRE_TEX[1]) * self.s
        a, b, c = self.axes
        return np.array([0.0, y, -c * math.sqrt(max(0.0, 1 - (y / b) ** 2))])

    def face_box(self, K, width, height):
        """Face box (x, y, w, h) in pixels: the portrait's face region on the head surface, visible side only."""
        x0, y0, x1, y1 = FACE_BOX_TEX
        u = np.linspace(x0, x1, 24)
        v = np.linspace(y0, y1, 24)
        uu, vv = np.meshgrid(u, v)
        x = (uu - HEAD_CENTRE_TEX[0]) * self.s
        if self.mirror:
            x = -x
        y = (vv - HEAD_CENTRE_TEX[1]) * self.s
        a, b, c = self.axes
        z = -c * np.sqrt(np.clip(1 - (x / a) ** 2 - (y / b) ** 2, 0, 1))
        p = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
        n = p / self.axes ** 2
        pc = p @ self.R.T + self.C
        nc = n @ self.R.T
        visible = (nc * pc).sum(axis=1) < 0
        if visible.sum() < 20 or (pc[:, 2] <= 1).any():
            return None
        q = pc[visible] @ K.T
        q = q[:, :2] / q[:, 2:3]
        bx0, by0 = q.min(axis=0)
        bx1, by1 = q.max(axis=0)
        return (float(bx0), float(by0), float(bx1 - bx0), float(by1 - by0))

    def project_tex_point(self, K, u, v):
        """Pixel position of a point of the portrait (texel u, v) on the head surface."""
        x = (u - HEAD_CENTRE_TEX[0]) * self.s
        if self.mirror:
            x = -x
        y = (v - HEAD_CENTRE_TEX[1]) * self.s
        a, b, c = self.axes
        z = -c * math.sqrt(max(0.0, 1 - (x / a) ** 2 - (y / b) ** 2))
        q = K @ (self.R @ np.array([x, y, z]) + self.C)
        return float(q[0] / q[2]), float(q[1] / q[2])

    def place(self, K, width, height, centre_px, face_px):
        """Puts the head so that its face box is centred at `centre_px` and `face_px` wide (a few iterations)."""
        f = K[0, 0]
        z = f * self.face_mm / face_px
        target = np.array(centre_px, np.float64)
        aim = target.copy()
        local = self.face_centre_local()
        for _ in range(5):
            ray = np.linalg.inv(K) @ np.array([aim[0], aim[1], 1.0])
            ray /= ray[2]
            self.C = ray * z - self.R @ local
            box = self.face_box(K, width, height)
            if box is None:
                return None
            w = box[2]
            centre = np.array([box[0] + box[2] / 2, box[1] + box[3] / 2])
            z *= w / face_px
            aim += target - centre
        return self.face_box(K, width, height)


def _rays(K, width, height):
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    Ki = np.linalg.inv(K).astype(np.float32)
    return np.stack([Ki[0, 0] * xx + Ki[0, 1] * yy + Ki[0, 2], Ki[1, 1] * yy + Ki[1, 2],
                     np.ones_like(xx)], axis=-1)


def _window(K, centre, radius, width, height):
    """Pixel window (x0, y0, x1, y1) that can contain a body of `radius` mm around `centre`, or the whole frame."""
    if centre[2] - radius <= 10:
        return 0, 0, width, height
    q = K @ centre
    cx, cy = q[0] / q[2], q[1] / q[2]
    r = K[0, 0] * radius / (centre[2] - radius) * 1.15 + 4
    x0, y0 = int(max(0, cx - r)), int(max(0, cy - r))
    x1, y1 = int(min(width, cx + r + 1)), int(min(height, cy + r + 1))
    return x0, y0, x1, y1


def _hit_quadric(D, centre, R, axes):
    """Nearest intersection of rays D (camera at the origin) with an ellipsoid (an infinite axis = a cylinder).

    Returns (coverage 0..1, anti-aliased at the silhouette; hit point in the body's frame; normal in camera frame)."""
    o = R.T @ (-centre)
    d = D @ R.astype(np.float32)
    inv = (1.0 / axes).astype(np.float32)
    os_, ds = (o * inv).astype(np.float32), d * inv
    A = (ds * ds).sum(-1)
    B = 2 * (ds * os_).sum(-1)
    C = float((os_ * os_).sum() - 1)
    disc = B * B - 4 * A * C
    gy, gx = np.gradient(disc)
    cov = np.clip(disc / (np.sqrt(gx * gx + gy * gy) + 1e-12) + 0.5, 0, 1)
    t = (-B - np.sqrt(np.maximum(disc, 0))) / (2 * A)
    cov[t <= 0] = 0
    p = o.astype(np.float32) + t[..., None] * d
    n = p * inv * inv
    n = n @ R.T.astype(np.float32)
    n /= np.linalg.norm(n, axis=-1, keepdims=True) + 1e-9
    return cov.astype(np.float32), p, n


def _smoothstep(x, a, b):
    t = np.clip((x - a) / (b - a), 0, 1)
    return t * t * (3 - 2 * t)


def _shade(n, light):
    """Irradiance on a surface with normals n: ambient plus a key light (direction, strength)."""
    direction, key, ambient = light
    return ambient + key * np.maximum((n * direction).sum(-1), 0)


def draw_person(canvas, D, K, person, light, light_colour):
    """Composites the person (shoulders, neck, head in that order: each occludes the previous) onto `canvas`
    (linear radiance). Returns the person's coverage."""
    height, width = canvas.shape[:2]
    covered = np.zeros((height, width), np.float32)
    body_centre = person.C + person.Rb @ np.array([0.0, 0.0, 20.0])
    # Shoulders and chest: a wide, flat ellipsoid across the shoulders, then a tall one for the chest over its
    # middle (hiding the shoulders' lower rim), the top of both at the base of the neck.
    sw, sb, sc = person.torso_axes
    parts = [(np.array([0.0, 105.0 + sb, 55.0]), np.array([sw, sb, sc])),
             (np.array([0.0, 105.0 + 4.0 * sb, 60.0]), np.array([0.97 * sw, 4.0 * sb, 1.05 * sc]))]
    for offset, axes in parts:
        torso_c = person.C + person.Rb @ offset
        x0, y0, x1, y1 = _window(K, torso_c, axes.max(), width, height)
        if x1 <= x0 + 2 or y1 <= y0 + 2:
            continue
        cov, p, n = _hit_quadric(D[y0:y1, x0:x1], torso_c, person.Rb, axes)
        u = (p[..., 0] / 8 + 32) % 64
        v = (p[..., 1] / 8 + 32) % 64
        fabric = cv2.remap(person.shirt_pattern, u.astype(np.float32), v.astype(np.float32), cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_WRAP)
        col = person.shirt[None, None, :] * (0.85 + 0.3 * fabric)[..., None]
        rad = col * _shade(n, light)[..., None] * light_colour
        region = canvas[y0:y1, x0:x1]
        region[:] = region * (1 - cov[..., None]) + cov[..., None] * rad
        covered[y0:y1, x0:x1] = np.maximum(covered[y0:y1, x0:x1], cov)
    # Neck: a vertical cylinder from under the head to the shoulders, shaded under the chin.
    x0, y0, x1, y1 = _window(K, body_centre + person.Rb @ np.array([0.0, 120.0, 0.0]), 170.0, width, height)
    if x1 > x0 + 2 and y1 > y0 + 2:
        axes = np.array([person.neck_r, 1e9, person.neck_r * 0.9])
        cov, p, n = _hit_quadric(D[y0:y1, x0:x1], body_centre, person.Rb, axes)
        cov = cov * _smoothstep(p[..., 1], 30, 50) * (1 - _smoothstep(p[..., 1], 170, 200))
        chin = 0.45 + 0.55 * _smoothstep(p[..., 1], 80, 150)
        rad = person.tone[None, None, :] * (_shade(n, light) * chin)[..., None] * light_colour
        region = canvas[y0:y1, x0:x1]
        region[:] = region * (1 - cov[..., None]) + cov[..., None] * rad
        covered[y0:y1, x0:x1] = np.maximum(covered[y0:y1, x0:x1], cov)
    # Head: the portrait on the front, hair round the back (above the nape).
    x0, y0, x1, y1 = _window(K, person.C, person.axes.max(), width, height)
    if x1 > x0 + 2 and y1 > y0 + 2:
        cov, p, n = _hit_quadric(D[y0:y1, x0:x1], person.C, person.R, person.axes)
        a, b, c = person.axes
        xs = -p[..., 0] if person.mirror else p[..., 0]
        u = (HEAD_CENTRE_TEX[0] + xs / person.s).astype(np.float32)
        if person.mirror:
            u = 511 - u
        v = (HEAD_CENTRE_TEX[1] + p[..., 1] / person.s).astype(np.float32)
        tex = cv2.remap(person.tex, u, v, cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        alpha = cv2.remap(person.alpha, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        front = 1 - _smoothstep(p[..., 2] / c, -0.25, 0.05)
        bu = ((p[..., 0] / a + 1) * 40 + 20).astype(np.float32)
        bv = ((p[..., 1] / b + 1) * 40 + 20 + 10 * np.sign(p[..., 2])).astype(np.float32)
        strands = cv2.remap(person.back_pattern, bu, bv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        back_col = person.hair[None, None, :] * (0.6 + 0.8 * strands)[..., None]
        back_alpha = (1 - _smoothstep(p[..., 1] / b, 0.3, 0.45)) * _smoothstep(p[..., 1] / b, -0.93, -0.86)
        alpha = cov * (front * alpha + (1 - front) * back_alpha)
        col = front[..., None] * np.clip(tex, 0, 1) + (1 - front[..., None]) * back_col
        rad = col * _shade(n, light)[..., None] * light_colour
        region = canvas[y0:y1, x0:x1]
        region[:] = region * (1 - alpha[..., None]) + alpha[..., None] * rad
        covered[y0:y1, x0:x1] = np.maximum(covered[y0:y1, x0:x1], alpha)
    return covered


def _poster(rng, img, x, y, w, h, face_like):
    """A framed poster or print with face-like shapes: pairs of dark dots over a bar or an arc, rings."""
    scenes._fill(img, np.array([[x - 3, y - 3], [x + w + 3, y - 3], [x + w + 3, y + h + 3], [x - 3, y + h + 3]]),
                 srgb_to_linear(np.full(3, rng.uniform(0.05, 0.3))))
    paper = srgb_to_linear(rng.uniform(0.6, 0.95, 3))
    scenes._fill(img, np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]), paper)
    for _ in range(int(rng.integers(2, 6))):
        r = rng.uniform(0.08, 0.25) * min(w, h)
        cx, cy = x + rng.uniform(r, w - r), y + rng.uniform(r, h - r)
        ink = srgb_to_linear(rng.uniform(0.02, 0.5, 3))
        kind = rng.random()
        if kind < 0.5 and face_like:  # a "face": two dots and a mouth bar
            scenes._fill(img, scenes._circle((cx, cy), r), srgb_to_linear(rng.uniform(0.5, 0.95, 3)))
            for sx in (-0.35, 0.35):
                scenes._fill(img, scenes._circle((cx + sx * r, cy - 0.2 * r), 0.13 * r), ink)
            scenes._fill(img, np.array([[cx - 0.4 * r, cy + 0.35 * r], [cx + 0.4 * r, cy + 0.35 * r],
                                        [cx + 0.4 * r, cy + 0.45 * r], [cx - 0.4 * r, cy + 0.45 * r]]), ink)
        elif kind < 0.8:
            scenes._fill(img, scenes._circle((cx, cy), r), ink)
            scenes._fill(img, scenes._circle((cx, cy), r * 0.6), paper)
        else:
            scenes._fill(img, np.array([[cx - r, cy - r * 0.3], [cx + r, cy - r * 0.3], [cx + r, cy + r * 0.3],
                                        [cx - r, cy + r * 0.3]]), ink)


def _fabric(rng, img, x, y, w, h):
    """A hanging patterned fabric (curtain, throw): waves or polka dots."""
    hh, ww = img.shape[:2]
    x0, y0, x1, y1 = int(max(0, x)), int(max(0, y)), int(min(ww, x + w)), int(min(hh, y + h))
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    period = rng.uniform(0.03, 0.08) * max(ww, hh)
    c1, c2 = srgb_to_linear(rng.uniform(0.05, 0.9, 3)), srgb_to_linear(rng.uniform(0.05, 0.9, 3))
    if rng.random() < 0.5:
        phase = np.sin(2 * math.pi * (yy / period + 0.25 * np.sin(2 * math.pi * xx / (2.3 * period))))
        t = (phase > 0).astype(np.float32)
    else:
        gx = (xx % period) - period / 2
        gy = ((yy + (np.floor(xx / period) % 2) * period / 2) % period) - period / 2
        t = (gx * gx + gy * gy < (0.28 * period) ** 2).astype(np.float32)
    folds = 0.8 + 0.2 * np.sin(2 * math.pi * xx / (rng.uniform(0.05, 0.12) * ww))
    img[y0:y1, x0:x1] = (c1 * t[..., None] + c2 * (1 - t[..., None])) * folds[..., None]


def room(rng, width, height, backlight, clutter, face_like=False):
    """The room behind the person, as reflectance x light (window and lamp as emitters): camsim's far room (wall,
    furniture, maybe a window) plus a door, a shelf with books, a lamp, posters or fabric; a bright window behind
    the person when `backlight`. Returns linear radiance before the lens (the caller defocuses it) and its info."""
    img = scenes.room_background(rng, width, height)
    info = {}
    long = max(width, height)
    if rng.random() < 0.4:  # a door, running off the bottom
        dx, dw = rng.uniform(-0.1, 0.85) * width, rng.uniform(0.12, 0.2) * long
        dy = rng.uniform(0.0, 0.25) * height
        scenes._fill(img, np.array([[dx - 8, dy - 8], [dx + dw + 8, dy - 8], [dx + dw + 8, height + 10],
                                    [dx - 8, height + 10]]), srgb_to_linear(np.full(3, rng.uniform(0.6, 0.9))))
        scenes._fill(img, np.array([[dx, dy], [dx + dw, dy], [dx + dw, height + 10], [dx, height + 10]]),
                     srgb_to_linear(rng.uniform(0.2, 0.8, 3)))
        info["door"] = True
    if rng.random() < 0.5:  # a shelf with books
        sx, sw = rng.uniform(-0.1, 0.7) * width, rng.uniform(0.25, 0.5) * long
        sy = rng.uniform(0.15, 0.6) * height
        wood = srgb_to_linear(rng.uniform(0.2, 0.7) * np.array([1.0, 0.8, 0.6]))
        scenes._fill(img, np.array([[sx, sy], [sx + sw, sy], [sx + sw, sy + 0.012 * long], [sx, sy + 0.012 * long]]),
                     wood)
        bx = sx
        while bx < sx + sw - 4:
            bw, bh = rng.uniform(0.006, 0.02) * long, rng.uniform(0.06, 0.11) * long
            scenes._fill(img, np.array([[bx, sy - bh], [bx + bw, sy - bh], [bx + bw, sy], [bx, sy]]),
                         srgb_to_linear(rng.uniform(0.05, 0.85, 3)))
            bx += bw + rng.uniform(0, 0.004) * long
        info["shelf"] = True
    if rng.random() < 0.3:  # a lamp: a bright shade on a pole
        lx, ly = rng.uniform(0.05, 0.95) * width, rng.uniform(0.1, 0.45) * height
        r = rng.uniform(0.03, 0.06) * long
        scenes._fill(img, np.array([[lx - 2, ly], [lx + 2, ly], [lx + 2, height + 5], [lx - 2, height + 5]]),
                     srgb_to_linear(np.full(3, 0.15)))
        scenes._fill(img, np.array([[lx - r * 0.6, ly - r], [lx + r * 0.6, ly - r], [lx + r, ly], [lx - r, ly]]),
                     np.array([3.0, 2.4, 1.6], np.float32) * rng.uniform(0.8, 2.0))
        info["lamp"] = True
    if clutter:
        for _ in range(int(rng.integers(1, 3))):
            if rng.random() < 0.55:
                w = rng.uniform(0.12, 0.3) * long
                h = w * rng.uniform(0.7, 1.4)
                _poster(rng, img, rng.uniform(0, width - w), rng.uniform(0, max(1, height - h)), w, h, face_like)
                info.setdefault("clutter", []).append("poster")
            else:
                w = rng.uniform(0.2, 0.5) * long
                _fabric(rng, img, rng.uniform(-0.1, 0.8) * width, rng.uniform(0.2, 0.7) * height, w, height)
                info.setdefault("clutter", []).append("fabric")
    if backlight:  # a bright window behind the person's head
        wx = width / 2 + rng.normal(0, 0.12) * width
        ww, wh = rng.uniform(0.35, 0.6) * long, rng.uniform(0.4, 0.7) * height
        wy = rng.uniform(-0.1, 0.15) * height
        sky = np.array([2.2, 2.6, 3.2], np.float32) * rng.uniform(2.0, 4.0)
        scenes._fill(img, np.array([[wx - ww / 2, wy], [wx + ww / 2, wy], [wx + ww / 2, wy + wh],
                                    [wx - ww / 2, wy + wh]]), sky)
        bar = srgb_to_linear(np.full(3, rng.uniform(0.3, 0.9)))
        scenes._fill(img, np.array([[wx - 3, wy], [wx + 3, wy], [wx + 3, wy + wh], [wx - 3, wy + wh]]), bar)
        info["backlight_window"] = True
    return img, info


def key_light(rng, backlit):
    """Light on the person: a key from one side (and above), ambient fill; weak and flat when backlit."""
    side = rng.choice([-1, 1])
    d = np.array([side * rng.uniform(0.5, 1.2), -rng.uniform(0.1, 0.6), -rng.uniform(0.4, 1.0)])
    d /= np.linalg.norm(d)
    if backlit:
        key, ambient = rng.uniform(0.1, 0.35), rng.uniform(0.25, 0.45)
    else:
        key, ambient = rng.uniform(0.7, 1.2), rng.uniform(0.2, 0.45)
    return (d.astype(np.float32), float(key), float(ambient)), {"light_side": "left" if side < 0 else "right",
                                                                  "key": round(float(key), 2),
                                                                  "ambient": round(float(ambient), 2)}


# ---------------------------------------------------------------------------------------------------------------
# Classes and their margins around docs/capture.md's defaults (minFaceSize 0.22, maxFaceSize 0.55, maxFaceOffset
# 0.2, minBrightness 80, minSharpness 0.5; a second face counts from 40 % of the main face's width).
DEFAULT_SIZES = "1280x720,720x1280,1920x1080,1080x1920"  # phones stream selfies upright as often as not
SELFIE_CLASSES = ["GOOD", "NO_FACE", "MULTIPLE_FACES", "FACE_TOO_SMALL", "FACE_TOO_LARGE", "FACE_NOT_CENTERED",
                  "TOO_DARK", "BLURRY"]
SIZE_NORMAL = (0.28, 0.45)     # faceSize: face box width / frame short side
SIZE_SMALL = (0.09, 0.17)      # < 0.22
SIZE_LARGE = (0.62, 0.78)      # > 0.55
OFFSET_CENTRED = 0.10          # faceOffset: face centre's distance from the frame centre / short side (0.2)
OFFSET_OFF = (0.27, 0.55)      # > 0.2
SECOND_RATIO = (0.55, 0.97)    # second face width / main face width (counted from 0.4)
FACE_LUMA_NORMAL = (100.0, 195.0)  # minBrightness 80
FACE_LUMA_DARK = (10.0, 55.0)      # < 60
FRAME_LUMA_NO_FACE = (90.0, 195.0)  # TOO_DARK would come first below 40
FACE_SATURATED = 0.02          # share of the face box clipped (>= 250): a lit face, not a blown-out one
INSIDE_MARGIN = 0.02           # face box at least 2 % of the short side inside every frame edge
# Blur in face units: the engine judges selfie sharpness on the face resampled to 96 px wide (docs/capture.md),
# where a Gaussian sigma of ~1 px scores 0.5. A unit is (face box width in input pixels / 96).
BLUR_DEFOCUS = (3.0, 5.0)      # disc radius: sigma 1.5-2.5 face px, sharpness ~0.3 or less
BLUR_MOTION = (7.0, 13.0)      # shake path length: a smear of sigma ~2-3.7 face px


def selfie_intrinsics(rng, width, height):
    """A phone's front camera: 70-80 degrees across the sensor's long side (portrait frames are the same sensor
    upright)."""
    hfov = rng.uniform(70, 80)
    f = (max(width, height) / 2) / math.tan(math.radians(hfov) / 2)
    cx = (width - 1) / 2 + rng.normal(0, width * 0.005)
    cy = (height - 1) / 2 + rng.normal(0, height * 0.005)
    return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], np.float64), hfov


def frontal_pose(rng):
    return (float(rng.uniform(-14, 14)), float(rng.uniform(-10, 10)), float(np.clip(rng.normal(0, 6), -14, 14)))


def box_geometry(box, width, height):
    short = min(width, height)
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    size = w / short
    offset = math.hypot(cx - (width - 1) / 2, cy - (height - 1) / 2) / short
    inside = min(x, y, width - 1 - (x + w), height - 1 - (y + h)) / short
    return size, offset, inside


def _centre_at(rng, width, height, radius):
    a = rng.uniform(0, 2 * math.pi)
    return ((width - 1) / 2 + radius * math.cos(a), (height - 1) / 2 + radius * math.sin(a))


def layout(rng, cls, width, height, K):
    """People in the scene with poses meeting the class's geometric definition. Returns (people drawn far to near,
    main face box or None, second face box or None, info)."""
    short = min(width, height)
    for _ in range(200):
        info = {}
        if cls == "NO_FACE":
            variant = str(rng.choice(["empty", "turned_away", "out_of_frame"], p=[0.35, 0.35, 0.3]))
            info["variant"] = variant
            if variant == "empty":
                return [], None, None, info
            if variant == "turned_away":
                yaw = 180 + rng.uniform(-25, 25)
                person = Person(rng, float(yaw), float(rng.uniform(-10, 10)), float(rng.normal(0, 5)))
                size = rng.uniform(0.28, 0.45)
                centre = _centre_at(rng, width, height, rng.uniform(0, 0.15) * short)
            else:
                person = Person(rng, *frontal_pose(rng))
                size = rng.uniform(0.3, 0.45)
                if rng.random() < 0.6:  # the phone points at the chest: the head above the frame
                    centre = (width / 2 + rng.normal(0, 0.1) * width, -rng.uniform(0.35, 0.6) * size * short)
                else:  # leaning out of the frame sideways
                    side = rng.choice([-1, 1])
                    centre = (width / 2 + side * (width / 2 + rng.uniform(0.75, 1.0) * size * short),
                              height / 2 + rng.normal(0, 0.08) * height)
            box = person.place(K, width, height, centre, size * short)
            if variant == "turned_away":
                if person.C[2] < 250 or person.visible_face_fraction() > 0:
                    continue
            else:
                if box is not None:
                    x, y, w, h = box
                    if not (y + h < -0.05 * short or x + w < -0.05 * short or x > width - 1 + 0.05 * short):
                        continue
                if person.C[2] < 250:
                    continue
            info.update(person.info())
            return [person], None, None, info
        person = Person(rng, *frontal_pose(rng))
        if cls == "FACE_TOO_SMALL":
            size = rng.uniform(SIZE_SMALL[0] + 0.015, SIZE_SMALL[1] - 0.015)
        elif cls == "FACE_TOO_LARGE":
            size = rng.uniform(SIZE_LARGE[0] + 0.02, SIZE_LARGE[1] - 0.04)
        elif cls == "MULTIPLE_FACES":
            size = rng.uniform(0.25, 0.37)
        elif cls == "FACE_NOT_CENTERED":
            size = rng.uniform(SIZE_NORMAL[0] + 0.01, 0.4)
        else:
            size = rng.uniform(SIZE_NORMAL[0] + 0.02, SIZE_NORMAL[1] - 0.03)
        second = None
        if cls == "FACE_NOT_CENTERED":
            centre = _centre_at(rng, width, height, rng.uniform(OFFSET_OFF[0] + 0.02, OFFSET_OFF[1]) * short)
        elif cls == "MULTIPLE_FACES":
            side = rng.choice([-1, 1])
            ratio = rng.uniform(SECOND_RATIO[0] + 0.03, SECOND_RATIO[1] - 0.02)
            gap = (size + size * ratio) / 2 * rng.uniform(1.45, 1.9) * short
            mid = (width - 1) / 2 + rng.normal(0, 0.04) * short
            cy = (height - 1) / 2 + rng.normal(0, 0.04) * short
            centre = (mid + side * gap * ratio / (1 + ratio), cy)
            centre2 = (mid - side * gap / (1 + ratio), cy + rng.uniform(-0.1, 0.08) * short)
            second = Person(rng, *frontal_pose(rng))
            if second.place(K, width, height, centre2, ratio * size * short) is None:
                continue
        else:
            centre = _centre_at(rng, width, height, rng.uniform(0, 0.07) * short)
        box = person.place(K, width, height, centre, size * short)
        if box is None or person.C[2] < 200:
            continue
        fsize, offset_box, inside = box_geometry(box, width, height)
        if inside < INSIDE_MARGIN:
            continue
        mx, my = person.project_tex_point(K, *MID_FACE_TEX)
        offset_mid = math.hypot(mx - (width - 1) / 2, my - (height - 1) / 2) / short
        offsets = (min(offset_box, offset_mid), max(offset_box, offset_mid))
        ok = True
        if cls == "FACE_TOO_SMALL":
            ok = SIZE_SMALL[0] <= fsize <= SIZE_SMALL[1] and offsets[1] <= OFFSET_CENTRED
        elif cls == "FACE_TOO_LARGE":
            ok = SIZE_LARGE[0] <= fsize <= SIZE_LARGE[1] and offset_box <= OFFSET_CENTRED  # before NOT_CENTERED
        elif cls == "FACE_NOT_CENTERED":
            ok = SIZE_NORMAL[0] <= fsize <= SIZE_NORMAL[1] and OFFSET_OFF[0] <= offsets[0] <= offsets[1] <= OFFSET_OFF[1]
        elif cls == "MULTIPLE_FACES":
            box2 = second.face_box(K, width, height)
            if box2 is None or box_geometry(box2, width, height)[2] < INSIDE_MARGIN or second.C[2] < 200:
                continue
            r = box2[2] / box[2]
            # Heads (about 1.6 face widths with the hair) must not overlap: both faces fully in view.
            sep = abs((box[0] + box[2] / 2) - (box2[0] + box2[2] / 2))
            ok = (SECOND_RATIO[0] <= r <= SECOND_RATIO[1] and sep >= 0.8 * (box[2] + box2[2])
                  and 0.22 <= fsize <= 0.45)
            info.update({"second_ratio": round(r, 3), "second_yaw": round(second.yaw, 2),
                         "second_pitch": round(second.pitch, 2), "second_roll": round(second.roll, 2),
                         "second_distance_mm": round(float(np.linalg.norm(second.C)), 1)})
        else:
            ok = SIZE_NORMAL[0] <= fsize <= SIZE_NORMAL[1] and offsets[1] <= OFFSET_CENTRED
        if not ok:
            continue
        info.update(person.info())
        info.update({"face_size": round(fsize, 4), "face_offset": round(offset_box, 4),
                     "face_offset_midface": round(offset_mid, 4), "face_inside": round(inside, 4)})
        people = [person] if second is None else sorted([person, second], key=lambda p: -p.C[2])
        return people, box, (second.face_box(K, width, height) if second is not None else None), info
    raise RuntimeError(f"no layout found for {cls}")


def _person_info(self):
    r, g, b = self.tone ** (1 / 2.2)
    return {"yaw": round(self.yaw, 2), "pitch": round(self.pitch, 2), "roll": round(self.roll, 2),
            "distance_mm": round(float(np.linalg.norm(self.C)), 1), "face_mm": round(self.face_mm, 1),
            "mirror": self.mirror, "skin_srgb": [round(float(v), 3) for v in (r, g, b)]}


def _visible_face_fraction(self):
    """Share of the face region (brows to chin) that faces the camera: 0 for a person turned away."""
    x0, y0, x1, y1 = FACE_BOX_TEX
    uu, vv = np.meshgrid(np.linspace(x0, x1, 16), np.linspace(y0, y1, 16))
    x, y = (uu - HEAD_CENTRE_TEX[0]) * self.s, (vv - HEAD_CENTRE_TEX[1]) * self.s
    a, b, c = self.axes
    z = -c * np.sqrt(np.clip(1 - (x / a) ** 2 - (y / b) ** 2, 0, 1))
    p = np.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    pc = p @ self.R.T + self.C
    nc = (p / self.axes ** 2) @ self.R.T
    return float(((nc * pc).sum(axis=1) < 0).mean())


Person.info = _person_info
Person.visible_face_fraction = _visible_face_fraction


def render_selfie_scene(rng, cls, width, height):
    """Scene radiance (linear RGB) as the lens sees it. Returns (radiance, main box, second box, K, info)."""
    K, hfov = selfie_intrinsics(rng, width, height)
    people, box, box2, info = layout(rng, cls, width, height, K)
    info["hfov"] = round(float(hfov), 1)
    backlit = rng.random() < (0.2 if cls != "TOO_DARK" else 0.25)
    clutter = rng.random() < (0.7 if cls == "NO_FACE" else 0.2)
    # Face-like prints (two dots over a bar) only where no face is expected: elsewhere they would make the
    # expected code ambiguous (is a drawn face a second face?).
    bg, room_info = room(rng, width, height, backlit, clutter, face_like=cls == "NO_FACE")
    info.update(room_info)
    info["backlight"] = bool(backlit)
    light = scenes.light_colour(rng)
    E = scenes.irradiance(rng, width, height, False)
    radiance = bg * E[..., None] * light
    # The room is 1.5-4 m behind the person, the fixed-focus front camera sharp at arm's length.
    radiance = camera.convolve(radiance, camera.disc_kernel(rng.uniform(0.002, 0.008) * max(width, height)))
    key, light_info = key_light(rng, backlit)
    level = rng.uniform(0.8, 1.3)
    key = (key[0], key[1] * level, key[2] * level)
    info.update(light_info)
    D = _rays(K, width, height)
    for person in people:
        draw_person(radiance, D, K, person, key, light)
    return radiance.astype(np.float32), box, box2, info


def measure_selfie(gray, box, width, height):
    out = {"frame_luma": float(gray.mean())}
    if box is None:
        return out
    x, y, w, h = box
    x0, y0 = max(0, int(round(x))), max(0, int(round(y)))
    x1, y1 = min(width, int(round(x + w)) + 1), min(height, int(round(y + h)) + 1)
    face = gray[y0:y1, x0:x1]
    out.update({"face_luma": float(face.mean()), "face_saturated": float((face >= 250).mean())})
    return out


def selfie_luma_window(cls):
    if cls == "NO_FACE":
        return (105.0, 165.0)
    if cls == "TOO_DARK":
        return (18.0, 45.0)
    return (115.0, 170.0)


def selfie_acceptable(cls, m):
    if cls == "NO_FACE":
        return FRAME_LUMA_NO_FACE[0] <= m["frame_luma"] <= FRAME_LUMA_NO_FACE[1]
    if cls == "TOO_DARK":
        return FACE_LUMA_DARK[0] <= m["face_luma"] <= FACE_LUMA_DARK[1]
    return (FACE_LUMA_NORMAL[0] <= m["face_luma"] <= FACE_LUMA_NORMAL[1]
            and m["face_saturated"] <= FACE_SATURATED)


def make_selfie_frame(task):
    seed, cls, index, width, height, out_dir = task
    unit = max(width, height) / 640.0
    last = None
    for attempt in range(12):
        # Index 100 + class keeps selfie streams apart from the document classes' (seed, class, index, attempt).
        rng = np.random.default_rng([seed, 100 + SELFIE_CLASSES.index(cls), index, attempt])
        radiance, box, box2, info = render_selfie_scene(rng, cls, width, height)
        sharp = True
        if cls == "BLURRY":
            sharp = False
            face_unit = box[2] / 96.0
            if rng.random() < 0.5:
                r = rng.uniform(*BLUR_DEFOCUS) * face_unit
                radiance = camera.convolve(radiance, camera.disc_kernel(r))
                info.update({"blur": "defocus", "blur_radius_px": round(float(r), 2),
                             "blur_face_units": round(float(r / face_unit), 2)})
            else:
                length, angle = rng.uniform(*BLUR_MOTION) * face_unit, rng.uniform(0, 180)
                radiance = camera.convolve(radiance, camera.motion_kernel(rng, length, angle))
                info.update({"blur": "motion", "blur_length_px": round(float(length), 2),
                             "blur_angle": round(float(angle), 1),
                             "blur_face_units": round(float(length / face_unit), 2)})
        else:
            radiance = camera.residual_blur(radiance, rng, unit)
        radiance = camera.lens(radiance, rng, width, height)
        if cls == "TOO_DARK":
            gain, bias = rng.uniform(8, 24), rng.uniform(-3.6, -2.4)
        else:
            gain, bias = float(np.exp(rng.uniform(0, math.log(6)))), rng.normal(0, 0.3)
        # Front cameras: small pixels, a smaller full well than a main camera's.
        sensor = {"full_well": rng.uniform(3000, 8000), "gain": gain, "read_noise": rng.uniform(1.5, 4.0)}
        isp = camera.random_isp(rng, unit, saturation_max=1.3, contrast_max=0.3)
        noise_seed = int(rng.integers(0, 2 ** 31))

        def judge(gray):
            # Face-priority AE: it meters the face, or the frame without one.
            m = measure_selfie(gray, box, width, height)
            return m.get("face_luma", m["frame_luma"]), m

        data, m, bias = camera.auto_exposed(radiance, bias, sensor, isp, noise_seed, selfie_luma_window(cls), judge)
        last = (cls, m)
        if selfie_acceptable(cls, m):
            break
    else:
        raise RuntimeError(f"selfie {cls} #{index}: no unambiguous frame in 12 attempts (last {last})")
    name = f"selfie_{cls.lower()}_{index:04d}_{width}x{height}.jpg"
    with open(f"{out_dir}/{name}", "wb") as f:
        f.write(data)
    faces = [[round(float(v), 1) for v in b] for b in (box, box2) if b is not None]
    params = dict(info)
    params.update({"attempt": attempt, "exposure_bias_ev": round(float(bias), 2), "gain": round(gain, 2),
                   "jpeg_quality": isp["jpeg_quality"], "progressive": isp["progressive"],
                   "sharpen": round(isp["sharpen"], 2)})
    params.update({k: round(v, 4) for k, v in m.items()})
    return {"file": name, "mode": "selfie", "expected": cls, "width": width, "height": height, "corners": None,
            "faces": faces, "sharp": sharp, "fill": 0.0, "params": params}
