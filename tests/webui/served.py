"""A real dashboard server for browser and streaming tests."""

import contextlib
import threading

from werkzeug.serving import make_server


@contextlib.contextmanager
def running(app):
    """Serve ``app`` on a free local port in a thread; yields its base URL."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
