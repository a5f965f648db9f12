"""The ``tableside`` command line.

Each subcommand imports what it needs when it runs, so ``tableside --help`` stays instant.
Errors the user can fix are printed as one line on stderr with exit status 2; nothing prints a
traceback for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from referee import __version__


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 0
    try:
        return args.run(args) or 0
    except UserError as exc:
        print(f"tableside: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


class UserError(Exception):
    """A problem the user can fix, shown as one line without a traceback."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableside",
        description="Tableside watches a real table through a webcam and referees the game played on it.",
    )
    parser.add_argument("--version", action="version", version=f"tableside {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    games = commands.add_parser("games", help="list every game, edition and option",
                                description="List every game Tableside knows: editions, players, options.")
    games.add_argument("--json", action="store_true", help="print JSON instead of text")
    games.set_defaults(run=_games)

    mat = commands.add_parser("mat", help="write a printable play mat with calibration markers",
                              description="Write a play mat: ArUco markers at known positions and the game's "
                                          "places. Print it at 100 % (actual size); the mat carries a 50 mm bar to check.")
    mat.add_argument("game", help="pouches, mongoose, deck-town, pungo, or plain")
    mat.add_argument("--paper", default="A4", choices=["A4", "A3", "letter"], help="paper size, landscape (default A4)")
    mat.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="a game option that changes the mat, e.g. arena=4x3 or roll-grid=3x4 for Pungo")
    mat.add_argument("-o", "--output", required=True, metavar="FILE", help="a .pdf, .svg or .png (300 dpi) file")
    mat.set_defaults(run=_mat)

    calibrate = commands.add_parser("calibrate", help="calibrate the camera lens or the table",
                                    description="Calibrate the camera's lens (optional) or the table homography.")
    calibrate.set_defaults(run=lambda _: calibrate.print_help())
    what = calibrate.add_subparsers(title="what", metavar="WHAT")
    board = what.add_parser("board", help="write the printable ChArUco board for lens calibration",
                            description="Write the ChArUco board to print for `tableside calibrate camera`.")
    board.add_argument("-o", "--output", required=True, metavar="FILE", help="a .pdf, .svg or .png file")
    board.set_defaults(run=_board)
    camera = what.add_parser("camera", help="compute the lens model from photos of the printed board",
                             description="Compute the camera's lens model from 10-20 photos of the printed "
                                         "board taken from varied angles; stores camera.json in the instance folder.")
    camera.add_argument("frames", nargs="+", help="image files of the board")
    camera.add_argument("--instance", default="instance", metavar="DIR", help="instance folder (default ./instance)")
    camera.set_defaults(run=_calibrate_camera)
    table = what.add_parser("table", help="calibrate the table from a photo of the game's mat",
                            description="Find the mat's markers in a photo from the camera in place, fit the "
                                        "table homography and store calibration.json in the instance folder.")
    table.add_argument("image", help="a photo from the camera, in its usual place")
    table.add_argument("--game", required=True, help="the game whose mat is on the table")
    table.add_argument("--paper", default="A4", choices=["A4", "A3", "letter"])
    table.add_argument("--instance", default="instance", metavar="DIR", help="instance folder (default ./instance)")
    table.set_defaults(run=_calibrate_table)

    render = commands.add_parser("render", help="render synthetic table scenes with exact ground truth",
                                 description="Render a scene file (JSON) into a webcam-like picture, or N random "
                                             "scenes into a folder, each with its ground truth.")
    render.add_argument("scene", nargs="?", help="a scene JSON file (leave out with --random or --playthrough)")
    render.add_argument("--random", type=int, metavar="N", help="render N random scenes instead")
    render.add_argument("--playthrough", metavar="FILE",
                        help="render a recorded playthrough as video frames instead: the game staged on its "
                             "mat, a hand making each move")
    render.add_argument("--seed", type=int, default=0,
                        help="first seed of the random scenes; for --playthrough, the table's seed (default 0)")
    render.add_argument("--fps", type=float, default=10.0, help="--playthrough: frames a second (default 10)")
    render.add_argument("--hold", type=float, default=1.0, metavar="S",
                        help="--playthrough: seconds each table is held still (default 1)")
    render.add_argument("--reach", type=float, default=1.5, metavar="S",
                        help="--playthrough: seconds a hand takes to make a move (default 1.5)")
    render.add_argument("--size", default="1280x720", metavar="WxH", help="--playthrough: picture size")
    render.add_argument("-o", "--output", required=True, metavar="PATH",
                        help="the picture (.png or .jpg) for a scene file; a folder for --random and --playthrough")
    render.add_argument("--truth", metavar="FILE", help="write the ground truth of a scene file as JSON here")
    render.add_argument("--masks", action="store_true", help="also write the instance image (16-bit PNG)")
    render.set_defaults(run=_render)

    serve = commands.add_parser("serve", help="run the dashboard: start games, referee them, look back at them",
                                description="Run the dashboard and print its address. It listens on this "
                                            "machine only unless --host says otherwise; then every page and "
                                            "command needs the access token printed with the address.")
    _server_arguments(serve)
    serve.set_defaults(run=_serve)
    demo = commands.add_parser("demo", help="open the dashboard on the built-in demo (no camera needed)",
                               description="Start the dashboard with the demo table playing a scripted game "
                                           "through the real pipeline (rendered frames, vision, referee), and "
                                           "print the address of its live page.")
    _server_arguments(demo)
    demo.add_argument("--game", default="pouches", type=lambda v: {"decktown": "deck-town"}.get(v, v),
                      choices=("pouches", "mongoose", "deck-town", "pungo"),
                      help="the game the demo table plays (default pouches; decktown is deck-town)")
    demo.add_argument("--simulated-vision", action="store_true",
                      help="give the referee what a perfect recogniser would see (the renderer's ground truth) "
                           "instead of running recognition: shows the referee and dashboard at work")
    pace = demo.add_mutually_exclusive_group()
    pace.add_argument("--every", type=_frame_step, metavar="N", default=DEMO_EVERY,
                      help=f"read every Nth frame of the demo table (1: every frame; default {DEMO_EVERY}), however "
                           "long that takes: the frames read never depend on the machine's speed")
    pace.add_argument("--paced", action="store_const", const=None, dest="every",
                      help="keep to the demo table's ten frames a second instead, skipping the frames the machine "
                           "cannot read in time, as with a real camera (a slow machine may then miss moves)")
    demo.set_defaults(run=_serve)

    from vision.cards import command as recognize_command

    recognize_command.add_parsers(commands, UserError)

    replay = commands.add_parser("replay", help="print a playthrough log: the game, every verdict, the outcome",
                                 description="Replay a playthrough log (.sqlite, or a .jsonl export): print the "
                                             "game, every event with its verdict in words, and the outcome.")
    replay.add_argument("log", metavar="LOG", help="a playthrough log (.sqlite) or its JSON Lines export (.jsonl)")
    replay.set_defaults(run=_replay)
    return parser


def _games(args: argparse.Namespace) -> int:
    from referee import games

    registry = games.registry()
    if args.json:
        print(json.dumps([_game_json(t, registry.is_refereed(t.name)) for t in registry.types()], indent=2))
        return 0
    for game_type in registry.types():
        status = "refereed" if registry.is_refereed(game_type.name) else "described, not refereed yet"
        players = (f"{game_type.min_players}" if game_type.min_players == game_type.max_players
                   else f"{game_type.min_players}-{game_type.max_players}")
        print(f"{game_type.name}: {game_type.title} ({players} players; {status})")
        print(f"  pieces: {game_type.pieces}")
        for edition in game_type.editions:
            print(f"  edition {edition.name}: {edition.title}, rules in {edition.source}")
            for option in game_type.options_for(edition.name):
                print(f"    {option.describe()}")
    return 0


def _game_json(game_type, refereed: bool) -> dict:
    return {
        "name": game_type.name, "title": game_type.title, "refereed": refereed,
        "players": [game_type.min_players, game_type.max_players], "pieces": game_type.pieces,
        "dynamics": game_type.dynamics.value, "information": game_type.information.value,
        "editions": [{"name": e.name, "title": e.title, "source": e.source,
                      "options": [{"name": o.name, "help": o.help, "default": o.default, "choices": list(o.choices)}
                                  for o in game_type.options_for(e.name)]}
                     for e in game_type.editions],
    }


def _mat(args: argparse.Namespace) -> int:
    from calibration.mats import MatError, mat_layout

    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            raise UserError(f"--option takes NAME=VALUE, got {item!r}")
        options[name] = value
    try:
        layout = mat_layout(args.game, args.paper, options)
        path = layout.drawing().save(args.output)
    except (MatError, ValueError) as exc:
        raise UserError(str(exc)) from None
    print(f"wrote the {layout.title} to {path}; print it at 100 % and check the 50 mm bar")
    return 0


def _board(args: argparse.Namespace) -> int:
    from calibration.intrinsics import board_drawing

    try:
        path = board_drawing().save(args.output)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    print(f"wrote the camera board to {path}; print it at 100 % and photograph it from 10-20 angles")
    return 0


def _calibrate_camera(args: argparse.Namespace) -> int:
    from calibration.intrinsics import IntrinsicsError, calibrate_camera
    from calibration.store import save_intrinsics

    frames = [_read_image(path) for path in args.frames]
    try:
        intrinsics = calibrate_camera(frames)
    except IntrinsicsError as exc:
        raise UserError(str(exc)) from None
    path = save_intrinsics(intrinsics, args.instance)
    print(f"lens calibrated from {len(frames)} frames: reprojection error {intrinsics.rms_px:.2f} px; saved {path}")
    return 0


def _calibrate_table(args: argparse.Namespace) -> int:
    from calibration.homography import CalibrationError
    from calibration.markers import detect_markers
    from calibration.mats import MatError, mat_layout
    from calibration.store import CalibrationFileError, load_intrinsics, save
    from calibration.tracker import MatTracker

    image = _read_image(args.image)
    try:
        layout = mat_layout(args.game, args.paper)
        intrinsics = load_intrinsics(args.instance)
    except (MatError, CalibrationFileError) as exc:
        raise UserError(str(exc)) from None
    tracker = MatTracker(layout, (image.shape[1], image.shape[0]), intrinsics)
    try:
        result = tracker.update(detect_markers(image))
    except CalibrationError as exc:
        raise UserError(str(exc)) from None
    if result.calibration is None:
        raise UserError(result.message)
    path = save(result.calibration, args.instance)
    print(f"table calibrated from markers {', '.join(map(str, result.markers_seen))}: fit error "
          f"{result.calibration.rms_px:.2f} px; saved {path}" + (f" ({result.message})" if result.message else ""))
    return 0


def _read_image(path: str):
    import cv2

    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"cannot read an image from {path}: is it a JPEG or PNG file?")
    return image


def _render(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.synth.faces import FaceError
    from vision.synth.files import load_scene, write_rendering
    from vision.synth.random_scene import random_scene
    from vision.synth.render import render
    from vision.synth.scene import SceneError

    if sum(x is not None for x in (args.scene, args.random, args.playthrough)) != 1:
        raise UserError("render takes a scene file or --random N or --playthrough FILE: exactly one of them")
    if args.playthrough is not None:
        return _render_playthrough(args)
    try:
        if args.scene is not None:
            out = Path(args.output)
            masks = out.with_name(out.stem + "-masks.png") if args.masks else None
            write_rendering(render(load_scene(args.scene), masks=args.masks), out, args.truth, masks)
            print(f"wrote {out}" + (f" and its truth {args.truth}" if args.truth else ""))
            return 0
        if args.random < 1:
            raise UserError("--random takes a number of scenes, 1 or more")
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(args.random):
            seed = args.seed + i
            scene = random_scene(seed)
            (folder / f"scene-{seed:06d}.json").write_text(scene.to_json())
            stem = folder / f"render-{seed:06d}"
            masks = stem.with_name(stem.name + "-masks.png") if args.masks else None
            write_rendering(render(scene, masks=args.masks), stem.with_suffix(".jpg"), stem.with_suffix(".truth.json"),
                            masks)
            print(f"\rrendered {i + 1}/{args.random}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        print(f"wrote {args.random} scenes, pictures and truths to {folder}")
    except (SceneError, FaceError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write to {args.output}: {exc.strerror or exc}") from None
    return 0


def _render_playthrough(args: argparse.Namespace) -> int:
    from referee.playthrough import PlaythroughError
    from vision.synth.scene import SceneError
    from vision.synth.script import write_frames

    try:
        size = tuple(int(v) for v in args.size.lower().split("x"))
        if len(size) != 2:
            raise ValueError
    except ValueError:
        raise UserError(f"--size is width x height in pixels, like 1280x720; got {args.size!r}") from None
    if not args.fps > 0 or args.hold < 0 or args.reach < 0:
        raise UserError("--fps must be positive, --hold and --reach not negative")

    def progress(done: int, total: int) -> None:
        bar = "#" * (30 * done // total)
        print(f"\r[{bar:<30}] frame {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        total = write_frames(args.playthrough, args.output, seed=args.seed, size=size, fps=args.fps,
                             hold_s=args.hold, reach_s=args.reach, progress=progress)
    except FileNotFoundError:
        raise UserError(f"no such playthrough file: {args.playthrough}") from None
    except PlaythroughError as exc:
        raise UserError(str(exc)) from None  # it names the file and line
    except (SceneError, ValueError) as exc:
        raise UserError(f"{args.playthrough}: {exc}") from None
    except OSError as exc:
        raise UserError(f"cannot write to {args.output}: {exc.strerror or exc}") from None
    print(file=sys.stderr)
    print(f"wrote {total} frames ({total / args.fps:.1f} s at {args.fps:g} fps) and their truth to {args.output}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from referee.log import LogError, PlaythroughLog, describe, read_jsonl, replay

    problem = None
    try:
        if args.log.endswith(".jsonl"):
            events = read_jsonl(args.log)
        else:
            with PlaythroughLog.open(args.log, readonly=True) as log:
                events = log.events()
    except LogError as exc:
        events, problem = exc.kept, exc
    if not events:
        raise UserError(str(problem))
    try:
        replayed = replay(events, partial=True)
    except LogError as exc:
        raise UserError(str(exc)) from None
    problem = problem or replayed.problem
    game = replayed.game
    print(f"{game.type.title} {game.edition}; players {', '.join(game.players)}; options "
          f"{', '.join(f'{k}={v}' for k, v in game.option_values) or 'none'}")
    for event in replayed.events:
        when = f" t={event.snapshot_t:.2f}s" if event.snapshot_t is not None else ""
        frame = f" [frame {event.frame}]" if event.frame else ""
        print(f"{event.seq:5d}{when} {describe(event)}{frame}")
    outcome = replayed.state.outcome()
    if outcome is None:
        print(f"not finished: {len(replayed.history)} moves; {replayed.state.to_move} to move")
    else:
        print(f"outcome: {', '.join(outcome.winners) or 'a draw'} - {outcome.text} [{outcome.rule}]")
    if problem is not None:
        raise UserError(f"the log stops being readable here: {problem}")
    return 0


def _server_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("--host", default="127.0.0.1",
                         help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network, "
                              "with an access token)")
    command.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    command.add_argument("--open", action="store_true", help="open the dashboard in this machine's browser")
    command.add_argument("--token", help="the access token to require (default: $TABLESIDE_TOKEN, or a fresh one "
                                         "when --host reaches beyond this machine)")
    command.add_argument("--instance", metavar="DIR", help="instance folder for settings and data "
                         "(default: ./instance)")


def _frame_step(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of frames, 1 or more, got {text!r}")
    return int(text)


# The demo reads one frame in two, however long that takes: a 2-core machine reading every frame it can
# at the table's own pace keeps up with Pouches and Pungo but misses moves of Mongoose's fans (one paced
# run read 452 of 960 frames and stalled at 25 moves), which one frame in two follows to the end.
DEMO_EVERY = 2


def _serve(args: argparse.Namespace) -> int:
    from webui import ConfigError
    from webui.server import ServerError, serve

    try:
        serve(host=args.host, port=args.port, open_browser=args.open, instance_path=args.instance, token=args.token,
              demo=getattr(args, "game", None), simulated_vision=getattr(args, "simulated_vision", False),
              every=getattr(args, "every", None))
    except (ServerError, ConfigError) as exc:
        raise UserError(str(exc)) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
