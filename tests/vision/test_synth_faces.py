"""Card faces: every card of both decks is drawn, distinct, and face folders load or are refused clearly."""

import cv2
import numpy as np
import pytest
from synth_checks import unit_vector, warp_back

from referee import decktet
from referee.cards import JOKERS, standard_deck
from vision.synth import faces
from vision.synth.faces import FaceError, FaceFolder, card_id_of_file
from vision.synth.render import render
from vision.synth.scene import Camera, CardObject, Effects, Scene

ALL_IDS = list(standard_deck()) + list(decktet.extended_deck()) + list(JOKERS)


def test_every_card_has_its_own_face():
    drawn = {card_id: faces.face(card_id) for card_id in ALL_IDS}
    assert all(img.shape == (440, 315, 3) for img in drawn.values())
    signatures = {cv2.resize(img, (32, 44), interpolation=cv2.INTER_AREA).tobytes() for img in drawn.values()}
    assert len(signatures) == len(ALL_IDS)


def test_the_corner_index_turns_half_round_at_the_opposite_corner():
    img = faces.face("7D")
    x0, y0, x1, y1 = (round(v * faces.PX_PER_MM) for v in faces.INDEX_BOX_MM)
    top_left = img[y0:y1, x0:x1]
    bottom_right = img[img.shape[0] - y1:img.shape[0] - y0, img.shape[1] - x1:img.shape[1] - x0]
    assert np.array_equal(top_left, bottom_right[::-1, ::-1])
    assert (top_left < 128).any()  # there is ink in it


def test_backs_come_in_colours_and_unknown_ones_are_refused():
    assert not np.array_equal(faces.face("back", "blue"), faces.face("back", "red"))
    with pytest.raises(FaceError, match="unknown card back 'tartan'"):
        faces.face("back", "tartan")


@pytest.mark.parametrize("stem, card_id", [("queen_of_hearts", "QH"), ("10_of_clubs", "TC"), ("ace_of_spades", "AS"),
                                           ("heart_queen", "QH"), ("club_1", "AC"), ("spade_10", "TS"),
                                           ("mountain", "mountain"), ("KD", "KD"), ("back", "back"),
                                           ("black_joker", "joker-black"), ("LICENSE", None), ("card-base", None)])
def test_face_files_are_named_by_card(stem, card_id):
    assert card_id_of_file(stem) == card_id


def test_a_face_folder_supplies_its_faces_and_drawn_ones_fill_in(tmp_path):
    art = np.zeros((726, 500, 3), np.uint8)
    art[:, :, 1] = 200
    cv2.imwrite(str(tmp_path / "queen_of_hearts.png"), art)
    folder = FaceFolder(tmp_path)
    assert folder.face("QH").shape == (440, 315, 3) and (folder.face("QH")[..., 1] == 200).all()
    assert np.array_equal(folder.face("KS"), faces.face("KS"))


def test_bad_face_folders_are_refused_with_the_reason(tmp_path):
    with pytest.raises(FaceError, match="does not exist"):
        FaceFolder(tmp_path / "nowhere")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(FaceError, match="no face images named by card id"):
        FaceFolder(tmp_path)
    (tmp_path / "QH.png").write_bytes(b"not a png")
    with pytest.raises(FaceError, match="cannot read the face image"):
        FaceFolder(tmp_path).face("QH")


def test_the_public_art_sets_load(shared):
    for folder, some in ((shared / "data/card_art/byron_knoll", "QH"), (shared / "data/card_art/htdebeer", "7C"),
                         (shared / "data/decktet/art/tenza-magnate", "mountain")):
        faces_ = FaceFolder(folder)
        assert some in faces_.paths and faces_.face(some).shape == (440, 315, 3)
    assert len(FaceFolder(shared / "data/card_art/byron_knoll").paths) == 54
    assert len(FaceFolder(shared / "data/decktet/art/tenza-magnate").paths) == 46


def test_a_scene_renders_with_faces_from_a_folder(shared):
    folder = shared / "data/card_art/byron_knoll"
    scene = Scene(camera=Camera((0, 0), 400, 25, size=(1280, 720)), cards=[CardObject("QH", 0, 0, 15)],
                  effects=Effects(noise=2), faces=str(folder))
    result = render(scene)
    seen = unit_vector(warp_back(result.image, result.objects[0].polygon))
    art = FaceFolder(folder).face("QH")

    def grey(face):
        return unit_vector(cv2.cvtColor(cv2.resize(face, (189, 264), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY))

    assert float(seen @ grey(art)) > 0.85 and float(seen @ grey(art)) > float(seen @ grey(faces.face("QH"))) + 0.2
