"""Loops dominated by global and builtin name lookups: module constants, module-level
functions and tables, and builtins (len, abs, min, max, isinstance, divmod, ord, chr)."""

SIZE = 50_000
TINY = 100

MODULUS = 1_000_003
SCALE = 7
OFFSET = 13
LIMIT = 500
TABLE = (3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9)
ALPHABET = "abcdefghijklmnopqrstuvwxyz"
counter = 0


def mix(a, b):
    return (a * SCALE + b + OFFSET) % MODULUS


def bump():
    global counter
    counter += 1
    return counter


def run(n):
    global counter
    counter = 0
    total = 0
    letters = 0
    for i in range(n):
        t = TABLE[i % len(TABLE)]
        q, r = divmod(i, len(ALPHABET))
        total = mix(total, abs(t - OFFSET) + min(i, LIMIT) + max(r, t))
        if isinstance(total, int) and total & 1:
            bump()
        letters += ord(ALPHABET[r]) - ord(chr(97 + (q % 26)))
    return total, counter, letters
