"""Dict- and list-heavy code: word counting with dict.get and setdefault, an inverted
index of lists, list append/pop/insert as a stack and a queue, sorting with a key, list
and dict comprehensions, subscript loads and stores."""

SIZE = 30_000
TINY = 50

SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "so", "ti", "va", "xe", "zu")


def words(n):
    state = 12345
    out = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        k = 1 + state % 3
        w = ""
        s = state >> 4
        for _ in range(k):
            w += SYLLABLES[s % len(SYLLABLES)]
            s //= len(SYLLABLES)
        out.append(w)
    return out


def run(n):
    ws = words(n)
    counts = {}
    for w in ws:
        counts[w] = counts.get(w, 0) + 1
    index = {}
    for pos, w in enumerate(ws):
        index.setdefault(w[:2], []).append(pos)
    lengths = {w: len(w) for w in counts}
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    # a stack and a queue of positions
    stack = []
    queue = []
    checksum = 0
    for i, w in enumerate(ws):
        if lengths[w] > 4:
            stack.append(i)
        elif stack:
            checksum += stack.pop()
        queue.append(counts[w])
        if len(queue) > 16:
            checksum += queue.pop(0)
    grid = [[0] * 16 for _ in range(16)]
    for i, w in enumerate(ws):
        row = i % 16
        col = counts[w] % 16
        grid[row][col] += 1
    diagonal = [grid[i][i] for i in range(16)]
    spans = {k: v[-1] - v[0] for k, v in index.items()}
    return top, checksum, diagonal, sorted(spans.items())[:3], len(index)
