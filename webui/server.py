"""Run the dashboard with Flask's built-in (Werkzeug) server, for one table on one machine."""

from __future__ import annotations

import errno
import os
import secrets
import socket
import threading
import webbrowser

from werkzeug.serving import get_sockaddr, make_server, select_address_family

from webui import create_app
from webui.security import is_loopback

MIN_TOKEN_CHARS = 16  # a shorter token could be guessed by anyone on the network


class ServerError(Exception):
    """The server cannot start: the message is one line saying why and what to do."""


def access_token(host: str, given: str | None = None) -> str | None:
    """The token the server will require: ``given`` (``--token``), else ``$TABLESIDE_TOKEN``, else a
    fresh one when ``host`` can be reached from other machines; None (no token) for loopback only."""
    token = given if given is not None else os.environ.get("TABLESIDE_TOKEN") or None
    if token is not None:
        token = token.strip()
        if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
            raise ServerError(f"an access token is at least {MIN_TOKEN_CHARS} characters without spaces; "
                              "leave --token out to have one made")
        return token
    return None if is_loopback(host) else secrets.token_urlsafe(18)


def serve(host: str = "127.0.0.1", port: int = 5000, open_browser: bool = False,
          instance_path: str | None = None, token: str | None = None, demo: str | None = None,
          simulated_vision: bool = False, every: int | None = None) -> None:
    """Serve until Ctrl+C. Raises :class:`ServerError` when the port cannot be opened. Beyond this
    machine an access token is always required (``token``, ``$TABLESIDE_TOKEN`` or a fresh one).
    With ``demo`` (a game's name), the demo table plays that game into a new live game, at its own
    pace (frames the machine cannot read in time are skipped) or, with ``every``, reading every
    ``every``-th frame however long that takes."""
    token = access_token(host, token)
    app = create_app({"ACCESS_TOKEN": token}, instance_path=instance_path)
    page = "/"
    # We bind the socket ourselves: Werkzeug would print its own multi-line advice and exit.
    try:
        listener = _listen(host, port)
    except OSError as error:
        raise ServerError(_bind_failure(host, port, error)) from None
    with listener:
        server = make_server(host, port, app, threaded=True, fd=listener.fileno())
    if demo is not None:
        from webui.demo import start_demo

        runner = start_demo(app, demo, paced=every is None, every=every or 1, simulated=simulated_vision)
        page = f"/play/{runner.live.id}"
        read = ("frames the machine cannot read in time are skipped" if every is None else
                "every frame is read, however long that takes" if every == 1 else
                f"one frame in {every} is read, however long that takes")
        description = runner.source.description
        print(f"{description[0].upper()}{description[1:]}: {read}", flush=True)
    url = _browser_url(host, server.port).rstrip("/") + page + (f"?token={token}" if token else "")
    print(f"Tableside is running at {url} (press Ctrl+C to stop)", flush=True)
    if token and not is_loopback(host):
        print(f"From another device, use this machine's address with ?token={token} "
              "(the token is needed for every page and command)", flush=True)
    if open_browser:
        # A browser may be slow to launch; the server must not wait for it.
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever()  # Werkzeug's version returns quietly on Ctrl+C and closes the socket
    finally:
        app.extensions["tableside.games"].close()  # camera runners stop first, then the logs close


def _listen(host: str, port: int) -> socket.socket:
    family = select_address_family(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Werkzeug does: quick restarts
        sock.bind(get_sockaddr(host, port, family))
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


def _bind_failure(host: str, port: int, error: OSError) -> str:
    if error.errno == errno.EADDRINUSE:
        return (f"port {port} on {host} is already in use (another Tableside?); "
                f"choose another with --port, e.g. --port {port + 1}")
    return f"cannot listen on {host}:{port}: {error.strerror or error}"


def _browser_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"  # listening everywhere: this machine's browser still uses loopback
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"
