"""What the card models learn from the real dev photographs (models.cards.real): which half, and
that the labels stay on their indices through every cut and quarter turn."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.cards import real
from vision.cards.classes import INDEX, NONE


@pytest.fixture(scope="module")
def halves(shared):
    folder = shared / "data" / "cards_real" / "dev"
    return folder, real.teaching(folder), real.measuring(folder)


def _no_classifier(crops: np.ndarray) -> np.ndarray:
    raise AssertionError("a card whose two corners are labelled needs no classifier to be placed")


def test_the_photographs_that_teach_are_never_measured_on(halves):
    folder, teaching, measuring = halves
    taught, measured = {r["image"] for r in teaching}, {r["image"] for r in measuring}
    assert not taught & measured
    assert taught | measured == {r["image"] for r in real.records(folder)}
    for prefix, count in (("images/tabletop", 19), ("images/single", 88)):
        a = sorted(i for i in taught if i.startswith(prefix))
        b = sorted(i for i in measured if i.startswith(prefix))
        assert len(a) == count and a[-1] < b[0]  # the earlier photographs teach (their names are timestamps)


def test_a_card_with_both_corners_labelled_is_centred_between_them(halves):
    folder, teaching, _ = halves
    record = next(r for r in teaching if r["image"].startswith("images/single") and len(r["corners"]) == 2
                  and r["corners"][0]["id"] == r["corners"][1]["id"])
    image = cv2.imread(str(folder / record["image"]))
    (a, centre_a), (b, centre_b) = real.card_centres(record, image, _no_classifier)
    middle = np.mean([[(c["box"][0] + c["box"][2]) / 2, (c["box"][1] + c["box"][3]) / 2] for c in (a, b)], axis=0)
    assert np.allclose(centre_a, middle) and np.allclose(centre_b, middle)


def test_quarter_turned_detector_pictures_keep_each_label_on_its_index(halves):
    folder, teaching, _ = halves
    record = next(r for r in teaching if r["image"].startswith("images/single") and len(r["corners"]) == 2
                  and r["corners"][0]["id"] == r["corners"][1]["id"])
    samples = real.detector_samples([record], _no_classifier, folder)
    assert len(samples) == 8  # a phone photo: two sizes, four quarter turns each
    upright = cv2.imdecode(np.frombuffer(samples[0].jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    for quarter, sample in enumerate(samples[:4]):
        picture = cv2.imdecode(np.frombuffer(sample.jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).astype(np.float32)
        assert not sample.teaches_backs and len(sample.indices) == 2
        for index, first in zip(sample.indices, samples[0].indices):
            x0, y0, x1, y1 = (round(v) for v in index.box)
            u0, v0, u1, v1 = (round(v) for v in first.box)
            here = picture[y0:y1, x0:x1]
            there = np.rot90(upright[v0:v1, u0:u1], -quarter)  # the same index, turned as the picture was
            h, w = min(here.shape[0], there.shape[0]), min(here.shape[1], there.shape[1])
            assert np.abs(here[:h, :w] - there[:h, :w]).mean() < 12, (quarter, index.label)
            # the card's centre turned with it: the way from the index to it is turned by as many quarters
            way, upright_way = (np.subtract(i.centre_of_card, [(i.box[0] + i.box[2]) / 2, (i.box[1] + i.box[3]) / 2])
                                for i in (index, first))
            for _ in range(quarter):  # a clockwise quarter turn on a picture whose y runs down
                upright_way = np.array([-upright_way[1], upright_way[0]])
            assert np.allclose(way, upright_way, atol=1.0), (quarter, index.label, way, upright_way)


def test_classifier_crops_name_the_labelled_corners_and_what_is_no_index(halves):
    folder, teaching, _ = halves
    record = next(r for r in teaching if r["image"].startswith("images/single") and len(r["corners"]) == 2
                  and r["corners"][0]["id"] == r["corners"][1]["id"])
    crops, labels = real.classifier_crops([record], _no_classifier, folder, per_corner=3)
    assert crops.shape[1:] == (48, 48, 3)
    assert sorted(labels[labels != INDEX[NONE]].tolist()) == [INDEX[record["corners"][0]["id"]]] * 6
    assert (labels == INDEX[NONE]).sum() >= 6
