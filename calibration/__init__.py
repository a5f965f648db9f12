"""Camera pixels to table millimetres: play mats with ArUco markers, the table homography (from
markers or four clicked corners), tracking it while hands cover markers and cameras get bumped,
optional lens intrinsics from a ChArUco board, persistence, and rectified top-down views.
OpenCV and numpy only; imports nothing from vision or webui.

- :mod:`calibration.mats`: mat layouts per game and paper; :mod:`calibration.drawing` writes them.
- :mod:`calibration.markers`: ArUco detection with edge-fitted sub-pixel corners.
- :mod:`calibration.homography`: :class:`TableCalibration`, fitting from markers or corners.
- :mod:`calibration.tracker`: :class:`MatTracker`, frame by frame.
- :mod:`calibration.intrinsics`, :mod:`calibration.store`, :mod:`calibration.rectify`.
"""
