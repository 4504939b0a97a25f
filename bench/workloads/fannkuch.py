"""Fannkuch: for every permutation of 0..n-1, flip the prefix whose length the first
element gives until a 0 comes first; count flips.  List indexing, slice assignment with
a reversed slice, small-int arithmetic."""

SIZE = 8
TINY = 5


def run(n):
    perm = list(range(n))
    count = [0] * n
    max_flips = 0
    checksum = 0
    sign = 1
    while True:
        first = perm[0]
        if first:
            p = perm[:]
            flips = 0
            while first:
                p[: first + 1] = p[first::-1]
                flips += 1
                first = p[0]
            if flips > max_flips:
                max_flips = flips
            checksum += sign * flips
        # next permutation in the order of the "counting" scheme: rotate the first i+1
        # elements left by one, with count[] as a mixed-radix counter
        sign = -sign
        i = 1
        while True:
            if i == n:
                return checksum, max_flips
            head = perm[0]
            perm[:i] = perm[1 : i + 1]
            perm[i] = head
            count[i] += 1
            if count[i] <= i:
                break
            count[i] = 0
            i += 1
