"""The camera: pinhole projection of a 3-D document pose, lens (defocus disc, motion path, softness, vignetting),
sensor (shot + read noise at an analog gain, clipping at full well), auto-exposure, and the phone ISP (white balance,
colour matrix, tone curve, sharpening, JPEG with 4:2:0 chroma).

Radiance and sensor values are linear; 1.0 is the sensor's clipping level at the chosen exposure.
"""
import math

import cv2
import numpy as np


def intrinsics(width, height, hfov_deg, rng):
    f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
    cx = (width - 1) / 2 + rng.normal(0, width * 0.005)
    cy = (height - 1) / 2 + rng.normal(0, height * 0.005)
    return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1]], np.float64)


def rotation(pitch_deg, yaw_deg, roll_deg):
    """Card rotation: pitch about the camera's x axis, yaw about y, roll about the optical axis."""
    p, y, r = (math.radians(a) for a in (pitch_deg, yaw_deg, roll_deg))
    rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
    ry = np.array([[math.cos(y), 0, math.sin(y)], [0, 1, 0], [-math.sin(y), 0, math.cos(y)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    return rx @ ry @ rz


def plane_homography(K, R, t, size_mm):
    """Homography from document millimetres (origin at the top-left corner) to image pixels."""
    w, h = size_mm
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], np.float64)
    return K @ np.column_stack([R[:, 0], R[:, 1], t]) @ centre


def apply_h(H, pts):
    pts = np.asarray(pts, np.float64)
    q = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return q[:, :2] / q[:, 2:3]


def quad_area(q):
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def place(K, R, size_mm, centre_px, target_area):
    """Translation putting the document's centre on the ray through `centre_px` with the given projected area."""
    ray = np.linalg.inv(K) @ np.array([centre_px[0], centre_px[1], 1.0])
    ray /= ray[2]
    z = 400.0
    w, h = size_mm
    for _ in range(6):
        H = plane_homography(K, R, ray * z, size_mm)
        area = quad_area(apply_h(H, [(0, 0), (w, 0), (w, h), (0, h)]))
        z *= math.sqrt(area / target_area)
    return ray * z


def disc_kernel(radius):
    """Defocus point-spread function: a uniformly lit disc (the aperture's image), anti-aliased at its rim."""
    if radius < 0.3:
        return None
    n = int(math.ceil(radius)) + 1
    sub = 4
    ax = (np.arange(-n * sub, (n + 1) * sub) + 0.5) / sub - 0.5
    xx, yy = np.meshgrid(ax, ax)
    fine = (xx ** 2 + yy ** 2 <= radius ** 2).astype(np.float32)
    k = cv2.resize(fine, (2 * n + 1, 2 * n + 1), interpolation=cv2.INTER_AREA)
    return k / k.sum()


def motion_kernel(rng, length, angle_deg):
    """Camera shake during the exposure: a curved path swept at a speed varying by up to +-30 %.

    (A path swept sinusoidally, stopping at both ends, would pile the light at the ends into a sharp double image:
    ghosting, not the smear a shaky ~1/30 s exposure gives, and not unambiguously "blurry".)"""
    if length < 0.3:
        return None
    a = math.radians(angle_deg)
    d = np.array([math.cos(a), math.sin(a)])
    normal = np.array([-d[1], d[0]])
    bend = rng.uniform(-0.25, 0.25) * length
    u = np.linspace(0, 1, 400)
    wobble = rng.uniform(-0.3, 0.3)
    s = u + wobble * np.sin(2 * math.pi * u) / (2 * math.pi)  # speed 1 + wobble * cos(2 pi u)
    pts = (s[:, None] - 0.5) * length * d + (4 * s * (1 - s))[:, None] * bend * normal
    n = int(math.ceil(np.abs(pts).max())) + 2
    k = np.zeros((2 * n + 1, 2 * n + 1), np.float32)
    for x, y in pts + n:
        x0, y0 = int(math.floor(x)), int(math.floor(y))
        fx, fy = x - x0, y - y0
        k[y0, x0] += (1 - fx) * (1 - fy)
        k[y0, x0 + 1] += fx * (1 - fy)
        k[y0 + 1, x0] += (1 - fx) * fy
        k[y0 + 1, x0 + 1] += fx * fy
    return k / k.sum()


def convolve(img, kernel):
    if kernel is None:
        return img
    return cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REFLECT)


def vignetting(width, height, strength):
    """Residual lens shading after the ISP's correction: a radial falloff, `strength` lost at the corners."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    return (1 - strength * (0.6 * r2 + 0.4 * r2 * r2)).astype(np.float32)


def luminance(rgb):
    return rgb[..., 0] * 0.2126 + rgb[..., 1] * 0.7152 + rgb[..., 2] * 0.0722


def metered_exposure(radiance):
    """Centre-weighted average metering: the exposure that puts the weighted mean at 18 % grey."""
    h, w = radiance.shape[:2]
    small = cv2.resize(luminance(radiance), (64, 36), interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[0:36, 0:64].astype(np.float32)
    weight = np.exp(-(((xx - 31.5) / 22) ** 2 + ((yy - 17.5) / 13) ** 2))
    meter = float((small * weight).sum() / weight.sum())
    return 0.18 / max(meter, 1e-6)


def _correlated_noise(rng, shape, sigma_px):
    """Unit-variance noise with the short spatial correlation left by demosaicing."""
    n = rng.standard_normal(shape, dtype=np.float32)
    if sigma_px <= 0:
        return n
    n = cv2.GaussianBlur(n, (0, 0), sigma_px)
    return n / max(float(n.std()), 1e-6)


def expose_and_process(radiance, exposure, sensor, isp, seed):
    """Sensor and ISP: linear radiance x exposure -> JPEG bytes. Deterministic in `seed`."""
    rng = np.random.default_rng(seed)
    y = radiance * exposure
    full_well = sensor["full_well"] / sensor["gain"]  # electrons that reach the clipping level at this gain
    electrons = np.maximum(y, 0) * full_well
    shot = np.sqrt(electrons) * _correlated_noise(rng, y.shape, 0.6)
    read = sensor["read_noise"] * _correlated_noise(rng, y.shape, 0.6)
    y = (electrons + shot + read) / full_well
    y = np.clip(y, 0, 1.0)  # full well / ADC clipping
    # White balance: grey-world estimate, applied only partly (cameras keep some of the light's colour).
    means = y.reshape(-1, 3).mean(axis=0) + 1e-6
    gains = means[1] / means
    gains = 1 + (gains - 1) * isp["wb_strength"]
    y = y * gains[None, None, :].astype(np.float32)
    # Colour matrix as a saturation boost around luminance.
    lum = luminance(y)[..., None]
    y = lum + (y - lum) * isp["saturation"]
    # Chroma denoise: phones smooth colour noise heavily.
    lum = luminance(y)[..., None]
    chroma = cv2.GaussianBlur(y - lum, (0, 0), isp["chroma_blur"])
    y = np.clip(lum + chroma, 0, 1)
    if sensor["gain"] >= 8:
        y = cv2.GaussianBlur(y, (0, 0), 0.7)  # luma denoise at high gain softens detail as real phones do
    # Tone curve: sRGB transfer, then an S-curve for contrast.
    t = np.where(y <= 0.0031308, 12.92 * y, 1.055 * np.power(np.maximum(y, 0.0031308), 1 / 2.4) - 0.055)
    t = (1 - isp["contrast"]) * t + isp["contrast"] * (t * t * (3 - 2 * t))
    # Sharpening (unsharp mask) as every phone ISP applies.
    if isp["sharpen"] > 0:
        t = t + isp["sharpen"] * (t - cv2.GaussianBlur(t, (0, 0), isp["sharpen_radius"]))
    out = np.clip(t * 255 + 0.5, 0, 255).astype(np.uint8)
    bgr = out[..., ::-1].copy()
    params = [cv2.IMWRITE_JPEG_QUALITY, int(isp["jpeg_quality"])]
    if isp["progressive"]:
        params += [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    ok, data = cv2.imencode(".jpg", bgr, params)
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def auto_exposed(radiance, bias, sensor, isp, noise_seed, window, judge, settled=lambda m: False):
    """The phone's auto-exposure converging, with the user's (or the scene's) exposure error `bias` (EV), on the
    subject: up to five exposures, each moved toward the luma `window` (lo, hi) by what the last one measured.
    `judge(gray)` returns (luma, measurements); `settled(measurements)` ends the loop early. Returns the last JPEG's
    bytes, its measurements and the bias reached."""
    lo, hi = window
    base_exposure = metered_exposure(radiance)
    for _nudge in range(5):
        data = expose_and_process(radiance, base_exposure * 2 ** bias, sensor, isp, noise_seed)
        gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        luma, m = judge(gray)
        if lo <= luma <= hi or settled(m):
            break
        bias += float(np.clip(2.2 * math.log2(max((lo + hi) / 2, 1) / max(luma, 1)), -2, 2))
    return data, m, bias


def random_isp(rng, unit, saturation_max, contrast_max):
    """A phone ISP's settings: white balance, saturation, chroma blur, tone contrast, sharpening (radius in input
    pixels for `unit`), JPEG quality and progressive coding (a fifth of phones)."""
    return {"wb_strength": rng.uniform(0.6, 1.0), "saturation": rng.uniform(0.9, saturation_max),
            "chroma_blur": rng.uniform(1.0, 2.5), "contrast": rng.uniform(0.0, contrast_max),
            "sharpen": rng.uniform(0.2, 0.8), "sharpen_radius": rng.uniform(0.8, 1.6) * unit / 2,
            "jpeg_quality": int(rng.integers(60, 96)), "progressive": bool(rng.random() < 0.2)}


# A sharp frame still has a little defocus and hand shake, in (frame long side / 640) units: disc radius (sigma of a
# disc is radius / 2) and shake length.
SHARP_DEFOCUS_MAX = 0.3
SHARP_MOTION_MAX = 0.5


def residual_blur(radiance, rng, unit):
    """The defocus a sharp frame still has, and in 30 % of frames a little hand shake."""
    radiance = convolve(radiance, disc_kernel(rng.uniform(0, SHARP_DEFOCUS_MAX) * unit))
    if rng.random() < 0.3:
        radiance = convolve(radiance, motion_kernel(rng, rng.uniform(0, SHARP_MOTION_MAX) * unit,
                                                    rng.uniform(0, 180)))
    return radiance


def lens(radiance, rng, width, height):
    """The lens's own softness and its vignetting."""
    radiance = convolve(radiance, disc_kernel(rng.uniform(0.5, 0.8)))
    return radiance * vignetting(width, height, rng.uniform(0.08, 0.35))[..., None]
