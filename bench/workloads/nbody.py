"""N-body simulation of a small made-up planetary system with a leapfrog-style step:
float arithmetic on floats held in lists, pairwise loops, tuple unpacking."""

SIZE = 3_500
TINY = 20

DT = 0.005
G = 39.47841760435743  # 4 pi^2: AU^3 / (solar mass * year^2)


def make_system():
    # (position, velocity, mass) in AU, AU/year, solar masses -- an invented system
    bodies = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 1.0),
        ([0.39, 0.0, 0.01], [0.0, 10.0, 0.0], 1.7e-7),
        ([0.0, 1.0, -0.02], [-6.28, 0.0, 0.1], 3.0e-6),
        ([-5.2, 0.1, 0.0], [0.0, -2.75, 0.02], 9.5e-4),
        ([0.0, -9.5, 0.3], [2.04, 0.0, -0.05], 2.9e-4),
        ([19.2, 1.0, -0.2], [-0.05, 1.43, 0.0], 4.4e-5),
    ]
    # put the centre of mass at rest
    px = py = pz = 0.0
    for _, v, m in bodies:
        px += v[0] * m
        py += v[1] * m
        pz += v[2] * m
    sun_v = bodies[0][1]
    sun_m = bodies[0][2]
    sun_v[0] = -px / sun_m
    sun_v[1] = -py / sun_m
    sun_v[2] = -pz / sun_m
    return bodies


def pairs_of(bodies):
    out = []
    for i in range(len(bodies)):
        for j in range(i + 1, len(bodies)):
            out.append((bodies[i], bodies[j]))
    return out


def advance(bodies, pairs, dt, steps):
    for _ in range(steps):
        for (p1, v1, m1), (p2, v2, m2) in pairs:
            dx = p1[0] - p2[0]
            dy = p1[1] - p2[1]
            dz = p1[2] - p2[2]
            d2 = dx * dx + dy * dy + dz * dz
            mag = dt * G / (d2 * d2 ** 0.5)
            a1 = m2 * mag
            a2 = m1 * mag
            v1[0] -= dx * a1
            v1[1] -= dy * a1
            v1[2] -= dz * a1
            v2[0] += dx * a2
            v2[1] += dy * a2
            v2[2] += dz * a2
        for p, v, _ in bodies:
            p[0] += dt * v[0]
            p[1] += dt * v[1]
            p[2] += dt * v[2]


def energy(bodies, pairs):
    e = 0.0
    for (p1, _, m1), (p2, _, m2) in pairs:
        dx = p1[0] - p2[0]
        dy = p1[1] - p2[1]
        dz = p1[2] - p2[2]
        e -= G * m1 * m2 / (dx * dx + dy * dy + dz * dz) ** 0.5
    for _, v, m in bodies:
        e += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return e


def run(n):
    bodies = make_system()
    pairs = pairs_of(bodies)
    before = energy(bodies, pairs)
    advance(bodies, pairs, DT, n)
    after = energy(bodies, pairs)
    return (before, after)
