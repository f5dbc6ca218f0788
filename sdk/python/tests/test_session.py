"""session - the bot side of the protocol, against an in-memory referee (tests/fake_channel.py)."""
import threading
import time
import unittest

from puzzle_arena import Answer, Capability, GiveUp, Unsupported
from puzzle_arena.session import Bot, Session

from fake_channel import FakeChannel

SLIDING = {"kind": "sliding", "rows": 3, "cols": 3, "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8]}
SWAPS = {"kind": "swaps", "rows": 2, "cols": 4, "tiles": [1, 2, 4, 3, 5, 7, 6, 8]}


def solve_msg(rid, puzzle=SLIDING, limit=1000):
    return {"type": "solve", "id": rid, "puzzle": puzzle, "timeLimitMs": limit, "maxMoves": 1000}


class Running:
    """A session on a fake channel, run in a thread; the test is the referee."""

    def __init__(self, solve, prepare=None, caps=("sliding", "swaps")):
        self.channel = FakeChannel()
        self.logs = []
        self.session = Session(Bot("t", "1", list(caps), solve, prepare), self.channel, self.logs.append)
        self.why = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.hello = self.channel.next()

    def _run(self):
        self.why = self.session.run()

    def stop(self):
        self.channel.push({"type": "bye", "reason": "done"})
        self.thread.join(5)
        assert not self.thread.is_alive()


class SessionTest(unittest.TestCase):
    def test_session_hello_declares_the_capabilities_and_prepare(self):
        r = Running(lambda p, c: "", prepare=lambda req: None, caps=[Capability("sliding", max_size=9), {"kind": "hanoi", "maxSize": 12, "prepare": False}])
        self.assertEqual(r.hello, {"type": "hello", "protocol": 2, "name": "t", "version": "1", "capabilities": [
            {"kind": "sliding", "maxSize": 9, "prepare": True}, {"kind": "hanoi", "maxSize": 12}], "reuse": True})
        r.stop()
        self.assertEqual(r.why, "bye: done")
        self.assertTrue(r.channel.closed)

    def test_session_hello_without_prepare_does_not_declare_it(self):
        r = Running(lambda p, c: "")
        self.assertEqual(r.hello["capabilities"], [{"kind": "sliding"}, {"kind": "swaps"}])
        r.stop()

    def test_session_bad_definitions_are_refused_before_connecting(self):
        for name, version, caps in [("", "1", ["sliding"]), ("x" * 201, "1", ["sliding"]), ("t", "v" * 201, ["sliding"]),
                                    ("t", "1", []), ("t", "1", ["chess"]), ("t", "1", [Capability("sliding", max_size=0)]),
                                    ("t", "1", ["sliding"] * 65), ("\U0001F600" * 101, "1", ["sliding"])]:
            with self.assertRaises(ValueError):
                Bot(name, version, caps, lambda p, c: "")

    def test_session_a_whole_answer_is_one_final_chunk_with_info(self):
        r = Running(lambda p, c: Answer("RR", optimal=True, nodes=12, note="bfs"))
        r.channel.push(solve_msg("a"))
        m = r.channel.next()
        self.assertEqual((m["type"], m["id"], m["moves"], m["final"]), ("moves", "a", "RR", True))
        self.assertEqual((m["info"]["optimal"], m["info"]["nodes"], m["info"]["note"]), (True, 12, "bfs"))
        self.assertGreaterEqual(m["info"]["computeMs"], 0)
        r.stop()

    def test_session_swap_pairs_from_tuples_are_sent_as_lists(self):
        r = Running(lambda p, c: [(3, 4), (6, 7)])
        r.channel.push(solve_msg("a", SWAPS))
        self.assertEqual(r.channel.next()["moves"], [[3, 4], [6, 7]])
        r.stop()

    def test_session_long_answers_are_chunked_under_the_welcome_payload(self):
        moves = "RDLU" * 5000
        pairs = [[i, i + 1] for i in range(1, 3000)]
        r = Running(lambda p, c: moves if p["kind"] == "sliding" else pairs)
        r.channel.push({"type": "welcome", "protocol": 1, "session": "s", "limits": {"maxPayload": 4096}})
        for rid, puzzle, whole in (("a", SLIDING, moves), ("b", SWAPS, pairs)):
            r.channel.push(solve_msg(rid, puzzle))
            got = [] if isinstance(whole, list) else ""
            while True:
                m = r.channel.next()
                self.assertEqual(m["id"], rid)
                import json
                self.assertLessEqual(len(json.dumps(m, separators=(",", ":"))), 4096)
                got = got + m["moves"]
                if m["final"]:
                    break
            self.assertEqual(got, whole)
        r.stop()

    def test_session_a_generator_streams_and_ends_with_an_empty_final_chunk(self):
        def solve(p, c):
            if p["kind"] == "swaps":
                yield [[3, 4]]
                yield [(6, 7)]
            else:
                yield "RD"
                yield "LU"
        r = Running(solve)
        r.channel.push(solve_msg("a"))
        self.assertEqual([r.channel.next()["moves"] for _ in range(3)], ["RD", "LU", ""])
        r.channel.push(solve_msg("b", SWAPS))
        got = [r.channel.next() for _ in range(3)]
        self.assertEqual([m["moves"] for m in got], [[[3, 4]], [[6, 7]], []])
        self.assertEqual([m["final"] for m in got], [False, False, True])
        r.stop()

    def test_session_an_empty_stream_of_swaps_ends_with_an_empty_list(self):
        r = Running(lambda p, c: iter(()))
        r.channel.push(solve_msg("a", SWAPS))
        self.assertEqual(r.channel.next()["moves"], [])
        r.stop()

    def test_session_give_up_unsupported_none_and_exceptions(self):
        def solve(p, c):
            return {"g": lambda: GiveUp("too hard"), "u": lambda: Unsupported("no"), "n": lambda: None,
                    "r": lambda: (_ for _ in ()).throw(GiveUp("raised")), "x": lambda: 1 / 0, "t": lambda: 42}[c.id]()
        r = Running(solve)
        expect = {"g": ("give-up", "too hard"), "u": ("unsupported", "no"), "n": ("give-up", "the solver returned no answer"),
                  "r": ("give-up", "raised"), "x": ("give-up", "solver threw: ZeroDivisionError: division by zero")}
        for rid, (kind, reason) in expect.items():
            r.channel.push(solve_msg(rid))
            self.assertEqual(r.channel.next(), {"type": kind, "id": rid, "reason": reason})
        r.channel.push(solve_msg("t"))
        m = r.channel.next()
        self.assertEqual(m["type"], "give-up")
        self.assertIn("TypeError", m["reason"])
        r.stop()

    def test_session_info_fields_of_the_wrong_type_are_dropped_and_texts_clipped(self):
        r = Running(lambda p, c: Answer("RR", optimal="yes", nodes=-1, note="\U0001F600" * 6000, compute_ms=float("nan")))
        r.channel.push(solve_msg("a"))
        info = r.channel.next()["info"]
        self.assertNotIn("optimal", info)
        self.assertNotIn("nodes", info)
        self.assertEqual(len(info["note"]), 5000)  # 10,000 UTF-16 units: 5,000 characters outside the BMP
        self.assertGreaterEqual(info["computeMs"], 0)
        r.stop()

    def test_session_cancel_stops_the_search_and_nothing_more_is_sent_for_it(self):
        seen = []

        def solve(p, c):
            if c.id == "slow":
                seen.append(c.wait_cancelled(5))
                return "RR"
            return "DD"
        r = Running(solve)
        r.channel.push(solve_msg("slow"))
        time.sleep(0.1)
        r.channel.push({"type": "cancel", "id": "slow"})
        r.channel.push(solve_msg("next"))
        m = r.channel.next()
        self.assertEqual((m["id"], m["moves"], m["final"]), ("next", "DD", True))
        self.assertTrue(r.channel.nothing())
        self.assertEqual(seen, [True])
        r.stop()

    def test_session_a_queued_request_that_is_cancelled_is_never_solved(self):
        release = threading.Event()
        solved = []

        def solve(p, c):
            solved.append(c.id)
            if c.id == "first":
                release.wait(5)
            return "RR"
        r = Running(solve)
        r.channel.push(solve_msg("first"))
        r.channel.push(solve_msg("second"))
        r.channel.push(solve_msg("third"))
        r.channel.push({"type": "cancel", "id": "second"})
        time.sleep(0.1)
        release.set()
        self.assertEqual([r.channel.next()["id"], r.channel.next()["id"]], ["first", "third"])
        self.assertEqual(solved, ["first", "third"])
        r.stop()

    def test_session_prepare_gets_the_class_and_ready_follows_even_if_it_fails(self):
        got = []

        def prepare(req):
            got.append((req.id, req.kind, req.puzzle_class, req.time_limit_ms))
            if req.puzzle_class == "sliding 4x4":
                raise RuntimeError("no tables")
        r = Running(lambda p, c: "", prepare=prepare)
        r.channel.push({"type": "prepare", "id": "p1", "kind": "sliding", "puzzleClass": "sliding 3x3", "timeLimitMs": 60000})
        self.assertEqual(r.channel.next(), {"type": "ready", "id": "p1"})
        r.channel.push({"type": "prepare", "id": "p2", "kind": "sliding", "puzzleClass": "sliding 4x4", "timeLimitMs": 60000})
        self.assertEqual(r.channel.next(), {"type": "ready", "id": "p2"})
        self.assertEqual(got, [("p1", "sliding", "sliding 3x3", 60000), ("p2", "sliding", "sliding 4x4", 60000)])
        self.assertTrue(any("no tables" in line for line in r.logs))
        r.stop()

    def test_session_a_cancelled_prepare_is_not_answered(self):
        def prepare(req):
            while not req.cancelled:
                time.sleep(0.01)
        r = Running(lambda p, c: "RR", prepare=prepare)
        r.channel.push({"type": "prepare", "id": "p1", "kind": "sliding", "puzzleClass": "sliding 3x3", "timeLimitMs": 60000})
        time.sleep(0.1)
        r.channel.push({"type": "cancel", "id": "p1"})
        r.channel.push(solve_msg("a"))
        self.assertEqual(r.channel.next()["id"], "a")
        r.stop()

    def test_session_malformed_and_unknown_messages_are_ignored(self):
        r = Running(lambda p, c: "RR")
        for bad in ["not json", "[" * 100_000, "[1,2]", '{"type":"solve","id":7}', '{"type":"solve","id":"x"}', '{"type":"future-thing","id":"z"}',
                    {"type": "result", "id": "q", "verdict": "solved", "moves": 2, "timeMs": 1}]:
            r.channel.push(bad)
        r.channel.push(solve_msg("a"))
        self.assertEqual(r.channel.next()["id"], "a")
        self.assertEqual(len(r.logs), 5)
        r.stop()

    def test_session_ends_when_the_connection_closes_and_cancels_the_search(self):
        seen = []
        r = Running(lambda p, c: seen.append(c.wait_cancelled(5)) or "RR")
        r.channel.push(solve_msg("a"))
        time.sleep(0.1)
        r.channel.end("stdin closed")
        r.thread.join(5)
        self.assertEqual(r.why, "stdin closed")
        time.sleep(0.1)
        self.assertEqual(seen, [True])
        self.assertTrue(r.channel.nothing())


if __name__ == "__main__":
    unittest.main()
