"""Run the dashboard with Flask's built-in (Werkzeug) server, for one table on one machine."""

from __future__ import annotations

import errno
import socket
import threading
import webbrowser

from werkzeug.serving import get_sockaddr, make_server, select_address_family

from webui import create_app


class ServerError(Exception):
    """The server cannot start: the message is one line saying why and what to do."""


def serve(host: str = "127.0.0.1", port: int = 5000, open_browser: bool = False,
          instance_path: str | None = None) -> None:
    """Serve until Ctrl+C. Raises :class:`ServerError` when the port cannot be opened."""
    app = create_app(instance_path=instance_path)
    # We bind the socket ourselves: Werkzeug would print its own multi-line advice and exit.
    try:
        listener = _listen(host, port)
    except OSError as error:
        raise ServerError(_bind_failure(host, port, error)) from None
    with listener:
        server = make_server(host, port, app, threaded=True, fd=listener.fileno())
    url = _browser_url(host, server.port)
    print(f"Tableside is running at {url} (press Ctrl+C to stop)", flush=True)
    if open_browser:
        # A browser may be slow to launch; the server must not wait for it.
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    server.serve_forever()  # Werkzeug's version returns quietly on Ctrl+C and closes the socket


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
