"""Shared fixtures and helpers: a game set up in one line, as a rule book sets up its examples; the device's
table, the daemon and the mock pins; a live server and Chromium for the tests of the pages.

Every fixture more than one test module uses is here (or registered here from a plain module); a test module
never imports another test module. Helpers that are not fixtures live in plain modules beside it
(phone_helpers.py, page_words.py, …)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import profiles
import pytest
from told import told

from rules import Game, GameState, RuleError

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from bench.liveserver import LiveServer

# lgpio (tried by the tests that check the loud failure off a Pi) leaves a FIFO in its working
# directory: give it a scratch one instead of the repository.
# The folder goes when the test run ends (every run used to leave one behind).
# A run killed by a signal (a CI time-out, Ctrl-C twice, kill) runs no atexit: its folder, named with its process
# id, is removed by the next run once that process is gone.
LGWD_PREFIX = "bankleser-lgwd-"


def _sweep_lgwd(tmp: str) -> None:
    for stale in Path(tmp).glob(f"{LGWD_PREFIX}*-*"):
        pid = stale.name.removeprefix(LGWD_PREFIX).split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(stale, ignore_errors=True)
        except PermissionError:
            pass  # another user's live process


if "LG_WD" not in os.environ:
    _sweep_lgwd(tempfile.gettempdir())
    os.environ["LG_WD"] = tempfile.mkdtemp(prefix=f"{LGWD_PREFIX}{os.getpid()}-")
    atexit.register(shutil.rmtree, os.environ["LG_WD"], True)

# How many examples the property tests draw: HYPOTHESIS_PROFILE=dev|ci|long (tests/profiles.py), loaded before
# any test module sets its own examples from it.
PROFILE = profiles.load()


def pytest_report_header() -> str:
    return f"hypothesis profile: {PROFILE} (choose with {profiles.ENV}={'|'.join(profiles.FACTORS)})"


def pytest_configure(config: pytest.Config) -> None:
    """hypothesis' own ``--hypothesis-profile`` would load a profile the tests' weights never heard of."""
    option = config.getoption("hypothesis_profile", None)
    if option is not None and option != PROFILE:
        raise pytest.UsageError(f"choose the profile with {profiles.ENV}={option}, not --hypothesis-profile")
    config.addinivalue_line("markers", "live(game=None, login=False, editions=None): what the live `server` starts "
                                       "with (a new_game command, the banker logged in, family editions by file name)")


def start(edition: str = "classic", mode: str = "standard", players: tuple[str, ...] = ("Anna", "Ben"),
          **extra: Any) -> Game:
    game = Game()
    game.apply({"op": "new_game", "edition": edition, "mode": mode, "players": list(players), **extra})
    return game


def give(game: Game, owner: str, *squares: int) -> None:
    """Hand deeds to a player without payment: test set-up, as the quick game's deal does."""
    state = game.state
    assert state is not None
    for sq in squares:
        state.deeds[sq].owner = owner


def snapshot(state: GameState | None) -> Any:
    from rules import to_json

    return None if state is None else to_json(state)


def apply(game: Game, **cmd: Any) -> Any:
    return game.apply(cmd)


def refused(game: Game, code: str, **cmd: Any) -> str:
    """Apply a command that must be refused: it raises with ``code`` and changes nothing."""
    before = snapshot(game.state)
    with pytest.raises(RuleError) as err:
        game.apply(cmd)
    assert err.value.code == code, err.value.said
    assert snapshot(game.state) == before
    return told(err.value, game)


def cash(game: Game, name: str) -> int:
    assert game.state is not None
    return game.state.players[name].cash


@pytest.fixture
def new_game() -> Callable[..., Game]:
    return start


from ui_table import table  # noqa: E402, F401

from daemon_fixture import daemon  # noqa: E402, F401
from hw import factory, pwm_factory  # noqa: E402, F401  (fixtures for the driver tests)


@pytest.fixture(autouse=True)
def _german_after_each_test() -> Iterator[None]:
    """The language in force is one per process (``words.use``): a test that switches it (the OLED's Menü →
    Sprache, the admin page) leaves German, the default, to the next."""
    yield
    import words

    words.use(words.DEFAULT)


def _live(node: pytest.Item | pytest.Collector, folder: Path) -> Iterator[LiveServer]:
    """A real ``bankleser run --sim`` process on its own port and state folder, as the phones reach it; stopped
    when the test is done, also when its set-up failed. The test module says what it needs with
    ``pytestmark = pytest.mark.live(...)``: ``editions`` (file name → TOML) are in the state's folder before it
    starts, ``login`` logs the test's own client in as the banker, ``game`` (a ``new_game`` command) is booked."""
    from bench.liveserver import LiveServer

    mark = node.get_closest_marker("live")
    want: dict[str, Any] = dict(mark.kwargs) if mark is not None else {}
    for name, text in (want.get("editions") or {}).items():
        (folder / "editions").mkdir(parents=True, exist_ok=True)
        (folder / "editions" / name).write_text(text, encoding="utf-8")
    server = LiveServer(folder).start()
    try:
        if want.get("login", False):
            server.login()
        if want.get("game") is not None:
            status, answer = server.post("/api/commands", want["game"])
            assert status == 200, answer
        yield server
    finally:
        server.stop()


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    """A live server of the test's own (see ``_live``)."""
    yield from _live(request.node, tmp_path / "state")


@pytest.fixture(scope="module")
def module_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One live server for all tests of a module: for tests that check what earlier tests left behind on it."""
    yield from _live(request.node, tmp_path_factory.mktemp("live") / "state")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium driven by Playwright, one per test module (a launch takes about a second)."""
    from phone_helpers import CHROMIUM, FLAGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield launched
        launched.close()
