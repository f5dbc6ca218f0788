"""The WebSocket transport, over the `websockets` package, imported only when a bot dials in this way: stdio
bots need nothing but the standard library.

The connection lives on an asyncio loop in a thread of its own, so pings are answered and a `cancel` is
read while the bot's solve function runs in another thread.
"""
from __future__ import annotations

import asyncio
import sys
import threading
from typing import Any, Callable, Dict, Tuple

from . import wire

INSTALL_HINT = (
    "WebSocket bots need the websockets package (version 10 or later): "
    "pip install 'websockets>=10', or install this SDK with pip install './sdk/python[websocket]'; "
    "or register the bot with --stdio, which needs nothing but Python"
)


class MissingWebsockets(RuntimeError):
    """The `websockets` package is not installed."""


def _connect_function() -> Tuple[Callable[..., Any], str]:
    """websockets' connect and the name of its extra-headers argument, which changed with the new client."""
    try:
        from websockets.asyncio.client import connect  # websockets 13 and later

        return connect, "additional_headers"
    except ImportError:
        pass
    try:
        import websockets
    except ImportError:
        raise MissingWebsockets(INSTALL_HINT) from None
    return websockets.connect, "extra_headers"  # versions 10 to 12


class WebSocketChannel:
    """A channel to the referee at `url`, authenticated by `token` (see session.Session for the interface)."""

    def __init__(self, url: str, token: str) -> None:
        connect, header_arg = _connect_function()
        self._loop = asyncio.new_event_loop()
        threading.Thread(target=self._loop.run_forever, name="puzzle-arena-websocket", daemon=True).start()
        options: Dict[str, Any] = {
            "subprotocols": [wire.SUBPROTOCOL],
            header_arg: {"Authorization": "Bearer " + token},
            # What the referee sends (a solve holds the whole state) can exceed what it accepts from bots.
            "max_size": wire.MAX_REFEREE_PAYLOAD,
            "compression": None,
            # The referee pings and the library answers; the bot needs no pings of its own.
            "ping_interval": None,
        }
        try:
            self._ws = asyncio.run_coroutine_threadsafe(self._open(connect, url, options), self._loop).result()
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)
            raise

    @staticmethod
    async def _open(connect: Callable[..., Any], url: str, options: Dict[str, Any]) -> Any:
        return await connect(url, **options)

    def start(self, deliver: Callable[[tuple], None]) -> None:
        asyncio.run_coroutine_threadsafe(self._read(deliver), self._loop)

    async def _read(self, deliver: Callable[[tuple], None]) -> None:
        why = "connection closed"
        try:
            async for data in self._ws:
                if isinstance(data, str):
                    deliver(("message", data))
                else:
                    sys.stderr.write("puzzle_arena: ignoring a binary frame from the referee\n")
        except Exception as e:  # the library's ConnectionClosed family, whatever its version calls it
            why = "connection lost: %s" % e
        deliver(("closed", why))

    def send(self, message: Dict[str, Any]) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self._ws.send(wire.encode(message).decode("ascii")), self._loop).result()
        except Exception:
            pass  # the connection is going away; the reader reports its end

    def close(self) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self._ws.close(), self._loop).result(timeout=5)
        except Exception:
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
