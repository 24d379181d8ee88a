"""Camera physics applied to a composed scene: exposure, specular glare, vignetting, lens and motion blur, sensor
noise, clipping and JPEG compression. Everything takes a numpy Generator so a frame is a pure function of the seed.

Working values are float32 in 0..255 (display-referred, roughly what a phone pipeline hands to its encoder); clipping
happens once, after noise, as on a real sensor + ISP.
"""
import cv2
import numpy as np


def scale_of(height):
    """Pixel-size parameters are written for 720p; this scales them to the frame height."""
    return height / 720.0


def apply_exposure(image, gain, offset=0.0):
    return image * np.float32(gain) + np.float32(offset)


def add_glare(image, polygon, rng, blobs, area_fraction):
    """Adds `blobs` specular highlights inside `polygon` (N x 2, frame pixels): elliptical spots whose saturated cores
    together cover about `area_fraction` of the polygon's area. Returns the glare mask actually added (0..1)."""
    h, w = image.shape[:2]
    poly_area = abs(cv2.contourArea(polygon.astype(np.float32)))
    mask = np.zeros((h, w), np.float32)
    inside = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(inside, np.round(polygon).astype(np.int32), 1)
    centre = polygon.mean(axis=0)
    for _ in range(blobs):
        # A point inside the document, away from its edges (blend corner and centre).
        corner = polygon[rng.integers(0, len(polygon))]
        t = rng.uniform(0.35, 0.7)
        cx, cy = centre * (1 - t) + corner * t
        core_area = poly_area * area_fraction / blobs
        ratio = rng.uniform(1.0, 2.2)
        a = np.sqrt(core_area * ratio / np.pi)
        b = a / ratio
        angle = rng.uniform(0, 180)
        # Gaussian falloff: the saturated core is where the added light exceeds ~255; the halo is about twice as wide.
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ca, sa = np.cos(np.radians(angle)), np.sin(np.radians(angle))
        dx, dy = xx - cx, yy - cy
        u = (dx * ca + dy * sa) / a
        v = (-dx * sa + dy * ca) / b
        r2 = u * u + v * v
        spot = np.exp(-0.5 * r2 / 0.55) / np.exp(-0.5 / 0.55)  # equals 1 on the core's edge (r = 1)
        mask = np.maximum(mask, spot.astype(np.float32))
    mask *= inside.astype(np.float32)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    # Light that saturates at the core edge (mask 1) and beyond: +300 levels there.
    image += (mask * 300.0)[..., None]
    return mask


def vignette(image, strength):
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    gain = 1.0 - strength * (r2 / 2.0)
    return image * gain[..., None]


def lens_blur(image, sigma):
    if sigma <= 0.05:
        return image
    return cv2.GaussianBlur(image, (0, 0), sigma)


def motion_blur(image, length, angle_degrees):
    length = max(3, int(round(length)))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle_degrees, 1.0)
    kernel = cv2.warpAffine(kernel, rotation, (length, length))
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel)


def sensor_noise(image, rng, read_sigma, shot_scale):
    """Poisson-like shot noise (variance proportional to the signal) plus Gaussian read noise, per channel."""
    signal = np.clip(image, 0, None)
    sigma = np.sqrt(read_sigma ** 2 + shot_scale * signal)
    return image + rng.standard_normal(image.shape, dtype=np.float32) * sigma


def finish(image, rng, quality):
    """Clips to 8 bits and encodes as baseline or progressive JPEG at `quality`. Returns the JPEG bytes."""
    pixels = np.clip(image + 0.5, 0, 255).astype(np.uint8)
    progressive = int(rng.random() < 0.25)
    ok, encoded = cv2.imencode(".jpg", pixels, [cv2.IMWRITE_JPEG_QUALITY, int(quality),
                                                 cv2.IMWRITE_JPEG_PROGRESSIVE, progressive])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return encoded.tobytes()
