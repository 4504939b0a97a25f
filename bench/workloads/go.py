"""Board-game search: Monte-Carlo move choice on a 5x5 Go board.  Candidate moves are
chosen for playouts by UCB1 and scored by random playouts to the end of the game (captures, suicide and simple ko
rules, no filling of one's own eyes, area scoring).  List-of-cells board, flood fills
with explicit stacks, a seeded linear congruential generator, many small method calls."""

SIZE = 40
TINY = 3

from math import log, sqrt

EMPTY, BLACK, WHITE = 0, 1, 2
BOARD = 5
KOMI = 1.5


def other(color):
    return 3 - color


class Rng:
    """A linear congruential generator, so that every run sees the same numbers."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def make_neighbours(size):
    table = []
    for pos in range(size * size):
        row, col = divmod(pos, size)
        near = []
        if row > 0:
            near.append(pos - size)
        if row < size - 1:
            near.append(pos + size)
        if col > 0:
            near.append(pos - 1)
        if col < size - 1:
            near.append(pos + 1)
        table.append(tuple(near))
    return table


NEIGHBOURS = make_neighbours(BOARD)


class Board:
    def __init__(self, size=BOARD):
        self.size = size
        self.cells = [EMPTY] * (size * size)
        self.to_move = BLACK
        self.ko = -1
        self.passes = 0
        self.moves = 0

    def copy(self):
        b = Board.__new__(Board)
        b.size = self.size
        b.cells = self.cells[:]
        b.to_move = self.to_move
        b.ko = self.ko
        b.passes = self.passes
        b.moves = self.moves
        return b

    def group_liberties(self, pos, limit):
        """Stones of pos's group and up to `limit` of its liberties."""
        cells = self.cells
        color = cells[pos]
        stones = [pos]
        seen = {pos}
        liberties = set()
        i = 0
        while i < len(stones):
            for n in NEIGHBOURS[stones[i]]:
                c = cells[n]
                if c == EMPTY:
                    liberties.add(n)
                    if len(liberties) >= limit:
                        return stones, liberties
                elif c == color and n not in seen:
                    seen.add(n)
                    stones.append(n)
            i += 1
        return stones, liberties

    def legal(self, pos, color):
        cells = self.cells
        if cells[pos] != EMPTY or pos == self.ko:
            return False
        enemy = other(color)
        for n in NEIGHBOURS[pos]:
            c = cells[n]
            if c == EMPTY:
                return True
            _, libs = self.group_liberties(n, 2)
            if c == enemy and len(libs) == 1:
                return True  # captures
            if c == color and len(libs) > 1:
                return True  # connects to a group with another liberty
        return False

    def is_own_eye(self, pos, color):
        for n in NEIGHBOURS[pos]:
            if self.cells[n] != color:
                return False
        return True

    def play(self, pos):
        color = self.to_move
        enemy = other(color)
        cells = self.cells
        cells[pos] = color
        captured = []
        for n in NEIGHBOURS[pos]:
            if cells[n] == enemy:
                stones, libs = self.group_liberties(n, 1)
                if not libs:
                    for s in stones:
                        cells[s] = EMPTY
                    captured.extend(stones)
        self.ko = -1
        if len(captured) == 1:
            stones, libs = self.group_liberties(pos, 2)
            if len(stones) == 1 and len(libs) == 1:
                self.ko = captured[0]
        self.to_move = enemy
        self.passes = 0
        self.moves += 1

    def pass_move(self):
        self.to_move = other(self.to_move)
        self.passes += 1
        self.ko = -1
        self.moves += 1

    def candidates(self, color):
        return [p for p in range(len(self.cells))
                if self.legal(p, color) and not self.is_own_eye(p, color)]

    def playout(self, rng, max_moves):
        while self.passes < 2 and self.moves < max_moves:
            color = self.to_move
            empties = [p for p, c in enumerate(self.cells) if c == EMPTY]
            played = False
            while empties:
                k = rng.below(len(empties))
                pos = empties[k]
                empties[k] = empties[-1]
                empties.pop()
                if self.legal(pos, color) and not self.is_own_eye(pos, color):
                    self.play(pos)
                    played = True
                    break
            if not played:
                self.pass_move()

    def score(self):
        """Area score, black minus white minus komi."""
        total = -KOMI
        for pos, c in enumerate(self.cells):
            if c == BLACK:
                total += 1
            elif c == WHITE:
                total -= 1
            else:
                near = {self.cells[n] for n in NEIGHBOURS[pos]}
                if near == {BLACK}:
                    total += 1
                elif near == {WHITE}:
                    total -= 1
        return total


def choose_move(board, rng, playouts):
    color = board.to_move
    moves = board.candidates(color)
    if not moves:
        return -1, 0
    wins = dict.fromkeys(moves, 0)
    tries = dict.fromkeys(moves, 0)
    for k in range(playouts):
        if k < len(moves):
            move = moves[k]
        else:
            log_k = log(k)
            move = max(moves, key=lambda m: wins[m] / tries[m] + sqrt(2.0 * log_k / tries[m]))
        b = board.copy()
        b.play(move)
        b.playout(rng, 3 * BOARD * BOARD)
        s = b.score()
        if (s > 0) == (color == BLACK):
            wins[move] += 1
        tries[move] += 1
    best = max(moves, key=lambda m: (tries[m], -m))
    return best, wins[best]


def run(n):
    board = Board()
    rng = Rng(2024)
    record = []
    for _ in range(4):
        move, won = choose_move(board, rng, n)
        record.append((move, won))
        if move < 0:
            board.pass_move()
        else:
            board.play(move)
    return record, board.cells.count(BLACK), board.cells.count(WHITE)
