"""What a bot's functions receive and may return. The puzzle itself is the plain dict of the wire (PROTOCOL.md)."""
from __future__ import annotations

import threading
import time
from typing import Any, Iterable, Optional, Union


class GiveUp(Exception):
    """Return or raise this when the bot cannot solve the puzzle: the referee records `gave-up`."""

    def __init__(self, reason: str = "gave up") -> None:
        super().__init__(reason)
        self.reason = reason


class Unsupported(Exception):
    """Return or raise this when the bot does not take this kind or size: the referee records `unsupported`."""

    def __init__(self, reason: str = "not supported") -> None:
        super().__init__(reason)
        self.reason = reason


class Answer:
    """A solution with what the bot says about it (stored and shown, never used for scoring).

    `moves` is the whole solution (a string, or a list of [a, b] pairs for swaps) or an iterable of chunks
    (a generator yielding strings or lists of pairs), streamed to the referee as it is produced.
    """

    __slots__ = ("moves", "optimal", "nodes", "note", "compute_ms")

    def __init__(
        self,
        moves: Union[str, list, Iterable[Any]],
        optimal: Optional[bool] = None,
        nodes: Optional[float] = None,
        note: Optional[str] = None,
        compute_ms: Optional[float] = None,
    ) -> None:
        self.moves = moves
        self.optimal = optimal
        self.nodes = nodes
        self.note = note
        self.compute_ms = compute_ms


class Capability:
    """A kind the bot solves: `sliding`, `hanoi`, `swaps` or `warehouse`; `max_size` bounds the size as `arena match`
    counts it: the side (sliding, swaps: the larger of rows and columns), discs (hanoi) or n (warehouse). `prepare` defaults to whether the bot has a prepare function."""

    __slots__ = ("kind", "max_size", "prepare")

    def __init__(self, kind: str, max_size: Optional[int] = None, prepare: Optional[bool] = None) -> None:
        self.kind = kind
        self.max_size = max_size
        self.prepare = prepare

    def __repr__(self) -> str:
        return "Capability(%r, max_size=%r, prepare=%r)" % (self.kind, self.max_size, self.prepare)


class SolveContext:
    """What a solve function gets besides the puzzle.

    `deadline` is on the `time.monotonic()` clock. `cancelled` turns true when the referee cancels the
    request (its time is up) or the connection ends: a long search should look at it now and then and stop.
    """

    __slots__ = ("id", "time_limit_ms", "max_moves", "deadline", "_cancel")

    def __init__(self, request_id: str, time_limit_ms: float, max_moves: int, cancel: threading.Event, started: float) -> None:
        self.id = request_id
        self.time_limit_ms = time_limit_ms
        self.max_moves = max_moves
        self.deadline = started + time_limit_ms / 1000.0
        self._cancel = cancel

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def remaining_ms(self) -> float:
        """Milliseconds left before the referee's time limit (negative once it has passed)."""
        return (self.deadline - time.monotonic()) * 1000.0

    def wait_cancelled(self, seconds: float) -> bool:
        """Sleeps up to `seconds`, waking early on a cancel; true when cancelled."""
        return self._cancel.wait(seconds)


class PrepareRequest:
    """An untimed warm-up: get ready for puzzles of `puzzle_class` ("sliding 4x4", "hanoi 12", ...)."""

    __slots__ = ("id", "kind", "puzzle_class", "time_limit_ms", "_cancel")

    def __init__(self, request_id: str, kind: str, puzzle_class: str, time_limit_ms: float, cancel: threading.Event) -> None:
        self.id = request_id
        self.kind = kind
        self.puzzle_class = puzzle_class
        self.time_limit_ms = time_limit_ms
        self._cancel = cancel

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()
