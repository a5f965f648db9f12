"""A pinhole camera with lens distortion, posed above the table, and exact views of flat textures.

World coordinates are the table frame in millimetres (x right, y down the mat, z into the table,
so the camera is at negative z). A flat texture on the table is seen through a plane-to-image
homography, then the lens distortion; :func:`render_plane` does both with one remap, so the
pixels are exactly where :meth:`PinholeCamera.project` says the table points are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class PinholeCamera:
    width: int
    height: int
    K: np.ndarray  # 3x3 intrinsics
    dist: np.ndarray  # k1, k2, p1, p2, k3
    R: np.ndarray  # world -> camera rotation
    t: np.ndarray  # world -> camera translation (mm)

    @classmethod
    def looking_at(cls, target_mm: tuple[float, float], distance_mm: float, tilt_deg: float, yaw_deg: float = 0.0,
                   size: tuple[int, int] = (1280, 720), hfov_deg: float = 65.0,
                   dist: tuple[float, ...] = (0, 0, 0, 0, 0), roll_deg: float = 0.0) -> PinholeCamera:
        """A camera ``distance_mm`` from a table point, tilted ``tilt_deg`` from looking straight down.

        At yaw 0 the camera leans back towards +y (the near side of the mat), so the mat appears
        upright: table +x is image right, table +y is image down.
        """
        width, height = size
        f = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
        K = np.array([[f, 0, (width - 1) / 2], [0, f, (height - 1) / 2], [0, 0, 1]], np.float64)
        t_ = math.radians(tilt_deg)
        x_cam = np.array([1.0, 0.0, 0.0])
        z_cam = np.array([0.0, -math.sin(t_), math.cos(t_)])
        y_cam = np.cross(z_cam, x_cam)
        R = np.stack([x_cam, y_cam, z_cam])
        yaw = _rot_z(math.radians(yaw_deg))
        R = _rot_z(math.radians(roll_deg)) @ R @ yaw.T
        target = np.array([target_mm[0], target_mm[1], 0.0])
        centre = target - distance_mm * (R[2])  # the optical axis passes through the target
        return cls(width, height, K, np.asarray(dist, np.float64), R, -R @ centre)

    def moved(self, d_yaw_deg: float = 0.0, d_tilt_deg: float = 0.0) -> PinholeCamera:
        """The same camera knocked about its own centre (a bump): turned about the vertical and tipped."""
        centre = -self.R.T @ self.t
        R = _rot_x_cam(math.radians(d_tilt_deg)) @ self.R @ _rot_z(math.radians(d_yaw_deg)).T
        return PinholeCamera(self.width, self.height, self.K, self.dist, R, -R @ centre)

    def scaled(self, factor: int) -> PinholeCamera:
        """The same view at ``factor`` times the resolution (pixel centres move with the pixel grid)."""
        S = np.array([[factor, 0, (factor - 1) / 2], [0, factor, (factor - 1) / 2], [0, 0, 1]])
        return PinholeCamera(self.width * factor, self.height * factor, S @ self.K, self.dist, self.R, self.t)

    def image_from_table(self) -> np.ndarray:
        """The homography from table millimetres to *undistorted* pixels."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Image pixels (with distortion) of table points (N x 2)."""
        pts = np.column_stack([np.asarray(points_mm, np.float64).reshape(-1, 2), np.zeros(len(points_mm))])
        rvec, _ = cv2.Rodrigues(self.R)
        px, _ = cv2.projectPoints(pts, rvec, self.t, self.K, self.dist)
        return px.reshape(-1, 2)

    def table_points_of_pixels(self, px: np.ndarray) -> np.ndarray:
        """Table millimetres seen at the given pixels (N x 2): the inverse of :meth:`project`."""
        undistorted = cv2.undistortPoints(np.asarray(px, np.float64).reshape(-1, 1, 2), self.K, self.dist,
                                          R=np.eye(3), P=self.K,
                                          criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9))
        H_inv = np.linalg.inv(self.image_from_table())
        pts = cv2.perspectiveTransform(undistorted, H_inv)
        return pts.reshape(-1, 2)


def render_plane(texture: np.ndarray, px_per_mm: float, texture_origin_mm: tuple[float, float],
                 camera: PinholeCamera, background: int = 90, supersample: int = 3) -> np.ndarray:
    """What ``camera`` sees of a flat ``texture`` lying on a plain table of grey ``background``.

    Texture pixel (0, 0) covers the square from ``texture_origin_mm`` to 1/px_per_mm further on.
    Like a real sensor, each pixel averages the light over its area: the view is rendered
    ``supersample`` times larger and reduced, so edges are not snapped to the pixel grid.
    """
    if supersample > 1:
        big = render_plane(texture, px_per_mm, texture_origin_mm, camera.scaled(supersample), background, 1)
        return cv2.resize(big, (camera.width, camera.height), interpolation=cv2.INTER_AREA)
    w, h = camera.width, camera.height
    grid = np.stack(np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64)), -1).reshape(-1, 2)
    table = camera.table_points_of_pixels(grid)
    # remap samples at pixel centres: texture pixel j's centre lies at origin + (j + 0.5) / px_per_mm.
    source = ((table - np.asarray(texture_origin_mm)) * px_per_mm - 0.5).astype(np.float32).reshape(h, w, 2)
    value = (background,) * 3 if texture.ndim == 3 else background
    return cv2.remap(texture, source[..., 0], source[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=value)


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rot_x_cam(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
