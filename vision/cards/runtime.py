"""ONNX Runtime sessions as the card models run them: on the CPU, on a given number of threads."""

from __future__ import annotations

from pathlib import Path


def onnx_session(path: Path, threads: int):
    """An inference session for the model at ``path`` (ONNX Runtime's own exceptions when it cannot)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # ONNX Runtime's helper threads otherwise spin for a while after each of the many small runs,
    # holding a core that OpenCV and the rest of the frame's work want: on two cores the card
    # stage took a third less time without it (models/cards/README.md, "Session 7, speed")
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
