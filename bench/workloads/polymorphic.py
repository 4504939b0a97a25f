"""A deliberately polymorphic workload, to show what guards, misses and deopts cost:
one `+` site sees int, float and str operands (and int+float), one call site and one
attribute site see four classes, and the phases change the dominant type under
already-specialized instructions."""

SIZE = 80_000
TINY = 100


class Circle:
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.0 * self.r * self.r

    def grow(self, k):
        self.r = self.r + k


class Square:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side

    def grow(self, k):
        self.side = self.side + k


class Rect:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    def grow(self, k):
        self.w = self.w + k


class Label:
    def __init__(self, text):
        self.text = text

    def area(self):
        return len(self.text)

    def grow(self, k):
        self.text = self.text + "x"


def combine(a, b):
    return a + b


def scaled(a, k):
    return a * k


PAIRS = ((1, 2), (1.5, 2.25), ("ab", "c"), (3, 0.5), (2.0, 7), ((1,), (2,)))


def run(n):
    shapes = [Circle(1.0), Square(2), Rect(1.5, 2), Label("box"), Circle(2), Square(0.5)]
    total = 0.0
    text = 0
    mixed = 0
    # phase 1: the combine site sees a mixture of types on every iteration
    for i in range(n):
        a, b = PAIRS[i % len(PAIRS)]
        r = combine(a, b)
        if type(r) is str or type(r) is tuple:
            text += len(r)
        else:
            mixed += r
        s = shapes[i % len(shapes)]
        total += s.area()
        if i % 97 == 0:
            s.grow(1)
    # phase 2: long runs of one type, then a switch: specialized sites deopt and respecialize
    runs = 0
    for phase in range(8):
        k = (2, 2.5, "s", 3)[phase % 4]
        acc = k * 0
        for i in range(n // 16):
            acc = combine(acc, scaled(k, 1))
        runs += len(acc) if isinstance(acc, str) else acc
    return round(total, 6), text, round(mixed, 6), round(runs, 6)
