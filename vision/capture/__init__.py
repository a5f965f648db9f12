"""Frames in: capture sources (:mod:`.sources`) and the newest-frame-only capture thread (:mod:`.thread`).

>>> from vision.capture import open_source, CaptureThread
>>> # with CaptureThread(open_source("0")) as capture:
>>> #     frame = capture.next_frame(timeout=1.0)   # the newest frame, or None
"""

from vision.capture.sources import (BadFrame, CaptureError, EndOfStream, FolderSource, FrameSource, NetworkSource,
                                    SourceLost, VideoFileSource, WebcamSource, open_demo, open_source)
from vision.capture.thread import (RETRYING, RUNNING, STARTING, STOPPED, Backoff, CaptureState, CaptureThread,
                                   Frame)

__all__ = ["BadFrame", "CaptureError", "EndOfStream", "FolderSource", "FrameSource", "NetworkSource", "SourceLost",
           "VideoFileSource", "WebcamSource", "open_demo", "open_source", "RETRYING", "RUNNING", "STARTING",
           "STOPPED", "Backoff", "CaptureState", "CaptureThread", "Frame"]
