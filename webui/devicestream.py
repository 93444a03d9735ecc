"""The virtual device's live stream (``/api/sim/events``): the OLED's frames, its tone and LED, as they change.

A coroutine on the web server's loop, as the status pages' stream is. It ran as a Flask generator in the page
pool before, and a generator cannot hear its page leave: each closed tab kept one of the six page workers until
the appliance stopped, and after the sixth every page hung. Here a page that leaves (closed, reset, or asleep)
holds no thread, and the stream ends as soon as the server hears of it.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time

from .asgi import Receive, Send
from .backend import Simulation
from .live import Bell

KEEPALIVE = 15.0
"""Seconds between comments on an idle stream: a phone that left is noticed at the next one."""
LOOK = 0.25
"""Seconds between looks at the tone and the LED (they ring no bell) and at the stop flag."""
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]
"""Both live streams' answer: the status pages' and the virtual device's."""


async def gone_when_disconnected(receive: Receive, gone: asyncio.Event) -> None:
    """Set ``gone`` when the server hears the page leave (the request's body, if any, is read and dropped)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.set()


async def device_events(device: Simulation, frames: Bell, stopping: threading.Event, receive: Receive,
                        send: Send) -> None:
    """One open ``/device`` page: a frame on every change, a comment when idle, until the page or the
    appliance goes."""
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    gone = asyncio.Event()
    watcher = asyncio.create_task(gone_when_disconnected(receive, gone))
    seq, said, signals, version = -1, time.monotonic(), None, None
    try:
        while not gone.is_set() and not stopping.is_set():
            rung = frames.rung
            new_seq, text = device.display()
            now = device.signals()  # the tone and the LED: a refusal's low tone is perceived
            chunk = None
            if new_seq != seq or now != signals:
                seq, said, signals = new_seq, time.monotonic(), now
                frame = {"seq": seq, "text": text, **now}
                if now["version"] != version:  # a new game, a card learned: the card buttons follow
                    # The cards are read on the device's loop: waited for in a thread, never on this loop.
                    version, frame["cards"] = now["version"], await asyncio.to_thread(device.cards)
                chunk = f"data: {json.dumps(frame, ensure_ascii=False)}\n\n".encode()
            elif time.monotonic() - said >= KEEPALIVE:
                said, chunk = time.monotonic(), b": ping\n\n"
            if chunk is not None and not gone.is_set():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await frames.wait(rung, LOOK)
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:
        pass  # the page left mid-write
    finally:
        watcher.cancel()
