"""Where a point above the table appears in the picture: the camera's pose recovered from the table calibration.

A :class:`~calibration.homography.TableCalibration` maps the table *plane* to pixels. Pieces stand
up from it, so reading them needs the camera's pose too. A plane homography is ``K [r1 r2 t]``;
with the lens matrix ``K`` known (from the calibration's intrinsics) the pose follows directly
(Zhang's decomposition). Without intrinsics the principal point is taken at the picture's centre
and the focal length is the one that makes ``r1`` and ``r2`` orthogonal and of equal length; a
camera looking almost straight down leaves that unobservable, and a 65-degree webcam lens is assumed.

Table frame as everywhere: x right, y away from the camera-side player, z *into* the table, so a
point ``h`` mm above the table has z = -h.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from calibration.homography import TableCalibration

DEFAULT_HFOV_DEG = 65.0


@dataclass(frozen=True)
class TableCamera:
    calibration: TableCalibration
    K: np.ndarray
    R: np.ndarray  # table -> camera rotation
    t: np.ndarray  # table -> camera translation, mm
    scale: float = 1.0  # pixels of a resized copy of the frame per pixel of the frame itself

    @classmethod
    def from_calibration(cls, calibration: TableCalibration) -> TableCamera:
        H = np.asarray(calibration.image_from_table, np.float64)
        if calibration.intrinsics is not None:
            K = np.asarray(calibration.intrinsics.K, np.float64)
        else:
            K = _guess_intrinsics(H, calibration.image_size)
        M = np.linalg.inv(K) @ H
        scale = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
        M = M * scale
        if M[2, 2] < 0:  # the table lies in front of the camera
            M = -M
        r1, r2, t = M[:, 0], M[:, 1], M[:, 2]
        U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        R = U @ Vt  # the nearest true rotation
        return cls(calibration, K, R, t)

    def at_scale(self, scale: float) -> TableCamera:
        """The same camera for a copy of its frames resized by ``scale`` (0.5: half width and height)."""
        return TableCamera(self.calibration, self.K, self.R, self.t, scale)

    @property
    def centre_mm(self) -> np.ndarray:
        """The camera's position in the table frame (z negative: above the table)."""
        return -self.R.T @ self.t

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Pixels (as the camera delivers them) of 3D table points (N x 3, z = -height)."""
        # one product with K [R | t]: outlines are projected thousands of times a frame
        p = np.asarray(points_mm, np.float64).reshape(-1, 3) @ self._KR_T + self._Kt
        px = p[:, :2] / np.maximum(p[:, 2:3], 1.0)
        if self.calibration.intrinsics is not None:
            px = self.calibration.intrinsics.distort_points(px.reshape(-1, 1, 2)).reshape(-1, 2)
        return self._scaled(px)

    @cached_property
    def _KR_T(self) -> np.ndarray:
        return (self.K @ self.R).T

    @cached_property
    def _Kt(self) -> np.ndarray:
        return self.K @ self.t

    def _scaled(self, px: np.ndarray) -> np.ndarray:
        # pixel centres stay centres when the frame is resized: x' = (x + 0.5) * s - 0.5
        return px if self.scale == 1.0 else (px + 0.5) * self.scale - 0.5

    def image_points(self, points_mm: np.ndarray) -> np.ndarray:
        """Pixels of points on the table plane (N x 2)."""
        return self._scaled(self.calibration.to_image(points_mm))

    def to_table(self, points_px: np.ndarray) -> np.ndarray:
        """Table millimetres (on the plane) seen at pixels."""
        px = np.asarray(points_px, np.float64).reshape(-1, 2)
        if self.scale != 1.0:
            px = (px + 0.5) / self.scale - 0.5
        return self.calibration.to_table(px)

    def to_plane(self, points_px: np.ndarray, height_mm: float) -> np.ndarray:
        """Table (x, y) of the points seen at pixels that lie ``height_mm`` above the table (a die's top face)."""
        px = np.asarray(points_px, np.float64).reshape(-1, 2)
        if self.scale != 1.0:
            px = (px + 0.5) / self.scale - 0.5
        if self.calibration.intrinsics is not None:
            px = self.calibration.intrinsics.undistort_points(px.reshape(-1, 1, 2)).reshape(-1, 2)
        rays = np.column_stack([px, np.ones(len(px))]) @ np.linalg.inv(self.K).T @ self.R  # R^T K^-1 p, row-wise
        centre = self.centre_mm
        t = (-height_mm - centre[2]) / rays[:, 2]
        return (centre + t[:, None] * rays)[:, :2]

    def px_per_mm(self, at_mm: tuple[float, float]) -> float:
        """How many pixels a millimetre on the table spans near ``at_mm`` (geometric mean of both axes)."""
        x, y = at_mm
        p = self.image_points(np.array([[x, y], [x + 10, y], [x, y + 10]]))
        a, b = np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])
        return math.sqrt(max(a * b, 1e-9)) / 10


def _guess_intrinsics(H: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    cx, cy = (w - 1) / 2, (h - 1) / 2
    T = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
    G = T @ H
    h1, h2 = G[:, 0], G[:, 1]
    # with K = diag(f, f, 1) and u = 1 / f^2, r1 and r2 are orthogonal and of equal length when
    #   (h1x h2x + h1y h2y) u + h1z h2z = 0   and   (|h1xy|^2 - |h2xy|^2) u + h1z^2 - h2z^2 = 0.
    # Both are solved together by least squares: when the table's x axis lies parallel to the picture (a camera
    # square to the table's edge, h1z ~ 0) the first is 0 = 0 up to noise and must not count on its own (taken
    # alone, or as one of two guesses averaged, a change of 1e-8 in the homography moved the camera 15 cm)
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    u = -float(a @ b) / float(a @ a) if float(a @ a) > 0 else -1.0
    default = (w / 2) / math.tan(math.radians(DEFAULT_HFOV_DEG) / 2)
    f = 1 / math.sqrt(u) if u > 0 else default
    if not 0.3 * default < f < 3 * default:
        f = default
    return np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
