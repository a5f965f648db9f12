"""Training loops for the card detector and classifier, and their export to ONNX."""

from __future__ import annotations

import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F

from models.cards.data import HIDDEN, SEEN, Sample
from models.cards.nets import Classifier, Detector
from vision.cards.classes import CROP, STRIDE
from vision.cards.recognise import upright_deg

PATCH = 192  # the detector learns on square patches of the scaled scene; it runs on whole pictures


# -- detector -----------------------------------------------------------------------------------

def detector_example(s: Sample, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """One training patch: the picture scaled and cut at random, with its target grids."""
    image = cv2.imdecode(np.frombuffer(s.jpeg, np.uint8), cv2.IMREAD_COLOR)
    k = float(rng.uniform(0.6, 1.5))
    image = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    h, w = image.shape[:2]
    ox = int(rng.integers(0, max(1, w - PATCH + 1)))
    oy = int(rng.integers(0, max(1, h - PATCH + 1)))
    patch = np.full((PATCH, PATCH, 3), 128, np.uint8)
    part = image[oy:oy + PATCH, ox:ox + PATCH]
    patch[:part.shape[0], :part.shape[1]] = part
    flip = False  # a mirrored card is no card: it would teach the turn head wrong turns
    if flip:
        patch = patch[:, ::-1]
    patch = _colour_jitter(patch, rng)

    g = PATCH // STRIDE
    heat = np.zeros((2, g, g), np.float32)
    weight = np.ones((2, g, g), np.float32)
    size = np.zeros((2, g, g), np.float32)
    vector = np.zeros((2, g, g), np.float32)
    turn = np.zeros((2, g, g), np.float32)
    at = np.zeros((g, g), np.float32)  # where size and vector are taught

    def place(box, channel, centre_of_card=None, seen=1.0, label=None):
        x0, y0, x1, y1 = (v * k for v in box)
        x0, x1 = x0 - ox, x1 - ox
        y0, y1 = y0 - oy, y1 - oy
        if flip:
            x0, x1 = PATCH - x1, PATCH - x0
        cx, cy, bw, bh = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
        if not (0 <= cx < PATCH and 0 <= cy < PATCH):
            return
        ix, iy = min(g - 1, int(cx / STRIDE)), min(g - 1, int(cy / STRIDE))
        gx, gy = ix, iy  # the peak on a cell, as the decoder reads it (the size says where in the cell is noise)
        sigma = max(0.7, min(bw, bh) / STRIDE / (4 if channel == 0 else 6))
        ys, xs = np.mgrid[0:g, 0:g]
        blob = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma ** 2))
        if channel == 0 and (seen < SEEN or max(bw, bh) < 5):
            if seen >= HIDDEN or max(bw, bh) < 5:
                weight[0][blob > 0.05] = 0  # partly hidden or tiny: neither asked for nor punished
            return
        heat[channel] = np.maximum(heat[channel], blob)
        size[:, iy, ix] = (math.log(max(bw, 1) / STRIDE), math.log(max(bh, 1) / STRIDE))
        if centre_of_card is not None:
            ccx = centre_of_card[0] * k - ox
            ccx = PATCH - ccx if flip else ccx
            vector[:, iy, ix] = ((ccx - cx) / 64, (centre_of_card[1] * k - oy - cy) / 64)
            a = math.atan2(centre_of_card[1] * k - oy - cy, ccx - cx) - math.radians(upright_deg(label))
            turn[:, iy, ix] = (math.cos(a), math.sin(a))
        at[iy, ix] = 1 + channel  # 1: an index, 2: a face-down card

    for index in s.indices:
        place(index.box, 0, index.centre_of_card, index.seen, index.label)
    for box in s.backs:
        place(box, 1)
    if not s.teaches_backs:
        weight[1] = 0
    return patch, heat, weight, size, vector, turn, at


def _colour_jitter(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = image.astype(np.float32) * rng.uniform(0.75, 1.25, 3) + rng.uniform(-20, 20)
    if rng.random() < 0.12:  # some photos are grey-scale
        out[:] = out.mean(axis=2, keepdims=True)
    return np.clip(out, 0, 255).astype(np.uint8)


def detector_loss(pred, heat, weight, size, vector, turn, at) -> torch.Tensor:
    p_heat, p_size, p_vector, p_turn = pred
    p = p_heat.clamp(1e-4, 1 - 1e-4)
    positive = (heat > 0.99).float()
    pos = -((1 - p) ** 2) * torch.log(p) * positive
    neg = -((1 - heat) ** 4) * (p ** 2) * torch.log(1 - p) * (1 - positive) * weight
    focal = (pos.sum() + neg.sum()) / positive.sum().clamp(min=1)
    index_at = (at == 1).float().unsqueeze(1)
    any_at = (at > 0).float().unsqueeze(1)
    size_loss = (F.l1_loss(p_size, size, reduction="none") * any_at).sum() / any_at.sum().clamp(min=1)
    vector_loss = (F.l1_loss(p_vector, vector, reduction="none") * index_at).sum() / index_at.sum().clamp(min=1)
    turn_loss = (F.l1_loss(p_turn, turn, reduction="none") * index_at).sum() / index_at.sum().clamp(min=1)
    return focal + 0.5 * size_loss + 0.5 * vector_loss + turn_loss


def train_detector(samples: list[Sample], epochs: int, batch: int = 16, seed: int = 0, progress=print) -> Detector:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Detector()
    steps = epochs * math.ceil(len(samples) / batch)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    started, step = time.monotonic(), 0
    for epoch in range(epochs):
        order = rng.permutation(len(samples))
        net.train()
        total = 0.0
        for b in range(0, len(order), batch):
            examples = [detector_example(samples[i], rng) for i in order[b:b + batch]]
            x = torch.from_numpy(np.stack([e[0] for e in examples]).transpose(0, 3, 1, 2).astype(np.float32))
            targets = [torch.from_numpy(np.stack([e[j] for e in examples])) for j in range(1, 7)]
            loss = detector_loss(net(x), *targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(examples)
            step += 1
        progress(f"  detector epoch {epoch + 1}/{epochs}: loss {total / len(samples):.3f} "
                 f"({time.monotonic() - started:.0f} s)")
    return net.eval()


# -- classifier ---------------------------------------------------------------------------------

def train_classifier(crops: np.ndarray, labels: np.ndarray, epochs: int, batch: int = 128, seed: int = 0,
                     progress=print, net: Classifier | None = None, max_lr: float = 4e-3) -> Classifier:
    """Train a new classifier, or go on training ``net`` (fine-tuning: give a smaller ``max_lr``)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = net or Classifier()
    steps = epochs * math.ceil(len(crops) / batch)
    opt = torch.optim.AdamW(net.parameters(), lr=max_lr / 2, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps, pct_start=0.15)
    started = time.monotonic()
    for epoch in range(epochs):
        order = rng.permutation(len(crops))
        net.train()
        total, right = 0.0, 0
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            x = np.stack([classifier_augment(crops[i], rng) for i in idx]).transpose(0, 3, 1, 2).astype(np.float32)
            y = torch.from_numpy(labels[idx])
            logits = net(torch.from_numpy(x))
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == y).sum())
        progress(f"  classifier epoch {epoch + 1}/{epochs}: loss {total / len(crops):.3f}, "
                 f"train accuracy {right / len(crops):.3f} ({time.monotonic() - started:.0f} s)")
    return net.eval()


def classifier_augment(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A turn of up to 40 degrees either way (the detector's sense of a card's turn is rough; the
    runtime tries the four quarter turns of its crop, so each need only be within 45 degrees of
    upright), colour, blur and noise."""
    turn = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), float(rng.uniform(-40, 40)), 1.0)
    crop = cv2.warpAffine(crop, turn, (CROP, CROP), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.5:  # an index seen small (a webcam across the table): its few pixels, enlarged
        side = int(rng.integers(12, 34))
        crop = cv2.resize(cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA), (CROP, CROP),
                          interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.4, 1.2)))
    crop = _colour_jitter(crop, rng)
    if rng.random() < 0.3:
        crop = np.clip(crop + rng.normal(0, rng.uniform(2, 10), crop.shape), 0, 255).astype(np.uint8)
    return crop


# -- export -------------------------------------------------------------------------------------

class _ClassifierExport(torch.nn.Module):
    """What the runtime gets: class probabilities and the unit-length embedding (for learned decks)."""

    def __init__(self, net: Classifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x):
        e = self.net.embed(x)
        return torch.softmax(self.net.fc(e), dim=1), F.normalize(e, dim=1)


def export(net: Detector | Classifier, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(net, Classifier):
        model, names = _ClassifierExport(net).eval(), ["probabilities", "embedding"]
        dummy, axes = torch.zeros(1, 3, CROP, CROP), {"crops": {0: "n"}, "probabilities": {0: "n"}, "embedding": {0: "n"}}
        inputs = ["crops"]
    else:
        model, names = net, ["heat", "size", "vector", "turn"]
        dummy, axes = torch.zeros(1, 3, 256, 256), {"image": {0: "n", 2: "h", 3: "w"}}
        inputs = ["image"]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (dummy,), str(path), input_names=inputs, output_names=names, dynamic_axes=axes,
                          dynamo=False, opset_version=17)


def say(message: str) -> None:
    """A line of a recipe's progress, with the time."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)
