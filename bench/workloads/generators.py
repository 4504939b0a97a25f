"""Generators: a recursive in-order tree walk delegating with `yield from`, filter and
map stages as generator functions, a sliding-window generator, generator expressions
consumed by sum/max, and `yield from` over plain iterables."""

SIZE = 12_000
TINY = 40


class Node:
    def __init__(self, value, left, right):
        self.value = value
        self.left = left
        self.right = right


def build(values, lo, hi):
    if lo >= hi:
        return None
    mid = (lo + hi) // 2
    return Node(values[mid], build(values, lo, mid), build(values, mid + 1, hi))


def inorder(node):
    if node is not None:
        yield from inorder(node.left)
        yield node.value
        yield from inorder(node.right)


def evens(it):
    for x in it:
        if x % 2 == 0:
            yield x


def squares(it):
    for x in it:
        yield x * x


def windows(it, k):
    window = []
    for x in it:
        window.append(x)
        if len(window) == k:
            yield sum(window)
            window.pop(0)


def chained(*iterables):
    for it in iterables:
        yield from it


def run(n):
    values = [(i * 7919) % (4 * n) for i in range(n)]
    values.sort()
    tree = build(values, 0, len(values))
    walked = sum(1 for _ in inorder(tree))
    even_sq = sum(squares(evens(inorder(tree))))
    biggest_window = max(windows(inorder(tree), 8))
    mixed = sum(x for x in chained(range(n), values[: n // 2], (v // 3 for v in values)) if x & 1)
    return walked, even_sq, biggest_window, mixed
