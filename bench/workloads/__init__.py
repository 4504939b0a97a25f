"""The workloads of pyadapt's benchmark suite, written for this project.

Each module has ``run(n)`` -- deterministic, returning a value that checks the work --
``SIZE``, the size one benchmark call uses (about 20-100 ms natively on the reference
machine), and ``TINY``, a size for the smoke test.  The modules run unchanged on CPython
3.10 and 3.11 and import nothing from pyadapt.
"""
import importlib

NAMES = (
    "point_shifted",
    "nbody",
    "richards",
    "spectral_norm",
    "fannkuch",
    "raytrace",
    "nqueens",
    "deltablue",
    "go",
    "fib",
    "globals_builtins",
    "strings",
    "dict_list",
    "generators",
    "coroutines",
    "polymorphic",
)


def load(name):
    if name not in NAMES:
        raise KeyError("no workload %r (have: %s)" % (name, ", ".join(NAMES)))
    return importlib.import_module(__name__ + "." + name)


def load_all():
    return [load(name) for name in NAMES]
