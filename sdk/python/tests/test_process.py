"""run_bot - a real bot process over stdio, and the errors of a bot started wrongly."""
import json
import os
import subprocess
import sys
import textwrap
import unittest

SDK = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOT = textwrap.dedent(
    """
    import os, sys
    sys.path.insert(0, %r)
    from puzzle_arena import run_bot

    def solve(puzzle, ctx):
        print("a debug print")                   # must not reach the protocol stream
        os.write(1, b"raw write to fd 1\\n")      # nor a write below Python
        try:
            input()                              # nor may input() swallow a message
        except EOFError:
            pass
        return "RR"

    run_bot(name="proc", version="1", capabilities=["sliding"], solve=solve)
    print("after run_bot")
    """
    % SDK
)

SOLVE = {"type": "solve", "id": "a", "puzzle": {"kind": "sliding", "rows": 3, "cols": 3, "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8]}, "timeLimitMs": 5000, "maxMoves": 10}


def start(env):
    return subprocess.Popen([sys.executable, "-c", BOT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


class ProcessTest(unittest.TestCase):
    def test_process_stdout_carries_only_the_protocol(self):
        p = start(dict(os.environ, ARENA_STDIO="1"))
        hello = json.loads(p.stdout.readline())
        self.assertEqual(hello["type"], "hello")
        p.stdin.write((json.dumps(SOLVE) + "\r\n\n").encode())  # a trailing \r and an empty line are tolerated
        p.stdin.flush()
        answer = json.loads(p.stdout.readline())
        self.assertEqual((answer["id"], answer["moves"], answer["final"]), ("a", "RR", True))
        p.stdin.write(b'{"type":"bye"}\n')
        p.stdin.close()
        rest, err = p.stdout.read(), p.stderr.read().decode()
        p.stdout.close()
        p.stderr.close()
        self.assertEqual(p.wait(10), 0)
        self.assertEqual(rest, b"")
        for text in ("a debug print", "raw write to fd 1", "after run_bot"):
            self.assertIn(text, err)

    def test_process_exits_when_stdin_closes(self):
        p = start(dict(os.environ, ARENA_STDIO="1"))
        p.stdout.readline()
        p.communicate(timeout=10)  # closes stdin, reads to the end
        self.assertEqual(p.returncode, 0)

    def test_process_started_by_hand_says_how_it_is_started(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        p = subprocess.run([sys.executable, "-c", BOT], env=env, capture_output=True, timeout=30)
        self.assertEqual(p.returncode, 2)
        self.assertIn(b"set ARENA_URL and ARENA_TOKEN (or ARENA_STDIO=1)", p.stderr)

    def test_process_websocket_without_the_websockets_package_is_a_clear_error(self):
        env = {k: v for k, v in os.environ.items() if k not in ("ARENA_STDIO", "PYTHONPATH")}
        env.update(ARENA_URL="ws://127.0.0.1:9/", ARENA_TOKEN="t")
        # -S: no site-packages, so the websockets package is absent even where it is installed.
        p = subprocess.run([sys.executable, "-S", "-c", BOT], env=env, capture_output=True, timeout=30)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(b"WebSocket bots need the websockets package", p.stderr)
        self.assertEqual(p.stderr.count(b"\n"), 1, "one line, no traceback")

    def test_process_a_bad_definition_is_one_line_and_exit_2(self):
        bad = BOT.replace('capabilities=["sliding"]', 'capabilities=["chess"]')
        p = subprocess.run([sys.executable, "-c", bad], env=dict(os.environ, ARENA_STDIO="1"), capture_output=True, timeout=30)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stdout, b"")
        self.assertIn(b"capability kind must be one of", p.stderr)


if __name__ == "__main__":
    unittest.main()
