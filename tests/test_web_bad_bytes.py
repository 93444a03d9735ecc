"""No request makes a 5xx: every route, with bad bytes wherever a phone or a stale browser can put them.

The walk goes over Flask's URL map (as tests/test_web_auth.py does) and the server's own streams, and sends each
request over a socket to the real server (uvicorn, h11, the front, a2wsgi, Flask), so every layer reads the
bytes. Bad bytes come where the world puts them: a cookie another app left on the same address (not UTF-8), an
``Accept-Language`` a browser made up, a query string and a path with percent-encoded garbage, a content type
and a body that are neither JSON nor a form. The answer may refuse (4xx), never fail (5xx), and no layer logs a
traceback. Each failure hypothesis found is kept below as a named test.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from urllib.parse import quote_from_bytes

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from profiles import examples

from daemon_fixture import PIN
from device.daemon.service import Daemon

ARGUMENTS = {"uid": "0a000001", "game_id": "1", "filename": "app.js", "key": "classic"}
STREAMS = [("GET", "/api/events"), ("GET", "/api/sim/events")]
"""The server's own routes (not Flask's): the live streams."""


class Caught(logging.Handler):
    """Every record at WARNING or above, from any thread, whichever logger (uvicorn's do not reach the root)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def tracebacks(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.records
                if r.exc_info is not None or "Traceback" in r.getMessage()]


@pytest.fixture
def caught() -> Iterator[Caught]:
    handler = Caught()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "uvicorn.asgi")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


def served(daemon: Daemon) -> int:
    """The daemon's web server's port, once it serves and the past games are told: while they are still being
    read after the start, /spiele answers 503 with Retry-After on purpose (the page says so and comes back), which
    is no answer to bad bytes."""
    deadline = time.monotonic() + 20
    while daemon.server is None or daemon.app is None or daemon.history is None or daemon.history.warming.is_set():
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.05)
    port: int = daemon.server.port
    return port


def routes(daemon: Daemon) -> list[tuple[str, str]]:
    """Every (method, path) the web answers: Flask's rules with their arguments filled in, and the streams."""
    assert daemon.app is not None
    found = list(STREAMS)
    for rule in daemon.app.url_map.iter_rules():
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<{name}>", ARGUMENTS[name]).replace(f"<int:{name}>", ARGUMENTS[name]) \
                       .replace(f"<path:{name}>", ARGUMENTS[name])
        found += [(method, path) for method in sorted((rule.methods or set()) - {"OPTIONS"})]
    return found


def status(port: int, request: bytes, timeout: float = 10.0) -> int:
    """The status code of the answer to the raw ``request`` (a stream is left after its status line)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    assert data.startswith(b"HTTP/1.1 "), data[:200]
    return int(data[9:12])


def request(method: str, target: bytes, headers: dict[bytes, bytes], body: bytes) -> bytes:
    lines = [method.encode() + b" " + target + b" HTTP/1.1", b"Host: 127.0.0.1", b"Connection: close"]
    lines += [name + b": " + value for name, value in headers.items()]
    if body or method == "POST":
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


HEADER_BYTES = st.binary(max_size=60).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"").replace(b"\x00", b"")
                                                   .strip(b" \t"))
"""Bytes a header's value can carry through HTTP/1.1 (h11 refuses CR, LF and NUL itself, with a 400)."""
JUNK_TEXT = st.sampled_from(["", "€", "\udcff".encode("utf-8", "surrogatepass").decode("latin-1"), "%", "%zz",
                             "..", "\x00", "ä", "💥", "/", "//x", "?&=;"])


@st.composite
def bad_requests(draw: st.DrawFn, walk: list[tuple[str, str]], banker: tuple[bytes, str]) -> tuple[str, bytes,
                                                                                                    dict[bytes, bytes],
                                                                                                    bytes]:
    method, path = draw(st.sampled_from(walk))
    junk = draw(st.binary(max_size=12))
    where = draw(st.sampled_from(["none", "none", "none", "append", "segment"]))  # junk paths are mostly 404s
    if where == "append":
        path = path + quote_from_bytes(junk, safe="")
    elif where == "segment":
        path = path.rstrip("/") + "/" + quote_from_bytes(junk, safe="")
    query = draw(st.one_of(st.just(b""), st.binary(max_size=30).map(lambda b: quote_from_bytes(b, safe="=&").encode()),
                           JUNK_TEXT.map(lambda t: quote_from_bytes(t.encode("utf-8", "surrogatepass"),
                                                                    safe="=&%").encode())))
    target = path.encode() + (b"?" + query if query else b"")
    headers: dict[bytes, bytes] = {}
    cookie = draw(HEADER_BYTES)
    session, csrf = banker
    if draw(st.booleans()):  # the banker, logged in: the routes behind the session read the bytes too
        cookie = session + (b"; " + cookie if cookie else b"")
        headers[b"X-CSRF-Token"] = csrf.encode()
    if cookie:
        headers[b"Cookie"] = cookie
    for name in (b"Accept-Language", b"Content-Type", b"If-None-Match"):
        value = draw(st.one_of(st.none(), HEADER_BYTES, st.just(b"application/json"),
                               st.just(b"multipart/form-data; boundary=\xff")))
        if value:
            headers[name] = value
    body = draw(st.one_of(st.just(b""), st.binary(max_size=200), st.just(b'{"pin": "\xff"}'),
                          st.just(b"\xef\xbb\xbf{}"), st.just(b'{"key": 1e999}')))
    return method, target, headers, body


def login(port: int) -> tuple[bytes, str]:
    """The banker's session cookie and CSRF token (none while the login limit holds after drawn wrong PINs)."""
    import json

    body = json.dumps({"pin": PIN}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request("POST", b"/api/login", {b"Content-Type": b"application/json"}, body))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, answer = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        return b"", ""
    cookie = next(line.split(b":", 1)[1].split(b";")[0].strip() for line in head.split(b"\r\n")
                  if line.lower().startswith(b"set-cookie:") and b"session=" in line)
    return cookie, json.loads(answer)["csrf"]


def answers(daemon: Daemon, caught: Caught, method: str, target: bytes, headers: dict[bytes, bytes],
            body: bytes) -> int:
    """The one check: no 5xx, no traceback in any log (the status code, for the statistics)."""
    port = served(daemon)
    code = status(port, request(method, target, headers, body))
    assert code < 500, (code, method, target, headers, body)
    time.sleep(0.01)  # a thread's log record (the page pool's) lands before the check
    assert not caught.tracebacks(), (caught.tracebacks(), method, target, headers, body)
    return code


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_no_route_answers_5xx_or_logs_a_traceback_whatever_bytes_it_gets(daemon: Daemon, caught: Caught,
                                                                          data: st.DataObject) -> None:
    port = served(daemon)
    walk = routes(daemon)
    method, target, headers, body = data.draw(bad_requests(walk, login(port)))
    code = answers(daemon, caught, method, target, headers, body)
    event(f"{code // 100}xx {method}")  # --hypothesis-show-statistics: how many reached a view


BAD = {b"Cookie": b"name=M\xfcller; session=\xff\xfe; bank_lang=\xe4", b"Accept-Language": b"\xff;q=\x80, de;q=x",
       b"Content-Type": b"multipart/form-data; boundary=\xff", b"If-None-Match": b"\"\xff\""}
"""One of each kind of bad header at once: what a stale browser and another app's cookie bring together."""
BAD_QUERY = b"?" + quote_from_bytes(b"\xff\xfe=\x80&lang=\xe4&v=-1&%", safe="=&").encode()
BAD_BODY = b'{"pin": "\xff", "amount": 1e999}\x80'


def test_every_route_answers_the_worst_bytes_without_a_5xx(daemon: Daemon, caught: Caught) -> None:
    """The property draws its routes at random, and with some seventy of them a run leaves one or two untried:
    here every route of the map, as a stranger and as the banker, gets every kind of bad byte in every run."""
    port = served(daemon)
    for method, path in routes(daemon):
        for banker in (False, True):
            headers = dict(BAD)
            if banker:  # logged in again each time: a route before may have been the logout
                session, csrf = login(port)
                assert session, "the banker's login was refused"
                headers[b"Cookie"] = session + b"; " + headers[b"Cookie"]
                headers[b"X-CSRF-Token"] = csrf.encode()
            for target in (path.encode() + BAD_QUERY, path.rstrip("/").encode() + b"/%ff%00%2e%2e"):
                answers(daemon, caught, method, target, headers, BAD_BODY)


# What the property found, each kept as it shrank. -----------------------------------------------------------


def test_a_cookie_that_is_no_utf8_is_no_500_on_the_status_pages_stream(daemon: Daemon, caught: Caught) -> None:
    """Found by the property: the front read the page's language from the cookie with werkzeug's strict decode."""
    answers(daemon, caught, "GET", b"/api/events", {b"Cookie": b"\x80"}, b"")


@pytest.mark.parametrize("path", [b"/", b"/admin", b"/spiele", b"/device", b"/api/state", b"/static/style.css"])
def test_a_stale_cookie_of_another_app_is_no_500_on_any_page(daemon: Daemon, caught: Caught, path: bytes) -> None:
    """A cookie another app on the same address left (Latin-1, not UTF-8) answered 500 on every Flask page: the
    language of the page was read from it with werkzeug's strict decode."""
    answers(daemon, caught, "GET", path, {b"Cookie": b"name=M\xfcller; bank_lang=en"}, b"")


def test_a_phones_language_is_still_read_beside_a_stale_cookie() -> None:
    from webui.language import cookies_of, page_language

    assert page_language(cookies_of(b"name=M\xfcller; bank_lang=en")) == "en"
