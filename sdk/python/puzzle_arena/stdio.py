"""The stdio transport: one JSON message per line, referee -> bot on stdin, bot -> referee on stdout.

stdout is the protocol, so the channel takes file descriptors 0 and 1 for itself: the protocol keeps private
copies, fd 1 becomes a second stderr and fd 0 reads /dev/null. A stray print() (or a C library or child
process writing to fd 1) then lands in the log instead of corrupting the stream, and input() cannot
swallow a message.
"""
from __future__ import annotations

import os
import sys
import threading
from typing import Any, Callable, Dict

from . import wire


class StdioChannel:
    """A channel over this process's standard input and output (see session.Session for the interface)."""

    def __init__(self) -> None:
        sys.stdout.flush()
        self._out = os.dup(1)
        self._in = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
        os.dup2(2, 1)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        sys.stdout = sys.stderr
        sys.stdin = open(os.devnull)
        self._lock = threading.Lock()
        self._closed = False

    def start(self, deliver: Callable[[tuple], None]) -> None:
        threading.Thread(target=self._read, args=(deliver,), name="puzzle-arena-stdin", daemon=True).start()

    def _read(self, deliver: Callable[[tuple], None]) -> None:
        try:
            for raw in iter(self._in.readline, b""):
                line = raw[:-1] if raw.endswith(b"\n") else raw
                if line.endswith(b"\r"):
                    line = line[:-1]
                if not line.strip():
                    continue
                try:
                    deliver(("message", line.decode("utf-8")))
                except UnicodeDecodeError:
                    sys.stderr.write("puzzle_arena: ignoring a line from the referee that is not UTF-8\n")
        except (OSError, ValueError):
            pass
        deliver(("closed", "stdin closed"))

    def send(self, message: Dict[str, Any]) -> None:
        data = memoryview(wire.encode(message) + b"\n")
        with self._lock:
            if self._closed:
                return
            try:
                while data:
                    data = data[os.write(self._out, data) :]
            except OSError:
                # EPIPE: the referee is gone; the reader sees the end of stdin and the session ends.
                self._closed = True

    def close(self) -> None:
        with self._lock:
            self._closed = True
