"""A phone never shows another game's chart or state: its cached copy is asked about again, by a key no restart
repeats.

The page asks for ``/api/chart.svg?v=<version>``, and the version starts again at each start of the service: the
chart cached an hour for ``?v=5`` before a restart was shown for the new start's ``?v=5`` (another game, or a game
with a booking taken back). The answer now carries an ETag of this start and the version, and the phone asks again
each time (``no-cache``): the same chart is a 304, another start's never is. The live state (``/api/state``) names
the process's start in its ETag the same way.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path

from flask.testing import FlaskClient

from bench.liveserver import LiveServer
from daemon_fixture import PIN, running
from device.daemon.config import Config
from device.daemon.service import Daemon
from webui.language import COOKIE

CHART = "/api/chart.svg?v=3&lang=de"


def client_of(daemon: Daemon) -> tuple[FlaskClient, str]:
    deadline = time.monotonic() + 20
    while daemon.app is None:
        assert time.monotonic() < deadline, "the web did not start"
        time.sleep(0.05)
    client = daemon.app.test_client()
    answer = client.post("/api/login", json={"pin": PIN})
    assert answer.status_code == 200
    return client, answer.get_json()["csrf"]


def book(client: FlaskClient, csrf: str, *cmds: dict[str, object]) -> None:
    for cmd in cmds:
        assert client.post("/api/commands", json=cmd, headers={"X-CSRF-Token": csrf}).status_code == 200, cmd


def test_a_chart_cached_before_a_restart_is_never_shown_after_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with running(Config(banker_pin=PIN), state) as first:
        client, csrf = client_of(first)
        book(client, csrf, {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]},
             {"op": "credit", "player": "Anna", "amount": 500})
        before = client.get(CHART)
        assert before.status_code == 200 and "Anna" in before.get_data(as_text=True)
    cache = before.headers.get("Cache-Control", "")
    assert "no-cache" in cache and "max-age=3600" not in cache, cache  # the phone asks again before it shows it
    assert before.headers.get("ETag")
    with running(Config(banker_pin=PIN), state) as second:
        client, csrf = client_of(second)
        book(client, csrf, {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Cem", "Dana"],
                            "replace": True},
             {"op": "credit", "player": "Cem", "amount": 500})
        after = client.get(CHART, headers={"If-None-Match": before.headers["ETag"]})
        assert after.status_code == 200, "the chart of the start before was kept"
        assert "Cem" in after.get_data(as_text=True) and "Anna" not in after.get_data(as_text=True)
        assert after.headers["ETag"] != before.headers["ETag"]


def test_the_same_chart_is_a_304(daemon: Daemon) -> None:
    """Asked again at the same version in the same language: nothing is drawn or sent again."""
    client, _ = client_of(daemon)
    first = client.get(CHART)
    again = client.get(CHART, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
    english_phone = daemon.app.test_client()
    english_phone.set_cookie(COOKIE, "en")
    english = english_phone.get(CHART, headers={"If-None-Match": first.headers["ETag"]})
    assert english.status_code == 200, "another language's chart is another answer"


def state_answer(server: LiveServer, etag: str = "") -> tuple[int, str, bytes]:
    """Status, ETag and body of ``GET /api/state`` as a phone asks it again (``If-None-Match``: its cached copy)."""
    request = urllib.request.Request(server.base + "/api/state", headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers["ETag"], answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers["ETag"], b""


def version_of(etag: str) -> str:
    """The published state's version in its ETag (``"<start>-<version>"``)."""
    return etag.strip('"').split("-")[1]


def test_the_state_cached_before_a_restart_is_never_taken_for_the_state_after_it(tmp_path: Path) -> None:
    """The live state's versions begin again at each start of the process, as the chart's do: a phone's copy
    of another game at the same version must not be answered "not modified" (a restart is a new process, so
    this test restarts the real service, not a daemon in this process)."""
    state = tmp_path / "state"
    first = LiveServer(state).start()
    try:
        first.login()
        assert first.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                             "players": ["Anna", "Ben"]})[0] == 200
        _, before, body = state_answer(first)
        assert [p["name"] for p in json.loads(body)["players"]] == ["Anna", "Ben"]
    finally:
        first.stop()
    second = LiveServer(state).start()
    try:
        second.login()
        assert second.post("/api/commands", {"op": "new_game", "edition": "classic", "mode": "standard",
                                              "players": ["Cem", "Dana"], "replace": True})[0] == 200
        status, after, body = state_answer(second, before)
        assert version_of(after) == version_of(before), "the same version number, another game: the case at stake"
        assert status == 200, "the state of the start before was kept"
        assert [p["name"] for p in json.loads(body)["players"]] == ["Cem", "Dana"]
        assert after != before
    finally:
        second.stop()

