"""Stabilisation: read a move only when the table has settled, and trust no single frame's reading.

People reach over the table all game long. A snapshot taken while a hand moves a card shows half a
move, a card under a finger, a blurred pile; so the referee only looks at the table when it has
been **still and free of hands** for ``settle_s`` seconds (0.4 s by default: long enough to outlast
the pause of a hand that hesitates mid-move, short enough that a verdict follows the move within a
second). :class:`Stabiliser` is fed every frame (``push``) and says when such a moment arrives,
once per settled period.

**Stillness** is measured on the pixels, cheaply: each frame is shrunk to ``work_width`` pixels
across (160: an 8x8 area average at 1280x720) and turned grey; the *motion* of a frame is the
fraction of those pixels whose grey level moved by more than ``pixel_change`` (12 of 255) since the
previous frame, or since the first frame of the still period (which catches a card slid too slowly
to show between two frames). Why these numbers: the area average divides a webcam's sensor noise
(a standard deviation of 2 to 4 grey levels at 720p) by eight, so 12 levels is far above noise and
MJPEG block artefacts, while a hand or card against the mat differs by 30 levels or more. The
table is still while the motion stays at or under ``still_fraction`` (0.2 %, about 29 of the
14,400 small pixels, a patch of some 40x40 full-size pixels: the corner of a card), which ignores
a flickering pixel or two and never a hand (several hundred small pixels).

**Hands** show as motion while they move. A hand held perfectly still over the table does not,
so a snapshot's ``occluded`` flag (set by recognition when it sees a hand or an arm) also keeps
the table unsettled. A gap of more than ``max_gap_s`` without frames restarts the wait: the
table was not watched then.

**Identity smoothing.** Recognition can misread a card in one frame out of twenty. Every
snapshot pushed during the settling period votes: sightings are matched across snapshots by
position on the table (within ``match_mm``; a card by its name read on its outline first, as a card laid out
from one index wavers by more), an object must be seen in most of them to count, and
its identity is the label with the highest mean probability over the snapshots that saw it (the
sighting's own label with its confidence, plus its alternatives). The smoothed
:class:`~referee.snapshot.TableSnapshot` carries that mean probability as the confidence and the
runners-up as alternatives, so one flickering frame lowers a confidence a little and never becomes
a move. While the table stays still, voting goes on over the last ``settle_s``; a reading that
clearly differs from the one given (a card that really changed, say, a face recognition only now reads
right) and keeps differing for ``settle_s`` is given as a new stable moment. *Clearly*
(:meth:`IdentityVote.agrees`): a still table cannot change, so the reading given stands while each of its
objects is still read under its name where it lies in a third of the window's snapshots (a card anywhere on
its outline: a half-covered card is laid out from one index or the other, tens of millimetres apart), and
only an object seen in at least two thirds of them (two of the three snapshots a 0.4 s window holds at five
frames a second) that lies on nothing given under its name is news. Camera noise makes recognition find
some things in about half of the frames; without this margin every turn of the window made a new reading,
the second look never came and the table was recognised on every frame for as long as it stayed still. A
vote needs at least ``min_votes`` snapshots (2): on a slow machine that reads one frame in ``settle_s``, the window
reaches further back in the still period rather than trust a single frame. (Not more: a machine
reading under three frames a second then still reads the demo table, which stays still for a second
between moves; an object missed in one of two frames is kept by the rule below.)

**A second look.** Asked to (:meth:`Stabiliser.look_again`, as the live pipeline does after each
reading it hands over), the stabiliser gives the same reading once more when the table has stayed
still ``settle_s`` longer and the snapshots since then still agree (each given object read under its name
where it lies in more than half of them): the referee's second look, which alone may flag a violation.
Where the later snapshots lay a card out from its other index, the first look's places are given again, as
both looks saw them (when it asked for the same places, such a second look never came, and the Mongoose
trials read successive pool reveals as one). It votes on those later snapshots only (one is enough: at 2.5 frames a
second the second look must come before the next hand), so what the first look saw in a frame or two
of its own may go. What lasts (below) is left as the first look left it: a phantom the vote saw at both
looks of one still period, kept as lasting, was read in a Mongoose trial as a card revealed.

**Objects stay until their pixels change.** Recognition sometimes misses an object for a few
frames (a card beside a hand that just left, an index in glare). Had the vote simply dropped it,
the referee would read a card gone from the table: a move nobody made, which may well be legal
and be accepted. But a physical object cannot leave without changing the picture where it lay. So
an object given in the last two readings (not a phantom of one) that the vote now lacks (nothing
of its kind within ``match_mm``) is looked up on the pixels: where the frame at the last reading
and the frame now differ (the same ``pixel_change`` test as for stillness, once the two frames'
overall brightness is matched: light and exposure drift) on at most
``untouched_fraction`` (10 %) of its outline, and on at most half of its print (the pixels of its
outline's middle that stood out from that middle: a white card taken off a white mat changes little of
its outline but all its print), it is still there, and is kept with the sighting it had. This needs the
table's mapping to pixels (``push``'s ``where``; the live pipeline passes its calibration's): without it, or when the frame size changed, nothing is kept. An object seen in one
reading only is not kept: a phantom that a reading once showed must be able to go. Nor is one the new
reading shows moved a little (a new sighting of its kind lies on its old outline: a fan spread anew);
its name read far away is no such proof (a misreading elsewhere must not make a card vanish), but its
name read on its old outline is (the card read a little further along a fan, not a second one beside it).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from referee.pyramids import Pyramid
from referee.snapshot import (Alternative, CardSighting, DieSighting, PyramidSighting, TableSnapshot, TokenSighting,
                              is_card_id)

MOVING, OCCLUDED, SETTLING, STABLE = "moving", "occluded", "settling", "stable"
KINDS = ("cards", "pyramids", "dice", "tokens")
MAX_ALTERNATIVES = 3
TIME_SLACK_S = 1e-6  # frame times like 12/30 add up with rounding error: 0.4 s of frames must count as 0.4 s
PIECE_RADIUS_MM = 10.0  # the patch of table looked at for a piece left out of a reading: a die's or token's half width
# an object left out of a reading is gone, however little of its outline changed, when more than PRINT_GONE of its
# print changed: the pixels of the middle of its outline (INNER of it, about its centre: the rim blends with the table
# round it in the small frame) that differed from that middle's median by more than pixel_change, when there are at
# least PRINT_PX of them. A white 2S or 2D taken off the white mat changed 9-10 % of its outline and 0.86-1.0 of its
# print (Mongoose trial 10: kept in the pool beside its new place); on the tables of Mongoose trials 9, 10, 14 and 18
# (728 staying cards, 40 taken away, between settled tables) a staying card's print changed at most 0.27, and a card
# taken away's at least 0.62
INNER = 0.7
PRINT_GONE = 0.5
PRINT_PX = 3

# Table millimetres (N x 2) to the frame's pixels (N x 2): a calibration's ``to_image``.
Where = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class StableMoment:
    """The table has settled: here is how it looks, smoothed over the settling period."""

    t: float  # frame time when it was judged settled
    still_since: float  # frame time of the last change seen before the stillness
    frame: np.ndarray | None  # the newest frame (to keep beside the log), None when none was pushed
    snapshot: TableSnapshot | None  # the smoothed reading; None when no snapshot was pushed while still
    frames: int  # frames pushed while still
    votes: int  # snapshots that voted on the reading
    again: bool = False  # a second look at the reading given before (look_again), voted on the frames since


@dataclass(frozen=True)
class Stillness:
    """What the stabiliser thinks of the table now, for the dashboard."""

    status: str  # moving | occluded | settling | stable
    since: float  # when this still period began (or the last change was seen)
    motion: float  # fraction of changed pixels in the last frame, 0 when unknown
    reason: str = ""  # what last broke the stillness


@dataclass(eq=False)
class Stabiliser:
    settle_s: float = 0.4
    pixel_change: int = 12  # grey levels (0-255) a small pixel must move to count as changed
    still_fraction: float = 0.002  # changed fraction of small pixels at or under which the table is still
    work_width: int = 160  # width of the shrunk grey frame motion is measured on
    max_gap_s: float = 1.0  # longer without frames and the stillness must be seen again
    match_mm: float = 12.0  # sightings this close in two snapshots are the same object
    min_votes: int = 2  # snapshots a settled reading is voted on at least, however long that takes
    untouched_fraction: float = 0.1  # an object left out of a reading is kept if at most this much of it changed

    _last_t: float | None = None
    _previous: np.ndarray | None = None  # the last small grey frame
    _frame_shape: tuple[int, ...] | None = None  # the full size of the last frame
    _anchor: np.ndarray | None = None  # the small grey frame at the start of the still period
    _still_since: float = 0.0
    _frames: int = 0
    _vote: IdentityVote | None = None  # the snapshots of the last settle_s of this still period
    _given: TableSnapshot | None = None  # the reading last given in this still period
    _given_any: bool = False
    _last_reading: TableSnapshot | None = None  # the reading last given, in any still period
    _last_grey: np.ndarray | None = None  # the small grey frame it was given on
    _lasting: TableSnapshot | None = None  # the objects of the last two readings given: kept while untouched
    _differs_since: float | None = None
    _again_after: float | None = None  # a second look asked for at this frame time (look_again)
    _status: Stillness = Stillness(MOVING, 0.0, 0.0, "no frame yet")

    def __post_init__(self) -> None:
        if not self.settle_s >= 0 or not self.max_gap_s > 0 or not self.match_mm > 0:
            raise ValueError("settle_s must not be negative; max_gap_s and match_mm must be positive")
        if not 0 <= self.still_fraction < 1 or not 0 < self.pixel_change < 255 or self.work_width < 8:
            raise ValueError("still_fraction lies in [0, 1), pixel_change in (0, 255), work_width at least 8")
        if self.min_votes < 1 or not 0 <= self.untouched_fraction < 1:
            raise ValueError("min_votes must be at least 1; untouched_fraction lies in [0, 1)")
        self._vote = IdentityVote(self.match_mm)

    @property
    def status(self) -> Stillness:
        return self._status

    @property
    def settled(self) -> bool:
        """Whether the table is still, its reading for this still period given, and the snapshots
        since agree with it (none is under way to a new stable moment)."""
        return self._given_any and self._status.status == STABLE and self._differs_since is None \
            and self._again_after is None

    def push(self, frame_time: float, frame: np.ndarray | None,
             snapshot: TableSnapshot | None = None, where: Where | None = None) -> StableMoment | None:
        """Feed one frame (and the snapshot recognised on it, if any); a :class:`StableMoment` when the
        table has just settled, or its settled reading has just changed; otherwise None.

        ``frame`` may be None (snapshots only); a frame that is not an image, or of a new size, counts
        as a change (stillness cannot be confirmed on it) and the reason shows in :attr:`status`.
        ``where`` maps the snapshot's table millimetres to the frame's pixels; with it, an object the
        vote lost but whose pixels have not changed is kept (see the module docstring).
        """
        if snapshot is not None and not isinstance(snapshot, TableSnapshot):
            raise TypeError(f"push takes a TableSnapshot or None, got {type(snapshot).__name__}")
        t = float(frame_time)
        if not math.isfinite(t):
            raise ValueError(f"frame_time must be a finite number of seconds (time.monotonic()), got {frame_time!r}")
        change, motion = self._change(t, frame)
        self._last_t = t
        if change is None and snapshot is not None and snapshot.occluded:
            change = "a hand over the table"
        if change is not None:
            self._restart(t, OCCLUDED if change == "a hand over the table" else MOVING, change, motion)
            return None

        self._frames += 1
        if snapshot is not None:
            self._vote.add(t, snapshot)
        self._vote.expire(t - self.settle_s - TIME_SLACK_S, keep=self.min_votes)
        if t - self._still_since < self.settle_s - TIME_SLACK_S or 0 < len(self._vote) < self.min_votes:
            self._status = Stillness(SETTLING, self._still_since, motion)
            return None
        self._status = Stillness(STABLE, self._still_since, motion)
        if not self._given_any:
            return self._give(t, frame, self._reading(t, where))
        if not len(self._vote) or self._given is None:
            self._differs_since = None
            return None
        if self._again_after is not None and t - self._again_after >= self.settle_s - TIME_SLACK_S \
                and self._vote.since(self._again_after):
            # the second look votes on the frames since the first alone (however few: a slow camera must look
            # again before a hand comes), so what the first look saw in a frame or two may go
            self._vote.expire(self._again_after + TIME_SLACK_S, keep=1)
            reading = self._reading(t, where)
            if reading is not None and self._vote.agrees(self._given, self.match_mm, also=reading, confirm=True):
                # (where the second look reads a card a little elsewhere, laid out from its other index, it is
                # the first look's reading that both looks saw: a card 50 mm off may lie on another cell)
                same = _same_marks(_marks_of(reading), _marks_of(self._given), self.match_mm)
                return self._give(t, frame, reading if same else dataclasses.replace(self._given, t=t), again=True)
        if self._vote.agrees(self._given, self.match_mm):  # what the vote alone says first: cheap
            self._differs_since = None
            return None
        reading = self._reading(t, where)  # with the objects whose pixels show they cannot have gone
        if reading is None or self._vote.agrees(self._given, self.match_mm, also=reading):
            self._differs_since = None
            return None
        if self._differs_since is None:
            self._differs_since = t
        if t - self._differs_since >= self.settle_s - TIME_SLACK_S:
            return self._give(t, frame, reading)
        return None

    def look_again(self) -> None:
        """Give the reading just given once more, as a second look (``again``), when the table stays still
        ``settle_s`` longer and the snapshots since (one at least) agree with it. A reading that
        changes meanwhile is given as usual instead. The live pipeline asks after every first look: the
        referee flags no violation on one look alone (``TableSnapshot.glance``)."""
        if self._given_any and self._last_t is not None:
            self._again_after = self._last_t

    def _reading(self, t: float, where: Where | None) -> TableSnapshot | None:
        """The voted reading, with the lasting objects it lacks whose pixels have not changed."""
        return self._with_untouched(self._vote.snapshot(t), where) if len(self._vote) else None

    def _give(self, t: float, frame: np.ndarray | None, reading: TableSnapshot | None,
              again: bool = False) -> StableMoment:
        if reading is not None and not again:  # (a second look makes nothing last: a phantom of both looks would)
            before = self._last_reading
            self._lasting = _common(reading, before, self.match_mm) if before is not None else None
            self._last_reading, self._last_grey = reading, self._previous
        self._given = reading
        self._given_any, self._differs_since, self._again_after = True, None, None
        return StableMoment(t, self._still_since, frame, reading, self._frames, len(self._vote), again)

    def _with_untouched(self, reading: TableSnapshot, where: Where | None) -> TableSnapshot:
        """``reading`` with the lasting objects (given in the last two readings) that it lacks but whose
        pixels have not changed since the last reading (they cannot have left the table)."""
        before, grey_then, grey_now = self._lasting, self._last_grey, self._previous
        if before is None or where is None or grey_then is None or grey_now is None \
                or grey_then.shape != grey_now.shape or self._frame_shape is None:
            return reading
        changed = _changed_beyond_exposure(grey_then, grey_now, self.pixel_change)
        scale = grey_now.shape[1] / self._frame_shape[1]
        kept: dict[str, list] = {kind: list(getattr(reading, kind)) for kind in KINDS}
        for kind in KINDS:
            # sightings where the last reading had none: only these can be an old object moved
            last = getattr(self._last_reading, kind)
            fresh = [s for s in getattr(reading, kind) if not _near(s, last, self.match_mm)]
            for old in getattr(before, kind):
                if _near(old, kept[kind], self.match_mm) or _moved(kind, old, fresh) or \
                        _seen_again(kind, old, getattr(reading, kind)):
                    continue
                outline = _outline_px(kind, old, where) * scale
                share = _changed_share(changed, outline)
                if share is not None and share <= self.untouched_fraction and \
                        not _print_changed(changed, grey_then, outline, self.pixel_change):
                    kept[kind].append(old)
        if all(len(kept[kind]) == len(getattr(reading, kind)) for kind in KINDS):
            return reading
        return TableSnapshot(reading.t, occluded=False, **{kind: tuple(v) for kind, v in kept.items()})

    def _restart(self, t: float, status: str, reason: str, motion: float) -> None:
        self._still_since, self._frames = t, 0
        self._vote.clear()
        self._given, self._given_any, self._differs_since, self._again_after = None, False, None, None
        self._anchor = self._previous
        self._status = Stillness(status, t, motion, reason)

    def _change(self, t: float, frame: np.ndarray | None) -> tuple[str | None, float]:
        """Why this frame breaks the stillness (None: it does not), and its motion."""
        if self._last_t is not None and t < self._last_t:
            self._previous = None
            return f"frame time went backwards ({t:.3f} s after {self._last_t:.3f} s)", 0.0
        if self._last_t is None:
            gap_reason = "first frame"
        elif t - self._last_t > self.max_gap_s:
            gap_reason = f"no frame for {t - self._last_t:.1f} s"
        else:
            gap_reason = None
        if frame is None:
            return gap_reason, 0.0
        grey, problem = self._small_grey(frame)
        if grey is None:
            self._previous = None
            return problem, 0.0
        previous, self._previous = self._previous, grey
        shape, self._frame_shape = self._frame_shape, frame.shape[:2]
        if previous is None or shape != frame.shape[:2]:
            return gap_reason or ("first frame" if previous is None else "the frame size changed"), 0.0
        motion = self._motion(previous, grey)
        if gap_reason is not None:
            return gap_reason, motion
        if motion > self.still_fraction:
            return f"motion: {motion:.1%} of the picture changed", motion
        return None, motion

    def moving(self, frame: object) -> bool:
        """Whether ``frame`` shows motion against the last frame pushed or the first of the still
        period, so that pushing it will restart the wait and throw away what recognition read on it.
        Changes nothing: a pipeline asks before recognising a frame and skips the work (a hand
        reaching over the table is most of a game's frames)."""
        grey, _ = self._small_grey(frame)
        if grey is None or self._previous is None or self._previous.shape != grey.shape:
            return False
        return self._motion(self._previous, grey) > self.still_fraction

    def _motion(self, previous: np.ndarray, grey: np.ndarray) -> float:
        """The motion of ``grey`` since the previous frame or since the first of the still period."""
        motion = self._changed_fraction(previous, grey)
        if self._anchor is not None and self._anchor.shape == grey.shape:
            motion = max(motion, self._changed_fraction(self._anchor, grey))
        return motion

    def _small_grey(self, frame: object) -> tuple[np.ndarray | None, str]:
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.size == 0:
            kind = type(frame).__name__ if not isinstance(frame, np.ndarray) else f"{frame.dtype} array {frame.shape}"
            return None, f"not an 8-bit image ({kind})"
        if frame.ndim == 3 and frame.shape[2] == 1:
            frame = frame[:, :, 0]
        if not (frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (3, 4))):
            return None, f"not an image (shape {frame.shape})"
        height, width = frame.shape[:2]
        size = (min(self.work_width, width), max(1, round(height * min(self.work_width, width) / width)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)  # shrink first: colour conversion is then free
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY if small.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
        return small, ""

    def _changed_fraction(self, a: np.ndarray, b: np.ndarray) -> float:
        return float(np.count_nonzero(cv2.absdiff(a, b) > self.pixel_change)) / a.size


# -- identity smoothing --

Mark = tuple[str, object, tuple[float, float]]  # (kind, label, centre): what a reading says, for comparisons


class IdentityVote:
    """The sightings of the snapshots in a time window, followed across them by position and voted on.

    ``add`` matches each sighting to the nearest object already followed (same kind, within
    ``match_mm``), or starts following a new one; ``expire`` forgets snapshots older than a time.
    Work per snapshot grows with the objects on the table, not with the window, so voting on every
    frame of a 30-card table stays cheap.
    """

    def __init__(self, match_mm: float = 12.0) -> None:
        self.match_mm = match_mm
        self._times: deque[float] = deque()
        self._tracks: dict[str, list[_Track]] = {kind: [] for kind in KINDS}

    def __len__(self) -> int:
        return len(self._times)

    def since(self, t: float) -> int:
        """How many of the snapshots voting were taken after ``t``."""
        return sum(1 for taken in self._times if taken > t)

    def add(self, t: float, snapshot: TableSnapshot) -> None:
        self._times.append(t)
        for kind in KINDS:
            sightings = getattr(snapshot, kind)
            if not sightings:
                continue
            tracks = self._tracks[kind]
            centres = [track.centre for track in tracks]
            taken: set[int] = set()
            for sighting in sorted(sightings, key=lambda s: -s.confidence):
                x, y = sighting.center_mm
                best = _same_card(kind, sighting, tracks, centres, taken)
                best_distance = self.match_mm
                for i, (cx, cy) in enumerate(centres if best is None else ()):
                    distance = math.hypot(cx - x, cy - y)
                    if distance <= best_distance and i not in taken:
                        best, best_distance = i, distance
                if best is None:
                    tracks.append(_Track(kind))
                    centres.append((x, y))
                    best = len(tracks) - 1
                taken.add(best)
                tracks[best].add(t, sighting)

    def expire(self, oldest: float, keep: int = 0) -> None:
        """Forget the snapshots taken before ``oldest``, but never the newest ``keep``."""
        while len(self._times) > keep and self._times[0] < oldest:
            self._times.popleft()
        oldest = self._times[0] if self._times else oldest
        for kind, tracks in self._tracks.items():
            for track in tracks:
                track.expire(oldest)
            self._tracks[kind] = [track for track in tracks if track.readings]

    def clear(self) -> None:
        self._times.clear()
        self._tracks = {kind: [] for kind in KINDS}

    def _present(self) -> list[_Track]:
        """The objects seen in more than half of the snapshots (one seen once is a phantom)."""
        return [track for kind in KINDS for track in self._tracks[kind] if 2 * len(track.readings) > len(self._times)]

    def agrees(self, given: TableSnapshot, match_mm: float, also: TableSnapshot | None = None,
               confirm: bool = False) -> bool:
        """Whether the vote leaves the reading ``given`` standing: it contradicts it nowhere clearly. A
        still table cannot change, so what recognition finds in about half of the frames (an unknown card at
        an edge, a half-covered card laid out from one index or the other) must not make a new reading at
        every turn of the window. Each given object must be read under its name, by the tracks lying on it
        (:func:`_lies_on`), in at least a third of the snapshots (more than half to ``confirm`` it, for a
        second look), or be one of ``also`` (objects known to be there); and every object seen in at least
        two thirds of them must lie on a given object it is read as in at least a third of its sightings."""
        n = len(self._times)
        for kind in KINDS:
            tracks, known = self._tracks[kind], getattr(also, kind) if also is not None else ()
            for sighting in getattr(given, kind):
                label = _label(kind, sighting)
                seen = {t for track in tracks if _lies_on(kind, sighting, track, match_mm)
                        for t, _, own in track.readings if own == label}
                enough = 2 * len(seen) > n if confirm else 3 * len(seen) >= n
                if not enough and not _near(sighting, [k for k in known if _label(kind, k) == label], match_mm):
                    return False
            for track in tracks:
                if 3 * len(track.readings) >= 2 * n and not any(
                        _lies_on(kind, sighting, track, match_mm)
                        and 3 * track.count(_label(kind, sighting)) >= len(track.readings)
                        for sighting in getattr(given, kind)):
                    return False
        return True

    def snapshot(self, t: float) -> TableSnapshot:
        """The voted reading as a snapshot at time ``t`` (never occluded: it is read off a still table)."""
        smoothed: dict[str, list] = {kind: [] for kind in KINDS}
        for track in self._present():
            ranked = track.ranked()
            if not ranked:
                continue
            probability, label = ranked[0]
            alternatives = tuple(Alternative(other, min(1.0, p)) for p, other in ranked[1:]
                                 if other is not None and p > 0)[:MAX_ALTERNATIVES]
            smoothed[track.kind].append(_sighting(track, label, min(1.0, probability), alternatives))
        return TableSnapshot(t, occluded=False, **{kind: tuple(v) for kind, v in smoothed.items()})


class _Track:
    """One object followed across the snapshots of the window: its readings, oldest first."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.readings: deque[tuple[float, object, object]] = deque()  # (t, sighting, its label)
        self._sum_x = self._sum_y = 0.0

    @property
    def centre(self) -> tuple[float, float]:
        return self._sum_x / len(self.readings), self._sum_y / len(self.readings)

    def add(self, t: float, sighting) -> None:
        self.readings.append((t, sighting, _label(self.kind, sighting)))
        self._sum_x += sighting.center_mm[0]
        self._sum_y += sighting.center_mm[1]

    def expire(self, oldest: float) -> None:
        while self.readings and self.readings[0][0] < oldest:
            _, sighting, _ = self.readings.popleft()
            self._sum_x -= sighting.center_mm[0]
            self._sum_y -= sighting.center_mm[1]

    def count(self, label) -> int:
        """How many of the snapshots that saw this object read it as ``label``."""
        return sum(1 for _, _, own in self.readings if own == label)

    def ranked(self) -> list[tuple[float, object]]:
        """(mean probability, label), best first, over the snapshots that saw this object; valid labels only."""
        totals: dict[object, float] = {}
        for _, sighting, own in self.readings:
            totals[own] = totals.get(own, 0.0) + sighting.confidence
            for alternative in sighting.alternatives:
                if alternative.label != own:
                    totals[alternative.label] = totals.get(alternative.label, 0.0) + alternative.probability
        seen = len(self.readings)
        return sorted(((p / seen, label) for label, p in totals.items() if _valid(self.kind, label)),
                      key=lambda pair: (-pair[0], str(pair[1])))

    @property
    def sightings(self) -> list:
        return [sighting for _, sighting, _ in self.readings]


def smooth(snapshots: list[TableSnapshot], t: float, match_mm: float = 12.0) -> TableSnapshot:
    """One reading from several snapshots of a still table: objects matched by position, kept when seen in
    more than half of the snapshots, each labelled by probability voting (see the module docstring)."""
    vote = IdentityVote(match_mm)
    for snapshot in snapshots:
        vote.add(snapshot.t, snapshot)
    return vote.snapshot(t)


def same_reading(a: TableSnapshot, b: TableSnapshot, match_mm: float = 12.0) -> bool:
    """True when ``a`` and ``b`` show the same objects with the same identities at the same places."""
    return _same_marks(_marks_of(a), _marks_of(b), match_mm)


def _marks_of(snapshot: TableSnapshot) -> list[Mark]:
    return [(kind, _label(kind, s), s.center_mm) for kind in KINDS for s in getattr(snapshot, kind)]


def _same_marks(a: list[Mark], b: list[Mark], match_mm: float) -> bool:
    if len(a) != len(b):
        return False
    unmatched = list(b)
    for kind, label, centre in a:
        match = next((m for m in unmatched if m[0] == kind and m[1] == label
                      and _distance(m[2], centre) <= match_mm), None)
        if match is None:
            return False
        unmatched.remove(match)
    return True


def _common(a: TableSnapshot, b: TableSnapshot, match_mm: float) -> TableSnapshot:
    """The sightings of ``a`` with a sighting of the same kind within ``match_mm`` in ``b``."""
    common = {kind: tuple(s for s in getattr(a, kind) if _near(s, getattr(b, kind), match_mm)) for kind in KINDS}
    return TableSnapshot(a.t, occluded=False, **common)


def _near(sighting, others, match_mm: float) -> bool:
    """Whether one of ``others`` lies within ``match_mm`` of ``sighting`` (the same object, by place)."""
    return any(_distance(sighting.center_mm, o.center_mm) <= match_mm for o in others)


def _lies_on(kind: str, sighting, track: _Track, match_mm: float) -> bool:
    """Whether ``track`` follows the object ``sighting`` saw: it lies within ``match_mm`` of it, or, for a card,
    it was read under the card's name with its middle inside the card's outline (the same card laid out from
    its other index, or from a find of its face: a half-covered card's place wavers by tens of millimetres)."""
    if _distance(track.centre, sighting.center_mm) <= match_mm:
        return True
    return kind == "cards" and bool(track.count(sighting.card)) and _on_outline(sighting, track.centre)


def _same_card(kind: str, sighting, tracks: list[_Track], centres: list[tuple[float, float]],
               taken: set[int]) -> int | None:
    """The track (its number) that a card ``sighting`` continues by its name, if any: the nearest one not
    ``taken`` read under its name with its middle inside its outline. A fan's card laid out from its one
    index, at a turn some degrees off, lies tens of millimetres from where the last frame laid it (a
    Mongoose trial's 5H at 101, 119, 132, 103 mm along, the 9H beside it at 137): followed by place alone
    it made several objects, none seen in most snapshots, and the card was read gone."""
    if kind != "cards" or sighting.card is None:
        return None
    on = [i for i, track in enumerate(tracks) if i not in taken and track.count(sighting.card)
          and _on_outline(sighting, centres[i])]
    return min(on, key=lambda i: _distance(centres[i], sighting.center_mm), default=None)


def _moved(kind: str, old, now: tuple) -> bool:
    """Whether the new sightings ``now`` (none was there before) show ``old`` moved a little: one of its
    kind lies on it (a fan spread out anew, where the pixels of one card's old place may still look like
    a card; its neighbours in a fan, seen where they were, lie on it too and prove nothing). Its name
    seen far away proves nothing either: a misreading elsewhere must not make a card vanish."""
    if kind == "cards":
        return any(_on_outline(old, s.center_mm) for s in now)
    return any(_distance(s.center_mm, old.center_mm) <= PIECE_RADIUS_MM for s in now)


def _seen_again(kind: str, old, now: tuple) -> bool:
    """Whether a card of ``old``'s name lies on it in the new sightings ``now``: the same card, read a
    little further along (a fan's card placed from its one index, its turn read some degrees off,
    shifts by more than the match distance from frame to frame), not a second card beside it."""
    if kind != "cards" or old.card is None:
        return False
    return any(s.card == old.card and s.face_up == old.face_up and _on_outline(old, s.center_mm) for s in now)


def _on_outline(card, point: tuple[float, float]) -> bool:
    """Whether ``point`` (table mm) lies on card sighting ``card``'s outline, its edge included."""
    outline = np.asarray(card.corners_mm, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(outline, tuple(map(float, point)), False) >= 0


def _changed_beyond_exposure(then: np.ndarray, now: np.ndarray, pixel_change: int) -> np.ndarray:
    """The small pixels that changed from ``then`` to ``now`` by more than ``pixel_change`` grey levels once
    the picture's overall brightness is matched: the light and the camera's exposure drift between two
    still moments (a staying card 7 levels darker in a seeded Mongoose game), which can hide a white card
    taken off a cream mat (2 pips and its indices, 1 level of change) under the drift."""
    gain = float(np.median((then.astype(np.float32) + 1) / (now.astype(np.float32) + 1)))
    return np.abs(then.astype(np.float32) - now.astype(np.float32) * gain) > pixel_change


def _outline_px(kind: str, sighting, where: Where) -> np.ndarray:
    """The outline of a sighting in frame pixels: a card's corners; a patch round a piece's centre."""
    if kind == "cards":
        points = np.asarray(sighting.corners_mm, np.float64)
    else:
        turns = np.linspace(0, 2 * np.pi, 8, endpoint=False)
        points = np.asarray(sighting.center_mm) + PIECE_RADIUS_MM * np.column_stack([np.cos(turns), np.sin(turns)])
    return np.asarray(where(points), np.float64).reshape(-1, 2)


def _inside(shape: tuple[int, ...], outline: np.ndarray) -> np.ndarray | None:
    """The small pixels inside ``outline`` (a convex polygon in small pixels) over a frame of ``shape``; None when
    the outline is not all finite or covers none in view."""
    if not np.all(np.isfinite(outline)):
        return None
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
    return mask.astype(bool) if mask.any() else None


def _changed_share(changed: np.ndarray, outline: np.ndarray) -> float | None:
    """The share of the small pixels inside ``outline`` that changed; None when it covers none in view."""
    inside = _inside(changed.shape, outline)
    if inside is None:
        return None
    return float(np.count_nonzero(changed & inside)) / float(np.count_nonzero(inside))


def _print_changed(changed: np.ndarray, then: np.ndarray, outline: np.ndarray, pixel_change: int) -> bool:
    """Whether more than :data:`PRINT_GONE` of the print in the middle of ``outline`` (small pixels) changed: the
    pixels of its :data:`INNER` part that differed in ``then`` from that part's median by more than
    ``pixel_change``. A pale card taken off a pale table leaves most of its outline as it was, but not its print."""
    centre = outline.mean(axis=0)
    middle = _inside(changed.shape, centre + (outline - centre) * INNER)
    if middle is None:
        return False
    grey = then.astype(np.float32)
    printed = middle & (np.abs(grey - float(np.median(grey[middle]))) > pixel_change)
    return int(printed.sum()) >= PRINT_PX and float(changed[printed].mean()) > PRINT_GONE


def _sighting(track: _Track, label, confidence: float, alternatives: tuple[Alternative, ...]):
    """A sighting of ``label`` at the track's mean position, shaped like the newest sighting that agrees."""
    kind, centre = track.kind, track.centre
    agreeing = [s for s in track.sightings if _label(kind, s) == label] or track.sightings
    model = agreeing[-1]
    if kind == "cards":
        dx, dy = centre[0] - model.center_mm[0], centre[1] - model.center_mm[1]
        corners = tuple((x + dx, y + dy) for x, y in model.corners_mm)
        if label is None:
            face_up = 2 * sum(s.face_up for s in track.sightings) > len(track.sightings)
        else:
            face_up = label != "back"
        return CardSighting(label, face_up, centre, corners, model.angle_deg, confidence, alternatives)
    if kind == "pyramids":
        stack = tuple(Pyramid.parse(p) for p in label.split("+"))
        return PyramidSighting(stack, centre, confidence, model.pointing_deg, alternatives)
    if kind == "dice":
        return DieSighting(int(label), centre, confidence, alternatives)
    return TokenSighting(label, centre, confidence, alternatives)


def _label(kind: str, sighting) -> str | None:
    if kind == "cards":
        return sighting.card
    if kind == "pyramids":
        return "+".join(str(p) for p in sighting.stack)
    if kind == "dice":
        return str(sighting.face)
    return sighting.label


@functools.lru_cache(maxsize=4096)
def _valid(kind: str, label: str | None) -> bool:
    """Whether a voted label (possibly from an alternative, which is free text) can be a sighting of ``kind``."""
    if kind == "cards":
        return label is None or is_card_id(label)
    if label is None:
        return False
    if kind == "pyramids":
        try:
            return all(Pyramid.parse(p) for p in label.split("+"))
        except ValueError:
            return False
    if kind == "dice":
        return label in ("1", "2", "3", "4", "5", "6")
    return bool(label)


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


__all__ = ["Stabiliser", "StableMoment", "Stillness", "IdentityVote", "smooth", "same_reading",
           "MOVING", "OCCLUDED", "SETTLING", "STABLE"]
