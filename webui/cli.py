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

    demo = commands.add_parser("demo", help="open the dashboard on the built-in demo (no camera needed)",
                               description="Start the dashboard on this machine and print its address.")
    demo.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    demo.add_argument("--port", type=int, default=5000, help="port to listen on (default 5000)")
    demo.add_argument("--instance", metavar="DIR", help="instance folder for settings and data "
                      "(default: ./instance)")
    demo.set_defaults(run=_demo)
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


def _demo(args: argparse.Namespace) -> int:
    from webui import ConfigError
    from webui.server import ServerError, serve

    try:
        serve(host=args.host, port=args.port, instance_path=args.instance)
    except (ServerError, ConfigError) as exc:
        raise UserError(str(exc)) from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
