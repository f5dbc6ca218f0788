"""wire - chunking, clipping and the checks that keep every message inside PROTOCOL.md's bounds."""
import json
import random
import unittest

from puzzle_arena import wire


class WireTest(unittest.TestCase):
    def test_wire_chunks_concatenate_back_and_respect_the_size_over_many_seeds(self):
        for seed in range(300):
            rng = random.Random(seed)
            text = "".join(rng.choice("UDLR 0123456789") for _ in range(rng.randrange(0, 3000)))
            size = rng.randrange(1, 400)
            parts = list(wire.chunked(text, size))
            self.assertEqual("".join(parts), text)
            self.assertTrue(all(len(p) <= size for p in parts))
            self.assertTrue(all(parts[:-1]), "no empty chunk but possibly the last")
            pairs = [[rng.randrange(1, 99), rng.randrange(1, 99)] for _ in range(rng.randrange(0, 500))]
            got = [q for part in wire.chunked(pairs, size) for q in part]
            self.assertEqual(got, pairs)

    def test_wire_a_string_is_cut_after_a_space_near_the_cut(self):
        self.assertEqual(list(wire.chunked("17U 4L 3D", 8)), ["17U 4L ", "3D"])
        self.assertEqual(list(wire.chunked("ABCDEFGH", 3)), ["ABC", "DEF", "GH"])

    def test_wire_an_empty_answer_is_one_empty_chunk(self):
        self.assertEqual(list(wire.chunked("", 10)), [""])
        self.assertEqual(list(wire.chunked([], 10)), [[]])

    def test_wire_clip_counts_utf16_units_as_the_referee_does(self):
        self.assertEqual(wire.clip("abc", 2), "ab")
        self.assertEqual(wire.clip("\U0001F600" * 3, 5), "\U0001F600" * 2)
        self.assertEqual(wire.clip("x" * 10, 10), "x" * 10)
        self.assertEqual(wire.clip(12, 10), "12")

    def test_wire_messages_are_one_ascii_line(self):
        line = wire.encode({"type": "give-up", "id": "a", "reason": "line\nbreak \u00e9 \U0001F600"})
        self.assertNotIn(b"\n", line)
        line.decode("ascii")
        self.assertEqual(json.loads(line)["reason"], "line\nbreak \u00e9 \U0001F600")

    def test_wire_moves_are_checked_before_they_leave(self):
        self.assertEqual(wire.checked_moves("RR"), "RR")
        self.assertEqual(wire.checked_moves(((1, 2), [3, 4])), [[1, 2], [3, 4]])
        for bad in (42, b"RR", [[1]], [[1, 2, 3]], [[True, 2]], [["1", 2]], [[1.5, 2]], {"a": 1}):
            with self.assertRaises(TypeError):
                wire.checked_moves(bad)

    def test_wire_chunks_or_whole_answers_are_told_apart_like_the_typescript_sdk(self):
        self.assertFalse(wire.is_chunks("RR"))
        self.assertFalse(wire.is_chunks([[1, 2], [3, 4]]))
        self.assertFalse(wire.is_chunks([]))
        self.assertTrue(wire.is_chunks(["RR", "DD"]))
        self.assertTrue(wire.is_chunks([[[1, 2]], [[3, 4]]]))
        self.assertTrue(wire.is_chunks(iter(["RR"])))
        self.assertTrue(wire.is_chunks(x for x in ["RR"]))

    def test_wire_info_keeps_only_valid_fields(self):
        self.assertEqual(wire.info(True, 5, "n", 1.5, 9), {"computeMs": 1.5, "optimal": True, "nodes": 5, "note": "n"})
        self.assertEqual(wire.info(1, True, None, -3, 2.0), {"computeMs": 2.0})
        self.assertEqual(wire.info(None, float("inf"), None, None, -1), {"computeMs": 0.0})

    def test_wire_chunk_sizes_follow_the_payload_limit(self):
        self.assertEqual(wire.chunk_sizes(wire.MAX_PAYLOAD), {"chars": 1024 * 1024, "pairs": 100_000})
        self.assertEqual(wire.chunk_sizes(4000), {"chars": 1000, "pairs": 100})


class HelloReuseTest(unittest.TestCase):
    def test_wire_hello_says_reuse_by_default_and_not_when_the_bot_opts_out(self):
        self.assertIs(wire.hello("b", "1", ["sliding"], False)["reuse"], True)
        self.assertNotIn("reuse", wire.hello("b", "1", ["sliding"], False, reuse=False))


if __name__ == "__main__":
    unittest.main()
