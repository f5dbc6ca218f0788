"""puzzle-arena's Python SDK: a bot is a function from a puzzle to moves.

    from puzzle_arena import run_bot

    def solve(puzzle, ctx):            # puzzle: the wire dict, e.g. {"kind": "sliding", "rows": 3, ...}
        return "RDLU"                  # or Answer(moves, optimal=True, nodes=...), GiveUp(why), Unsupported(why)

    run_bot(name="my-bot", version="1.0", capabilities=[Capability("sliding", max_size=3)], solve=solve)

run_bot reads the environment the arena sets (ARENA_STDIO=1, or ARENA_URL and ARENA_TOKEN), connects, says
hello, answers one request at a time, streams long answers in chunks, and returns when the referee says bye.
stdio needs only the standard library; WebSocket needs the `websockets` package. See PROTOCOL.md.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Optional, Sequence

from .session import Bot, Session
from .types import Answer, Capability, GiveUp, PrepareRequest, SolveContext, Unsupported
from .wire import ENV_STDIO, ENV_TOKEN, ENV_URL, chunked

__version__ = "1.0.0"
__all__ = ["run_bot", "Answer", "Capability", "GiveUp", "Unsupported", "SolveContext", "PrepareRequest", "chunked"]


def _log(text: str) -> None:
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
    sys.stderr.flush()


def run_bot(
    *,
    name: str,
    version: str,
    capabilities: Sequence[Any],
    solve: Callable[[dict, SolveContext], Any],
    prepare: Optional[Callable[[PrepareRequest], Any]] = None,
    reuse: bool = True,
) -> None:
    """Runs the bot until the referee says bye or the connection ends, then returns.

    `solve(puzzle, ctx)` returns the moves (a string, or a list of pairs for swaps), an iterable of chunks
    to stream, an Answer (moves plus optimal / nodes / note / compute_ms), GiveUp(reason) or
    Unsupported(reason); raising GiveUp or Unsupported works too, and any other exception is sent as a
    give-up. `prepare(request)`, when given, is declared for every capability and called before the first
    solve of each puzzle class (build tables, warm caches); `ready` is sent when it returns. `reuse` (default
    True) says in the hello that the bot may play several games on one start; pass False to be started
    afresh for every game.

    Started by hand, without the arena's environment, it says so on stderr and exits with code 2; when it
    cannot connect, it says why and exits with code 1.
    """
    try:
        bot = Bot(name, version, capabilities, solve, prepare, reuse)
    except ValueError as e:
        _log("puzzle_arena: %s" % e)
        sys.exit(2)
    if os.environ.get(ENV_STDIO) == "1":
        from .stdio import StdioChannel

        channel: Any = StdioChannel()
    else:
        url, token = os.environ.get(ENV_URL), os.environ.get(ENV_TOKEN)
        if not url or not token:
            _log("%s: set %s and %s (or %s=1); this program is started by the arena" % (name, ENV_URL, ENV_TOKEN, ENV_STDIO))
            sys.exit(2)
        from .ws import MissingWebsockets, WebSocketChannel

        try:
            channel = WebSocketChannel(url, token)
        except MissingWebsockets as e:
            _log("%s: %s" % (name, e))
            sys.exit(2)
        except Exception as e:
            _log("%s: cannot connect to %s: %s" % (name, url, e))
            sys.exit(1)
    Session(bot, channel, _log).run()
    sys.stdout.flush()
