"""An in-memory channel for unit tests of the session: the test plays the referee."""
import json
import queue
import threading


class FakeChannel:
    def __init__(self):
        self.sent = queue.Queue()
        self.deliver = None
        self.closed = False
        self.started = threading.Event()

    def start(self, deliver):
        self.deliver = deliver
        self.started.set()

    def send(self, message):
        # Round-trip through JSON, as the wire would: what the referee gets is what was encoded.
        self.sent.put(json.loads(json.dumps(message)))

    def close(self):
        self.closed = True

    # The referee's side.
    def push(self, message):
        self.started.wait(5)
        self.deliver(("message", message if isinstance(message, str) else json.dumps(message)))

    def end(self, why="closed"):
        self.started.wait(5)
        self.deliver(("closed", why))

    def next(self, timeout=5):
        return self.sent.get(timeout=timeout)

    def nothing(self, wait=0.2):
        try:
            got = self.sent.get(timeout=wait)
        except queue.Empty:
            return True
        raise AssertionError("expected nothing, got %r" % (got,))
