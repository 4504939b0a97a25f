"""The loop from LWN's article on CPython 3.11's specializing interpreter.

`Point.shifted` reads two float attributes, adds two floats, looks up `type` (a builtin)
and calls the class: attribute loads on instances, float arithmetic, a builtin call and a
class call, all at monomorphic sites.
"""

SIZE = 200_000
TINY = 200


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def shifted(self, dx, dy):
        cls = type(self)
        return cls(self.x + dx, self.y + dy)


def run(n):
    p = Point(0.0, 0.0)
    for _ in range(n):
        p = p.shifted(0.5, -0.25)
    return (p.x, p.y)
