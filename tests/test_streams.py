"""Every live stream frees what it holds when its phone goes, against a real `bankleser run --sim` process.

A status page (``/api/events``) and a virtual device (``/api/sim/events``) each hold a stream open for as long as
the page is open. A phone leaves in three ways: its tab is closed (the socket ends), its connection is reset
(no goodbye), or it sleeps (the socket stays open and nobody reads it any more). None of them may cost the pages
anything: after a hundred of each, every page still answers at once.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable

import pytest
from test_web_bad_bytes import STREAMS as SERVERS_OWN
from test_web_bad_bytes import routes

from bench.bench_streams import first_frame
from bench.liveserver import LiveServer
from daemon_fixture import PIN, web_client
from device.daemon.service import Daemon

STREAMS = ("/api/events", "/api/sim/events")
PAGES = ("/", "/admin", "/spiele", "/device", "/static/style.css")
MANY = 100


def open_stream(port: int, path: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a sleeping phone's small window fills soon
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return sock




def closed(sock: socket.socket) -> None:
    """The tab is closed: the browser ends the connection."""
    sock.close()


def reset(sock: socket.socket) -> None:
    """The connection is reset: no goodbye, an RST (a phone leaving the hotspot's range, a killed browser)."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


SLEEPING: list[socket.socket] = []


def sleeps(sock: socket.socket) -> None:
    """The phone sleeps: the socket stays open and is never read again (kept until the module ends)."""
    SLEEPING.append(sock)


LEAVING: dict[str, Callable[[socket.socket], None]] = {"closed": closed, "reset": reset, "sleeps": sleeps}


def page_time(port: int, path: str, timeout: float = 5.0) -> float:
    """Seconds until the whole answer to ``GET path`` arrived (``timeout`` when it did not)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except TimeoutError:
            return timeout
    assert data.startswith(b"HTTP/1.1 200"), (path, data[:200])
    return time.monotonic() - started


@pytest.mark.parametrize("path", STREAMS)
@pytest.mark.parametrize("leaving", sorted(LEAVING))
def test_a_hundred_streams_that_go_leave_every_page_answering_at_once(module_server: LiveServer, path: str,
                                                                      leaving: str) -> None:
    socks = [open_stream(module_server.port, path) for _ in range(MANY)]
    deadline = time.monotonic() + 10
    served = sum(first_frame(sock, deadline) for sock in socks)
    for sock in socks:
        LEAVING[leaving](sock)
    time.sleep(0.2)  # the server hears of the closed and reset ones
    times = {page: page_time(module_server.port, page) for page in PAGES}
    slow = {page: round(took, 2) for page, took in times.items() if took > 1.0}
    assert not slow, f"{MANY} streams {path} that {leaving}: pages waited {slow} s ({served} streams served)"
    assert served == MANY, f"only {served} of {MANY} streams {path} got their first frame"


def test_the_sleeping_phones_are_still_served(module_server: LiveServer) -> None:
    """The streams of phones that sleep were kept open all the while: the server holds them, not a worker each."""
    assert len(SLEEPING) in (0, 2 * MANY)  # run alone: nothing slept
    times = {page: page_time(module_server.port, page) for page in PAGES}
    assert max(times.values()) < 1.0, times
    for sock in SLEEPING:
        sock.close()
    SLEEPING.clear()


def test_no_view_of_the_page_pool_answers_with_a_stream(daemon: Daemon) -> None:
    """A stream a Flask view answers keeps one of the page pool's six workers for as long as its phone seems to
    be there: the virtual device's did, and six closed tabs hung every page. A live page is the server's own
    coroutine (its list above), so any stream added later as a view, for a stranger or the banker, fails here."""
    client = web_client(daemon)
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    walk = routes(daemon)
    assert walk[:len(SERVERS_OWN)] == SERVERS_OWN
    for method, path in walk[len(SERVERS_OWN):]:  # Flask's own, a stream's path among them or not
        if method != "GET":
            continue
        answer = client.get(path)
        try:
            assert answer.mimetype != "text/event-stream", f"{path} is a stream served by a page worker"
        finally:
            answer.close()

