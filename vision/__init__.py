"""Pixels to :class:`referee.TableSnapshot`: capture, rectification, recognition, stabilisation and
the synthetic table renderer (``vision.synth``). Imports ``referee`` and ``calibration``, never
``webui``. Not built yet: see the open issues."""
