"""An example bot in Python, on the SDK in sdk/python (package puzzle_arena).

- sliding boards of up to 9 cells (2x2, 2x3, 3x2, 3x3): optimal. The warm-up (`prepare`, untimed) runs one
  breadth-first search from the goal over every position of the board's shape (181,440 for 3x3, about a
  second in CPython) and keeps each position's distance; a timed solve then only walks downhill.
- swaps of any size: optimal, n minus the number of cycles. Each piece is swapped with the piece sitting on
  its home cell; long answers are streamed, chunk by chunk, from a generator.

Install the SDK into this folder (a bot may see nothing but its own folder), then register and check it:

    python3 -m pip install --no-index --target examples/python-bot ./sdk/python
    npx arena bot add py-example --cmd "python3 bot.py" --cwd examples/python-bot --stdio
    npx arena bot check py-example
    npx arena match py-example reference-bfs --puzzle sliding --size 3

(from the checkout; a bot of your own lives in a folder outside it, as the README's first bot shows).
"""
from collections import deque

from puzzle_arena import Answer, Capability, Unsupported, run_bot

# Where the blank goes, and the step of its index on a board with `cols` columns.
MOVES = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))
tables = {}  # (rows, cols) -> {position: moves to the goal}


def neighbours(state, rows, cols):
    """Every (letter, next position) of one blank move."""
    blank = state.index(0)
    r, c = divmod(blank, cols)
    for letter, dr, dc in MOVES:
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            j = blank + dr * cols + dc
            t = list(state)
            t[blank], t[j] = t[j], 0
            yield letter, tuple(t)


def distances(rows, cols, cancelled=lambda: False):
    """Moves to the goal from every reachable position: one breadth-first search outwards from the goal."""
    goal = tuple(list(range(1, rows * cols)) + [0])
    dist = {goal: 0}
    frontier = deque([goal])
    while frontier and not cancelled():
        s = frontier.popleft()
        for _, t in neighbours(s, rows, cols):
            if t not in dist:
                dist[t] = dist[s] + 1
                frontier.append(t)
    return dist


def prepare(request):
    """The untimed warm-up: build the table of the class ("sliding 3x3") before its first timed solve."""
    if request.kind == "sliding":
        rows, cols = map(int, request.puzzle_class.split()[1].split("x"))
        if rows * cols <= 9 and (rows, cols) not in tables:
            tables[(rows, cols)] = distances(rows, cols, lambda: request.cancelled)


def solve_sliding(p, ctx):
    rows, cols = p["rows"], p["cols"]
    if rows * cols > 9:
        raise Unsupported("sliding boards of at most 9 cells")
    if (rows, cols) not in tables:  # a class the warm-up did not see: build it now, on the clock
        tables[(rows, cols)] = distances(rows, cols, lambda: ctx.cancelled)
    dist = tables[(rows, cols)]
    state, path = tuple(p["tiles"]), []
    while dist[state] > 0:
        letter, state = next((m, t) for m, t in neighbours(state, rows, cols) if dist[t] == dist[state] - 1)
        path.append(letter)
    return Answer("".join(path), optimal=True, nodes=len(dist), note="distance table of %dx%d" % (rows, cols))


def solve_swaps(p):
    """Swap pairs, 100,000 to a chunk: a generator, so a million-piece board streams as it is solved."""
    tiles = list(p["tiles"])
    where = {piece: i for i, piece in enumerate(tiles)}
    chunk = []
    for i in range(len(tiles)):
        while tiles[i] != i + 1:
            a, b = tiles[i], i + 1  # the piece here, and the piece whose home this is
            j = where[b]
            tiles[i], tiles[j] = b, a
            where[a], where[b] = j, i
            chunk.append((a, b))
            if len(chunk) == 100_000:
                yield chunk
                chunk = []
    yield chunk


def solve(puzzle, ctx):
    if puzzle["kind"] == "sliding":
        return solve_sliding(puzzle, ctx)
    if puzzle["kind"] == "swaps":
        return Answer(solve_swaps(puzzle), optimal=True)
    raise Unsupported("sliding and swaps only")


run_bot(
    name="py-example",
    version="1.0",
    capabilities=[Capability("sliding", max_size=3), Capability("swaps", prepare=False)],
    solve=solve,
    prepare=prepare,
)
