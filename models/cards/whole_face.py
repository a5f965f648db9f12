"""Rebuild ``whole_face.onnx``: the net that names a Decktet card from its whole face.

Run by ``make models`` after the corner-index models (:mod:`models.cards.recipe`), or alone with
``python -m models.cards.whole_face``. It makes the crops (:mod:`models.cards.whole_face_data`,
cached under ``build/cards/whole_face``), trains the net, exports it, and fits the softmax
temperature on crops of rendered tables it did not learn from (``whole_face.json``). About 20
minutes on 2 cores; ``TABLESIDE_QUICK=1`` makes a small smoke build.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from models.cards import whole_face_data as data
from models.cards.train import say
from vision.cards.classes import FACE_CLASSES, FACE_CROP, FACE_INDEX, NONE

HERE = Path(__file__).parent
BUILD = HERE.parents[1] / "build" / "cards" / "whole_face"
SCENE_SEEDS = range(1_000_000, 1_000_500)  # rendered tables the net learns from
CALIBRATION_SEEDS = range(1_100_000, 1_100_080)  # rendered tables that fit its temperature only
SINGLE_FACES = 12_000
EPOCHS = 12
CORNER_WEIGHT = 4.0  # the corner loss's weight beside the naming loss


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class WholeFaceNet(nn.Module):
    """A face crop (N x 3 x 64 x 48, BGR 0..255) to class logits over :data:`FACE_CLASSES` and the
    card's four corners in the crop (fractions of its width and height, the crop's corner order)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(_block(3, 24, 2), _block(24, 32, 2), _block(32, 48), _block(48, 96, 2),
                                      _block(96, 96), _block(96, 128, 2))  # 64 x 48 -> 4 x 3
        self.drop = nn.Dropout(0.2)
        self.names = nn.Linear(128, len(FACE_CLASSES))
        self.corners = nn.Linear(128 * 4 * 3, 8)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x / 255.0 - 0.5)
        return self.names(self.drop(f.mean(dim=(2, 3)))), self.corners(f.flatten(1))


def main() -> None:
    quick = os.environ.get("TABLESIDE_QUICK") == "1"
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    seeds = range(SCENE_SEEDS.start, SCENE_SEEDS.start + (40 if quick else len(SCENE_SEEDS)))
    crops, labels, targets = _cached("train-quick" if quick else "train", lambda: _made(seeds, 1_000 if quick else SINGLE_FACES, 17))
    say(f"whole-face crops: {len(crops)} ({int((labels != FACE_INDEX[NONE]).sum())} of cards)")
    net = train(crops, labels, targets, 1 if quick else EPOCHS)
    export(net, HERE / "whole_face.onnx")
    held = range(CALIBRATION_SEEDS.start, CALIBRATION_SEEDS.start + (10 if quick else len(CALIBRATION_SEEDS)))
    h_crops, h_labels, _ = _cached("calibration-quick" if quick else "calibration", lambda: _made(held, 0, 0))
    t, accuracy = fit_temperature(net, h_crops, h_labels)
    (HERE / "whole_face.json").write_text(json.dumps({"temperature": round(t, 4),
                                                      "held_out_crops": len(h_crops),
                                                      "held_out_accuracy": round(accuracy, 4)}, indent=2) + "\n")
    say(f"whole-face net: temperature {t:.3f}, held-out crops named right {accuracy:.3f}")


def _made(seeds: range, faces: int, face_seed: int):
    """The crops of ``seeds``' rendered tables and ``faces`` single faces, made on every core."""
    from multiprocessing import get_context

    with get_context("spawn").Pool(max(1, os.cpu_count() or 1)) as pool:
        parts = pool.map(data.scene_crops, seeds, chunksize=8)
        chunk = 1_000
        parts += pool.starmap(data.single_face_crops, [(min(chunk, faces - k), face_seed * 1_000 + k // chunk)
                                                       for k in range(0, faces, chunk)])
    parts = [p for p in parts if len(p[0])]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def _cached(name: str, make):
    path = BUILD / f"{name}.npz"
    if path.exists():
        with np.load(path) as d:
            return d["crops"], d["labels"], d["targets"]
    crops, labels, targets = make()
    BUILD.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, labels=labels, targets=targets)
    return crops, labels, targets


def train(crops: np.ndarray, labels: np.ndarray, targets: np.ndarray, epochs: int, batch: int = 128) -> WholeFaceNet:
    """Cross-entropy on the names, smooth L1 on the corners of cards; each crop is shown either way
    up (a half turn flips the crop and moves its corner targets two places round) and lit anew."""
    torch.manual_seed(0)
    net = WholeFaceNet()
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    steps = epochs * (len(crops) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=max(1, steps))
    x_all = torch.from_numpy(crops).permute(0, 3, 1, 2)
    y_all = torch.from_numpy(labels)
    t_all = torch.from_numpy(targets).reshape(-1, 8)
    rng = np.random.default_rng(0)
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(crops))
        right = seen = 0
        for k in range(len(crops) // batch):
            idx = torch.from_numpy(order[k * batch:(k + 1) * batch])
            x, y, t = x_all[idx].float(), y_all[idx], t_all[idx].clone()
            turn = torch.rand(len(idx)) < 0.5
            x[turn] = x[turn].flip(2, 3)
            corners = t[turn].reshape(-1, 4, 2)
            t[turn] = torch.roll(1.0 - corners, 2, dims=1).reshape(-1, 8)
            x = (x * (0.75 + 0.5 * torch.rand(len(idx), 1, 1, 1)) + 20 * torch.randn(len(idx), 3, 1, 1)).clamp(0, 255)
            logits, placed = net(x)
            card = y != FACE_INDEX[NONE]
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            if card.any():
                loss = loss + CORNER_WEIGHT * F.smooth_l1_loss(placed[card], t[card], beta=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            right += int((logits.argmax(1) == y).sum())
            seen += len(idx)
        say(f"  epoch {epoch + 1}/{epochs}: training crops named right {right / max(1, seen):.3f}")
    return net.eval()


def export(net: WholeFaceNet, path: Path) -> None:
    w, h = FACE_CROP
    torch.onnx.export(net.eval(), torch.zeros(1, 3, h, w), str(path), input_names=["crops"],
                      output_names=["logits", "corners"], dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"},
                                                                          "corners": {0: "n"}},
                      opset_version=17, dynamo=False)
    say(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")


def fit_temperature(net: WholeFaceNet, crops: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """The softmax temperature that makes held-out confidences honest, and the share named right."""
    with torch.no_grad():
        logits = torch.cat([net(torch.from_numpy(crops[i:i + 512]).permute(0, 3, 1, 2).float())[0]
                            for i in range(0, len(crops), 512)])
    y = torch.from_numpy(labels)
    grid = np.exp(np.linspace(np.log(0.3), np.log(4.0), 60))
    nll = [float(F.cross_entropy(logits / t, y)) for t in grid]
    return float(grid[int(np.argmin(nll))]), float((logits.argmax(1) == y).float().mean())


if __name__ == "__main__":
    main()
