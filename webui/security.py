"""Who may use the dashboard, checked before every request.

Three rules, in order (``docs/api.md`` has them for API users):

* **The access token.** When ``ACCESS_TOKEN`` is set (``tableside serve`` sets it whenever it
  listens beyond this machine), every request but the stylesheet needs it: an
  ``Authorization: Bearer <token>`` header, or the ``tableside_token`` cookie that visiting any page
  with ``?token=<token>`` sets (the address ``tableside serve`` prints). Missing: 401; wrong: 403.
* **Loopback names only without a token.** A tokenless server answers only requests addressed to
  ``127.0.0.1``, ``localhost`` or ``[::1]``, so a web page cannot reach it by pointing its own
  domain name at 127.0.0.1 (DNS rebinding).
* **Same origin for commands.** A POST whose ``Origin`` (or, without one, ``Referer``) names another
  site is refused (403). Browsers send ``Origin`` with every POST, so a page elsewhere cannot make
  a player's browser send commands; a script sends neither header and is let through (it must
  still hold the token). The cookie is ``SameSite=Strict`` as well, and JSON commands need
  ``Content-Type: application/json``, which no cross-site form can send.

Responses also forbid framing (a hidden frame over the overrule button) and content sniffing.
"""

from __future__ import annotations

import hmac
import ipaddress
from urllib.parse import urlencode, urlsplit

from flask import Flask, current_app, jsonify, redirect, render_template, request

TOKEN_COOKIE = "tableside_token"
LOOPBACK_NAMES = {"localhost"}
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
CONTENT_POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                  "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'")


def install(app: Flask) -> None:
    app.before_request(_check)
    app.after_request(_headers)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, without port) can only be reached from this machine."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _check():
    if request.endpoint == "static":
        return None  # the stylesheet and scripts hold nothing private
    token = current_app.config.get("ACCESS_TOKEN")
    bearer = _bearer()
    if token:
        given = request.args.get("token")
        if given is not None:
            return _token_from_link(token, given)
        if bearer is not None:
            if not hmac.compare_digest(bearer.encode(), token.encode()):
                return _refuse(403, "the access token in the Authorization header is wrong")
        else:
            cookie = request.cookies.get(TOKEN_COOKIE)
            if cookie is None:
                return _refuse(401, "this Tableside needs its access token: open the address `tableside serve` "
                                    "printed (it ends ?token=...), or send Authorization: Bearer <token>")
            if not hmac.compare_digest(cookie.encode(), token.encode()):
                return _refuse(403, "the access token this browser holds is out of date: open the address "
                                    "`tableside serve` printed again")
    elif not is_loopback(urlsplit(f"//{request.host}").hostname or ""):
        return _refuse(403, f"this Tableside serves only this machine (127.0.0.1), not {request.host}; "
                            "to share it, run tableside serve --host with an access token")
    if request.method not in SAFE_METHODS and not (token and bearer is not None):
        problem = _cross_origin()
        if problem:
            return _refuse(403, problem)
    return None


def _token_from_link(token: str, given: str):
    """``?token=...``: keep it in a cookie and show the page without the token in its address."""
    if not hmac.compare_digest(given.encode(), token.encode()):
        return _refuse(403, "the access token in the address is wrong: copy the address `tableside serve` printed")
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
    response = redirect(request.path + (f"?{urlencode(rest)}" if rest else ""), code=303)
    response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict", max_age=30 * 24 * 3600)
    return response


def _bearer() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def _cross_origin() -> str | None:
    """Why this command comes from another site, or None when it does not."""
    ours = f"{request.scheme}://{request.host}".lower()
    origin = request.headers.get("Origin")
    if origin is not None:
        if origin.lower() != ours:
            return f"commands are accepted from pages of {ours} only, not from {origin}"
        return None
    referer = request.headers.get("Referer")
    if referer is not None:
        parts = urlsplit(referer)
        if f"{parts.scheme}://{parts.netloc}".lower() != ours:
            return f"commands are accepted from pages of {ours} only, not from {parts.scheme}://{parts.netloc}"
    return None


def _refuse(status: int, message: str):
    if request.path.startswith("/api/") or request.path in ("/api", "/events") or request.path.startswith("/video/"):
        return jsonify(error=message), status
    return render_template("refused.html", message=message, status=status), status


def _headers(response):
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Content-Security-Policy", CONTENT_POLICY)
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
