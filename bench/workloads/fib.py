"""Recursive calls: naive Fibonacci, almost nothing but Python-to-Python calls and
small-int arithmetic and comparisons."""

SIZE = 28
TINY = 12


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def run(n):
    return fib(n)
