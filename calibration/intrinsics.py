"""Camera intrinsics: the lens model that undistorts pixels, from frames of a ChArUco board."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraIntrinsics:
    K: np.ndarray  # 3x3
    dist: np.ndarray  # k1, k2, p1, p2, k3
    image_size: tuple[int, int]
    rms_px: float = 0.0  # reprojection error of the calibration

    def undistort_points(self, pts: np.ndarray) -> np.ndarray:
        """Distorted pixels (N x 1 x 2) to undistorted pixels of the same camera matrix."""
        return cv2.undistortPoints(pts, self.K, self.dist, R=np.eye(3), P=self.K,
                                   criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9))

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Undistorted pixels (N x 1 x 2) to the pixels the camera delivers."""
        normalised = cv2.undistortPoints(pts, self.K, np.zeros(5))  # just K^-1
        xyz = np.concatenate([normalised.reshape(-1, 2), np.ones((len(normalised), 1))], axis=1)
        out, _ = cv2.projectPoints(xyz, np.zeros(3), np.zeros(3), self.K, self.dist)
        return out.reshape(-1, 1, 2)

    def to_json(self) -> dict:
        return {"K": self.K.tolist(), "dist": self.dist.ravel().tolist(), "image_size": list(self.image_size),
                "rms_px": self.rms_px}

    @classmethod
    def from_json(cls, data: dict) -> CameraIntrinsics:
        return cls(np.array(data["K"], np.float64), np.array(data["dist"], np.float64),
                   tuple(data["image_size"]), float(data.get("rms_px", 0.0)))


# -- ChArUco board: printing it and calibrating from photos of it --

BOARD_SQUARES = (7, 5)  # columns, rows: fits A4 landscape at 35 mm squares
BOARD_DICTIONARY = cv2.aruco.DICT_5X5_100  # not the mats' dictionary, so a board is never read as a mat


class IntrinsicsError(ValueError):
    """Frames that cannot calibrate the camera: says how many were usable and what to do."""


def charuco_board(square_mm: float = 35.0, marker_mm: float = 26.0) -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(BOARD_DICTIONARY)
    return cv2.aruco.CharucoBoard(BOARD_SQUARES, square_mm, marker_mm, dictionary)


def board_drawing(square_mm: float = 35.0, marker_mm: float = 26.0, paper_mm: tuple[float, float] = (297.0, 210.0)):
    """A printable drawing of the board, centred on the paper (vector: exact at 100 %)."""
    from calibration.drawing import Drawing

    board = charuco_board(square_mm, marker_mm)
    cols, rows = BOARD_SQUARES
    ox, oy = (paper_mm[0] - cols * square_mm) / 2, (paper_mm[1] - rows * square_mm) / 2
    if ox < 8 or oy < 8:
        raise IntrinsicsError(f"a {cols}x{rows} board of {square_mm} mm squares does not fit this paper")
    drawing = Drawing(*paper_mm)
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:  # OpenCV's boards start with a black square top-left
                drawing.rect(ox + c * square_mm, oy + r * square_mm, square_mm, square_mm)
    dictionary = board.getDictionary()
    side = dictionary.markerSize + 2
    for marker_id, corners in zip(board.getIds().ravel(), board.getObjPoints()):
        x0, y0 = corners[0][0], corners[0][1]
        bits = cv2.aruco.generateImageMarker(dictionary, int(marker_id), side, borderBits=1) > 127
        cell = marker_mm / side
        for i, j in zip(*np.nonzero(~bits)):
            drawing.rect(ox + x0 + j * cell, oy + y0 + i * cell, cell, cell)
    drawing.text(ox, oy + rows * square_mm + 6, 3.0, f"Tableside camera board: {cols}x{rows} squares of {square_mm} mm, "
                                                     f"markers {marker_mm} mm. Print at 100 % on a flat, stiff sheet.",
                 grey=0.3)
    return drawing


def calibrate_camera(frames: list[np.ndarray], square_mm: float = 35.0, marker_mm: float = 26.0,
                     min_frames: int = 5) -> CameraIntrinsics:
    """Intrinsics from photos of the board taken from varied angles (10-20 is typical)."""
    if not frames:
        raise IntrinsicsError("no frames given: photograph the printed board from 10-20 different angles")
    board = charuco_board(square_mm, marker_mm)
    detector = cv2.aruco.CharucoDetector(board)
    size = frames[0].shape[1], frames[0].shape[0]
    object_points, image_points = [], []
    for frame in frames:
        if (frame.shape[1], frame.shape[0]) != size:
            raise IntrinsicsError(f"frames differ in size ({frame.shape[1]}x{frame.shape[0]} vs {size[0]}x{size[1]}); "
                                  "take them all with the same camera setting")
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        corners, ids, _, _ = detector.detectBoard(grey)
        if ids is None or len(ids) < 6:
            continue
        obj, img = board.matchImagePoints(corners, ids)
        object_points.append(obj.astype(np.float32))
        image_points.append(img.astype(np.float32))
    if len(object_points) < min_frames:
        raise IntrinsicsError(f"the board was found in {len(object_points)} of {len(frames)} frames; at least "
                              f"{min_frames} are needed: show the whole board, in focus, from varied angles")
    rms, K, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    return CameraIntrinsics(K, dist.ravel()[:5], size, float(rms))
