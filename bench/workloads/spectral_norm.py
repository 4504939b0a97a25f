"""Spectral norm of the infinite matrix A(i, j) = 1 / ((i + j) * (i + j + 1) / 2 + i + 1),
by the power method on A^T A: nested loops, int index arithmetic, float division and
accumulation, a small function called in the inner loop."""

SIZE = 90
TINY = 8
ITERATIONS = 10


def entry(i, j):
    s = i + j
    return 1.0 / (s * (s + 1) // 2 + i + 1)


def times(v):
    n = len(v)
    out = []
    for i in range(n):
        acc = 0.0
        for j in range(n):
            acc += entry(i, j) * v[j]
        out.append(acc)
    return out


def times_transposed(v):
    n = len(v)
    out = []
    for i in range(n):
        acc = 0.0
        for j in range(n):
            acc += entry(j, i) * v[j]
        out.append(acc)
    return out


def run(n):
    u = [1.0] * n
    v = u
    for _ in range(ITERATIONS):
        v = times_transposed(times(u))
        u = times_transposed(times(v))
    vbv = 0.0
    vv = 0.0
    for a, b in zip(u, v):
        vbv += a * b
        vv += b * b
    return round((vbv / vv) ** 0.5, 9)
