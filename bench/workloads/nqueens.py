"""N-queens: every solution, as tuples of columns, from a recursive generator that keeps
the attacked columns and diagonals in sets.  Generator creation and resumption, set
membership, add and discard, tuple concatenation."""

SIZE = 10
TINY = 5


def placements(n, row, cols, diag_down, diag_up):
    if row == n:
        yield ()
        return
    for col in range(n):
        if col in cols or (row - col) in diag_down or (row + col) in diag_up:
            continue
        cols.add(col)
        diag_down.add(row - col)
        diag_up.add(row + col)
        for rest in placements(n, row + 1, cols, diag_down, diag_up):
            yield (col,) + rest
        cols.discard(col)
        diag_down.discard(row - col)
        diag_up.discard(row + col)


def run(n):
    solutions = list(placements(n, 0, set(), set(), set()))
    # a checkable digest: the count, the first and last solution, a column histogram
    histogram = [0] * n
    for sol in solutions:
        histogram[sol[0]] += 1
    return len(solutions), solutions[0], solutions[-1], tuple(histogram)
