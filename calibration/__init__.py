"""Camera pixels to table millimetres: intrinsics, play-mat markers, the table homography and its
persistence. OpenCV and numpy only. Not built yet: see the open issues."""
