"""The bot side of the protocol, the same over stdio and WebSocket: hello, then one request at a time.

Two threads: the caller's reads what the transport delivers (so a `cancel` or `bye` is seen while a search
runs) and a worker thread runs the bot's functions one request at a time, in the order they came, and
streams each answer in chunks. Everything about the wire lives here and in wire.py; the bot sees puzzles.
"""
from __future__ import annotations

import collections
import json
import queue
import threading
import time
import traceback
from typing import Any, Callable, Deque, Dict, Optional

from . import wire
from .types import Answer, GiveUp, PrepareRequest, SolveContext, Unsupported

Log = Callable[[str], None]


class Bot:
    """A bot as the session needs it: its hello and its functions."""

    def __init__(self, name: str, version: str, capabilities: Any, solve: Callable[..., Any], prepare: Optional[Callable[..., Any]] = None, reuse: bool = True) -> None:
        self.hello = wire.hello(name, version, list(capabilities), prepare is not None, reuse)
        self.name = name
        self.solve = solve
        self.prepare = prepare


class _Request:
    __slots__ = ("id", "cancel")

    def __init__(self, request_id: str) -> None:
        self.id = request_id
        self.cancel = threading.Event()


class Session:
    """Serves `bot` over `channel` until the referee says bye or the connection ends.

    A channel has `start(deliver)`, calling deliver(("message", text)) per message and ("closed", why) once
    at the end from its own thread; `send(dict)`, blocking until the message is handed to the OS; `close()`.
    """

    def __init__(self, bot: Bot, channel: Any, log: Log) -> None:
        self._bot = bot
        self._channel = channel
        self._log = log
        self._events: "queue.Queue[tuple]" = queue.Queue()
        self._cond = threading.Condition()
        self._pending: Deque[Dict[str, Any]] = collections.deque()
        self._current: Optional[_Request] = None
        self._done = False
        self.max_payload = wire.MAX_PAYLOAD

    def run(self) -> str:
        """Runs the session; returns why it ended ("bye: ..." or the transport's reason)."""
        self._channel.start(self._events.put)
        self._channel.send(self._bot.hello)
        threading.Thread(target=self._work, name="puzzle-arena-worker", daemon=True).start()
        while True:
            what, payload = self._events.get()
            if what == "closed":
                why = str(payload)
                break
            bye = self._dispatch(payload)
            if bye is not None:
                why = "bye: " + bye
                break
        with self._cond:
            self._done = True
            self._pending.clear()
            if self._current is not None:
                self._current.cancel.set()
            self._cond.notify_all()
        self._channel.close()
        return why

    def _dispatch(self, text: str) -> Optional[str]:
        """Handles one message from the referee; returns the reason when it is `bye`."""
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            self._log("%s: ignoring a message from the referee that is not JSON" % self._bot.name)
            return None
        kind = msg.get("type") if isinstance(msg, dict) else None
        if not isinstance(kind, str):
            self._log("%s: ignoring a message from the referee without a type" % self._bot.name)
            return None
        if kind == "bye":
            reason = msg.get("reason")
            return reason if isinstance(reason, str) else "bye"
        if kind == "welcome":
            limits = msg.get("limits")
            payload = limits.get("maxPayload") if isinstance(limits, dict) else None
            if isinstance(payload, int) and not isinstance(payload, bool) and payload > 0:
                self.max_payload = payload
        elif kind in ("solve", "prepare"):
            if not isinstance(msg.get("id"), str) or (kind == "solve" and not isinstance(msg.get("puzzle"), dict)):
                self._log("%s: ignoring a malformed %s from the referee" % (self._bot.name, kind))
                return None
            with self._cond:
                self._pending.append(msg)
                self._cond.notify_all()
        elif kind == "cancel":
            with self._cond:
                if self._current is not None and self._current.id == msg.get("id"):
                    self._current.cancel.set()
                for queued in [q for q in self._pending if q["id"] == msg.get("id")]:
                    self._pending.remove(queued)
        # `result` is informational, and unknown types must be ignored (later protocol versions may add some).
        return None

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._done:
                    self._cond.wait()
                if self._done:
                    return
                msg = self._pending.popleft()
                req = self._current = _Request(msg["id"])
            try:
                if msg["type"] == "prepare":
                    self._prepare(msg, req)
                else:
                    self._solve(msg, req)
            finally:
                with self._cond:
                    self._current = None

    def _send(self, req: _Request, msg: Dict[str, Any]) -> bool:
        # After a cancel the referee no longer listens for this id: say nothing more about it.
        if req.cancel.is_set():
            return False
        self._channel.send(msg)
        return True

    def _prepare(self, msg: Dict[str, Any], req: _Request) -> None:
        if self._bot.prepare is not None:
            limit = msg.get("timeLimitMs")
            request = PrepareRequest(req.id, str(msg.get("kind")), str(msg.get("puzzleClass")), limit if isinstance(limit, (int, float)) else 60_000, req.cancel)
            try:
                self._bot.prepare(request)
            except Exception:
                # A failed warm-up costs the bot its head start, not the match: it is ready as it is.
                self._log("%s: prepare %s failed:\n%s" % (self._bot.name, msg.get("puzzleClass"), traceback.format_exc()))
        self._send(req, {"type": "ready", "id": req.id})

    def _solve(self, msg: Dict[str, Any], req: _Request) -> None:
        started = time.monotonic()
        limit, max_moves = msg.get("timeLimitMs"), msg.get("maxMoves")
        ctx = SolveContext(req.id, limit if isinstance(limit, (int, float)) else 0, max_moves if isinstance(max_moves, int) else 0, req.cancel, started)
        try:
            self._answer(msg["puzzle"], req, self._bot.solve(msg["puzzle"], ctx), started)
        except (GiveUp, Unsupported) as e:
            self._decline(req, e)
        except Exception as e:
            self._log("%s: solve %s failed:\n%s" % (self._bot.name, req.id, traceback.format_exc()))
            self._send(req, {"type": "give-up", "id": req.id, "reason": wire.clip("solver threw: %s: %s" % (type(e).__name__, e), 1000)})

    def _decline(self, req: _Request, e: Any) -> None:
        kind = "unsupported" if isinstance(e, Unsupported) else "give-up"
        self._send(req, {"type": kind, "id": req.id, "reason": wire.clip(e.reason)})

    def _answer(self, puzzle: Dict[str, Any], req: _Request, answer: Any, started: float) -> None:
        if answer is None:
            answer = GiveUp("the solver returned no answer")
        if isinstance(answer, (GiveUp, Unsupported)):
            return self._decline(req, answer)
        if not isinstance(answer, Answer):
            answer = Answer(answer)
        final = lambda: wire.info(answer.optimal, answer.nodes, answer.note, answer.compute_ms, (time.monotonic() - started) * 1000)
        if not wire.is_chunks(answer.moves):
            parts = list(self._split(wire.checked_moves(answer.moves)))
            for i, part in enumerate(parts):
                last = i == len(parts) - 1
                if not self._send_moves(req, part, last, final() if last else None):
                    return
            return
        empty: Any = [] if puzzle.get("kind") == "swaps" else ""
        for chunk in answer.moves:
            if req.cancel.is_set():
                return
            moves = wire.checked_moves(chunk)
            empty = "" if isinstance(moves, str) else []
            for part in self._split(moves):
                if not self._send_moves(req, part, False, None):
                    return
        self._send_moves(req, empty, True, final())

    def _split(self, moves: wire.Moves) -> Any:
        sizes = wire.chunk_sizes(self.max_payload)
        return wire.chunked(moves, sizes["chars"] if isinstance(moves, str) else sizes["pairs"])

    def _send_moves(self, req: _Request, moves: wire.Moves, final: bool, info: Optional[Dict[str, Any]]) -> bool:
        msg: Dict[str, Any] = {"type": "moves", "id": req.id, "moves": moves, "final": final}
        if info is not None:
            msg["info"] = info
        # Chunks are sized for ASCII moves; a chunk that still encodes too big (escaped characters) is halved.
        if len(moves) > 1 and len(wire.encode(msg)) > self.max_payload:
            half = len(moves) // 2
            return self._send_moves(req, moves[:half], False, None) and self._send_moves(req, moves[half:], final, info)
        return self._send(req, msg)
