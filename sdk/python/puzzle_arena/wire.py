"""The protocol's constants and bounds, and the messages the SDK sends, built so they always stay inside them.

Every rule here is one of PROTOCOL.md's: a message the referee would reject is a `protocol` verdict and a
restarted bot, so the SDK never sends one: texts are clipped, moves are checked before they leave.
"""
from __future__ import annotations

import json
import math
import operator
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

PROTOCOL_VERSION = 2
SUBPROTOCOL = "puzzle-arena.v1"
KINDS = ("sliding", "hanoi", "swaps", "warehouse")
ENV_URL, ENV_TOKEN, ENV_STDIO = "ARENA_URL", "ARENA_TOKEN", "ARENA_STDIO"

#: The largest message the referee accepts (the `welcome` may say another number).
MAX_PAYLOAD = 4 * 1024 * 1024
#: The largest message the referee may send: a `solve` carries the whole state.
MAX_REFEREE_PAYLOAD = 64 * 1024 * 1024
MAX_NAME = 200  # name and version
MAX_TEXT = 10_000  # reason and note
MAX_CAPABILITIES = 64
#: Chunk sizes PROTOCOL.md recommends; smaller when the welcome announces a smaller payload limit.
STRING_CHUNK = 1024 * 1024
PAIR_CHUNK = 100_000

Moves = Union[str, List[List[int]]]


def clip(text: Any, limit: int = MAX_TEXT) -> str:
    """`text` as a string of at most `limit` UTF-16 code units (how the referee, in JavaScript, counts)."""
    s = str(text)
    if len(s) <= limit // 2:
        return s
    units = 0
    for i, ch in enumerate(s):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return s[:i]
    return s


def utf16_len(text: str) -> int:
    """The length of `text` as the referee, in JavaScript, counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def encode(message: Dict[str, Any]) -> bytes:
    """One message as one line of JSON: ASCII only, so it is valid UTF-8 and holds no raw newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode("ascii")


def capability_of(entry: Any, default_prepare: bool) -> Dict[str, Any]:
    """A capability in wire form, from a Capability, a dict in wire form ({"kind", "maxSize"}) or a kind name."""
    if isinstance(entry, str):
        kind, max_size, prepare = entry, None, None
    elif isinstance(entry, dict):
        kind, max_size, prepare = entry.get("kind"), entry.get("maxSize", entry.get("max_size")), entry.get("prepare")
    else:
        kind, max_size, prepare = getattr(entry, "kind", None), getattr(entry, "max_size", None), getattr(entry, "prepare", None)
    if kind not in KINDS:
        raise ValueError("capability kind must be one of %s, got %r" % (", ".join(KINDS), kind))
    out: Dict[str, Any] = {"kind": kind}
    if max_size is not None:
        if isinstance(max_size, bool) or not isinstance(max_size, int) or max_size < 1:
            raise ValueError("capability max_size must be a positive integer, got %r" % (max_size,))
        out["maxSize"] = max_size
    if prepare if prepare is not None else default_prepare:
        out["prepare"] = True
    return out


def hello(name: str, version: str, capabilities: Sequence[Any], prepare: bool, reuse: bool = True) -> Dict[str, Any]:
    """The `hello` message; a ValueError names what is wrong (a programmer's error, found before connecting)."""
    if not isinstance(name, str) or not 1 <= utf16_len(name) <= MAX_NAME:
        raise ValueError("bot name must be a string of 1 to %d characters" % MAX_NAME)
    if not isinstance(version, str) or utf16_len(version) > MAX_NAME:
        raise ValueError("bot version must be a string of at most %d characters" % MAX_NAME)
    caps = [capability_of(c, prepare) for c in capabilities]
    if not caps or len(caps) > MAX_CAPABILITIES:
        raise ValueError("declare 1 to %d capabilities (the kinds the bot solves)" % MAX_CAPABILITIES)
    message = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": name, "version": version, "capabilities": caps}
    # `reuse`: the bot may play several games on one start (absent: one start per game).
    if reuse:
        message["reuse"] = True
    return message


def _number(value: Any) -> Optional[float]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) and value >= 0 else None


def info(optimal: Any, nodes: Any, note: Any, compute_ms: Any, measured_ms: float) -> Dict[str, Any]:
    """The `info` of a final chunk: only fields of the right type are kept, texts clipped."""
    out: Dict[str, Any] = {"computeMs": _number(compute_ms) if _number(compute_ms) is not None else round(max(0.0, measured_ms), 3)}
    if isinstance(optimal, bool):
        out["optimal"] = optimal
    if _number(nodes) is not None:
        out["nodes"] = nodes
    if note is not None:
        out["note"] = clip(note)
    return out


def _pair(p: Any) -> List[int]:
    if not isinstance(p, (list, tuple)) or len(p) != 2 or isinstance(p[0], bool) or isinstance(p[1], bool):
        raise TypeError("a swap move must be a pair of integers, got %r" % (p,))
    return [operator.index(p[0]), operator.index(p[1])]


def checked_moves(moves: Any) -> Moves:
    """A chunk in wire form: a string, or a list of [int, int] pairs (tuples and numpy integers converted)."""
    if isinstance(moves, str):
        return moves
    if isinstance(moves, (list, tuple)):
        return [_pair(p) for p in moves]
    raise TypeError("moves must be a string or a list of pairs, got %s" % type(moves).__name__)


def is_chunks(moves: Any) -> bool:
    """True when `moves` is a sequence of chunks rather than one solution (as the TypeScript SDK decides)."""
    if isinstance(moves, (str, bytes, dict)):
        return False
    if isinstance(moves, (list, tuple)):
        if not moves:
            return False
        first = moves[0]
        return isinstance(first, str) or (isinstance(first, (list, tuple)) and len(first) > 0 and isinstance(first[0], (list, tuple)))
    return hasattr(moves, "__iter__")


def chunked(moves: Moves, size: int) -> Iterator[Moves]:
    """Splits moves into chunks of at most `size` characters or pairs, which concatenate back to `moves`.

    A string is cut just after a space when one is within 64 characters of the cut, so space-separated
    notations ("17U 4L") do not split inside a move (the referee would accept it anyway: chunks of a string
    are joined verbatim).
    """
    n = max(1, int(size))
    if isinstance(moves, str):
        start = 0
        while len(moves) - start > n:
            cut = start + n
            space = moves.rfind(" ", start, cut)
            if space >= start and cut - space <= 64:
                cut = space + 1
            yield moves[start:cut]
            start = cut
        yield moves[start:]
        return
    if len(moves) <= n:
        yield moves
        return
    for i in range(0, len(moves), n):
        yield moves[i : i + n]


def chunk_sizes(max_payload: int) -> Dict[str, int]:
    """Characters and pairs per chunk under a payload limit (ASCII moves: a byte per character)."""
    return {"chars": max(1, min(STRING_CHUNK, max_payload // 4)), "pairs": max(1, min(PAIR_CHUNK, max_payload // 40))}
