"""The synthetic table renderer: scenes with exact ground truth for training, tests and the demo.

A :class:`~vision.synth.scene.Scene` (JSON-ready data) is rendered by
:func:`~vision.synth.render.render` into a webcam-like frame with the truth of every object;
:func:`~vision.synth.random_scene.random_scene` draws scenes from a seed and
:mod:`~vision.synth.sequence` plays game positions as video frames. See docs/renderer.md.
"""
