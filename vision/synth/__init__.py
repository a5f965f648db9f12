"""The synthetic table renderer: scenes with exact ground truth for training, tests and the demo.

So far: a pinhole camera with lens distortion (:mod:`vision.synth.camera`) that renders flat
things on the table (mats, boards) exactly as a real camera would see them.
"""
