"""The two card networks, in torch (training only; the runtime loads their ONNX exports).

Both take pixels as 0..255 BGR floats and normalise inside, so the runtime feeds images as they are.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from vision.cards.classes import CLASSES


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """A small CenterNet: per cell of a stride-4 grid, the chance that an index centre (channel 0)
    or a face-down card's centre (channel 1) is there, the box size (log of w/4, h/4) and, for an
    index, the vector to its card's centre (input pixels / 64) and its turn on the picture (cos, sin:
    0 for an upright card's index)."""

    def __init__(self) -> None:
        super().__init__()
        self.s2 = _block(3, 16, 2)
        self.s4 = nn.Sequential(_block(16, 24, 2), _block(24, 24))
        self.s8 = nn.Sequential(_block(24, 48, 2), _block(48, 48))
        self.s16 = nn.Sequential(_block(48, 64, 2), _block(64, 64), _block(64, 64))
        self.s32 = nn.Sequential(_block(64, 96, 2), _block(96, 96))
        self.up16 = _block(96 + 64, 64)
        self.up8 = _block(64 + 48, 48)
        self.up4 = _block(48 + 24, 32)
        self.heat = nn.Conv2d(32, 2, 1)
        self.size = nn.Conv2d(32, 2, 1)
        self.vector = nn.Conv2d(32, 2, 1)
        self.turn = nn.Conv2d(32, 2, 1)  # an index's turn on the picture, as (cos, sin)
        nn.init.constant_(self.heat.bias, -4.0)  # start by saying "nothing here", as CenterNet does

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        x = x / 255.0 - 0.5
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        u = self.up16(torch.cat([F.interpolate(f32, size=f16.shape[2:], mode="nearest"), f16], 1))
        u = self.up8(torch.cat([F.interpolate(u, size=f8.shape[2:], mode="nearest"), f8], 1))
        u = self.up4(torch.cat([F.interpolate(u, size=f4.shape[2:], mode="nearest"), f4], 1))
        return torch.sigmoid(self.heat(u)), self.size(u), self.vector(u), torch.tanh(self.turn(u))


class Classifier(nn.Module):
    """Names one corner index from its crop: one of :data:`CLASSES` (the last is 'none')."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 32, 2), _block(32, 48), _block(48, 64, 2), _block(64, 64), _block(64, 128, 2), _block(128, 128),
            _block(128, 96))
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(96, len(CLASSES))

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        return self.features(x).mean(dim=(2, 3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(self.embed(x)))
