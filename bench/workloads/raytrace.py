"""A small ray tracer: spheres and a checkered plane, two point lights, shadows, Phong
highlights and one level of reflection.  Float objects in a Vec class, many small method
calls, polymorphic `intersect` over two shape classes."""

SIZE = 50
TINY = 5
MAX_DEPTH = 2
EPSILON = 1e-6


class Vec:
    def __init__(self, x, y, z):
        self.x = x
        self.y = y
        self.z = z

    def add(self, o):
        return Vec(self.x + o.x, self.y + o.y, self.z + o.z)

    def sub(self, o):
        return Vec(self.x - o.x, self.y - o.y, self.z - o.z)

    def scale(self, k):
        return Vec(self.x * k, self.y * k, self.z * k)

    def mul(self, o):
        return Vec(self.x * o.x, self.y * o.y, self.z * o.z)

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def length(self):
        return self.dot(self) ** 0.5

    def normalized(self):
        return self.scale(1.0 / self.length())


BLACK = Vec(0.0, 0.0, 0.0)


class Ray:
    def __init__(self, origin, direction):
        self.origin = origin
        self.direction = direction

    def at(self, t):
        return self.origin.add(self.direction.scale(t))


class Material:
    def __init__(self, color, diffuse, specular, shininess, reflect):
        self.color = color
        self.diffuse = diffuse
        self.specular = specular
        self.shininess = shininess
        self.reflect = reflect

    def color_at(self, point):
        return self.color


class Checker(Material):
    def __init__(self, color, other, diffuse, specular, shininess, reflect):
        Material.__init__(self, color, diffuse, specular, shininess, reflect)
        self.other = other

    def color_at(self, point):
        if (int(point.x + 1000.0) + int(point.z + 1000.0)) % 2:
            return self.other
        return self.color


class Sphere:
    def __init__(self, center, radius, material):
        self.center = center
        self.radius = radius
        self.material = material

    def intersect(self, ray):
        oc = ray.origin.sub(self.center)
        b = oc.dot(ray.direction)
        c = oc.dot(oc) - self.radius * self.radius
        disc = b * b - c
        if disc < 0.0:
            return None
        root = disc ** 0.5
        t = -b - root
        if t > EPSILON:
            return t
        t = -b + root
        if t > EPSILON:
            return t
        return None

    def normal_at(self, point):
        return point.sub(self.center).normalized()


class Plane:
    def __init__(self, point, normal, material):
        self.point = point
        self.normal = normal.normalized()
        self.material = material

    def intersect(self, ray):
        denom = self.normal.dot(ray.direction)
        if abs(denom) < EPSILON:
            return None
        t = self.point.sub(ray.origin).dot(self.normal) / denom
        return t if t > EPSILON else None

    def normal_at(self, point):
        return self.normal


class Light:
    def __init__(self, position, color):
        self.position = position
        self.color = color


class Scene:
    def __init__(self, objects, lights, ambient):
        self.objects = objects
        self.lights = lights
        self.ambient = ambient

    def nearest(self, ray):
        best_t = None
        best = None
        for obj in self.objects:
            t = obj.intersect(ray)
            if t is not None and (best_t is None or t < best_t):
                best_t = t
                best = obj
        return best, best_t

    def in_shadow(self, point, to_light, distance):
        ray = Ray(point, to_light)
        for obj in self.objects:
            t = obj.intersect(ray)
            if t is not None and t < distance:
                return True
        return False

    def trace(self, ray, depth):
        obj, t = self.nearest(ray)
        if obj is None:
            return BLACK
        point = ray.at(t)
        normal = obj.normal_at(point)
        mat = obj.material
        base = mat.color_at(point)
        color = base.scale(self.ambient)
        for light in self.lights:
            to_light = light.position.sub(point)
            distance = to_light.length()
            to_light = to_light.scale(1.0 / distance)
            lambert = normal.dot(to_light)
            if lambert <= 0.0 or self.in_shadow(point, to_light, distance):
                continue
            color = color.add(base.mul(light.color).scale(mat.diffuse * lambert))
            reflected = normal.scale(2.0 * lambert).sub(to_light)
            spec = -reflected.dot(ray.direction)
            if spec > 0.0:
                color = color.add(light.color.scale(mat.specular * spec ** mat.shininess))
        if depth < MAX_DEPTH and mat.reflect > 0.0:
            d = ray.direction
            bounce = d.sub(normal.scale(2.0 * normal.dot(d)))
            color = color.add(self.trace(Ray(point, bounce), depth + 1).scale(mat.reflect))
        return color


def make_scene():
    red = Material(Vec(0.9, 0.2, 0.2), 0.8, 0.5, 20, 0.2)
    mirror = Material(Vec(0.8, 0.8, 0.9), 0.3, 0.9, 60, 0.7)
    green = Material(Vec(0.2, 0.8, 0.3), 0.9, 0.2, 8, 0.0)
    floor = Checker(Vec(0.9, 0.9, 0.9), Vec(0.1, 0.1, 0.1), 0.7, 0.1, 4, 0.3)
    objects = [
        Sphere(Vec(0.0, 0.0, -5.0), 1.0, red),
        Sphere(Vec(2.0, 0.5, -6.5), 1.5, mirror),
        Sphere(Vec(-2.2, -0.3, -4.5), 0.7, green),
        Plane(Vec(0.0, -1.0, 0.0), Vec(0.0, 1.0, 0.0), floor),
    ]
    lights = [
        Light(Vec(-5.0, 6.0, 0.0), Vec(1.0, 1.0, 1.0)),
        Light(Vec(4.0, 3.0, -1.0), Vec(0.5, 0.4, 0.3)),
    ]
    return Scene(objects, lights, 0.1)


def render(scene, width, height):
    eye = Vec(0.0, 0.5, 1.0)
    pixels = []
    for row in range(height):
        y = 1.0 - 2.0 * (row + 0.5) / height
        for col in range(width):
            x = (2.0 * (col + 0.5) / width - 1.0) * width / height
            direction = Vec(x, y - 0.5, -1.5).normalized()
            c = scene.trace(Ray(eye, direction), 0)
            pixels.append((min(int(c.x * 255.0), 255), min(int(c.y * 255.0), 255),
                           min(int(c.z * 255.0), 255)))
    return pixels


def run(n):
    pixels = render(make_scene(), n, n)
    checksum = 0
    for r, g, b in pixels:
        checksum = (checksum * 33 + r * 65536 + g * 256 + b) % 4_294_967_291
    return len(pixels), checksum
