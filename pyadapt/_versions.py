"""Which Python versions pyadapt supports: the one list that setup.py (before any compiler
runs) and ``import pyadapt`` check, and that pyproject.toml's requires-python and classifiers
repeat (tests/test_versions.py keeps them equal).

This module imports nothing: setup.py runs it by path, on any interpreter, before pyadapt
can be imported there.
"""
import sys

SUPPORTED_VERSIONS = ((3, 11), (3, 12), (3, 13))


def supported_text():
    return ", ".join("%d.%d" % v for v in SUPPORTED_VERSIONS)


def requires_python():
    """The requires-python specifier of SUPPORTED_VERSIONS (a contiguous range)."""
    lo, hi = SUPPORTED_VERSIONS[0], SUPPORTED_VERSIONS[-1]
    return ">=%d.%d,<%d.%d" % (lo[0], lo[1], hi[0], hi[1] + 1)


def refusal(implementation=None, version=None):
    """One line saying why this interpreter cannot run pyadapt, or None if it can."""
    implementation = implementation or sys.implementation.name
    version = tuple(version or sys.version_info[:3])
    if implementation == "cpython" and version[:2] in SUPPORTED_VERSIONS:
        return None
    this = "CPython" if implementation == "cpython" else implementation
    return ("pyadapt supports CPython %s only; this is %s %s (its C core reads the "
            "interpreter's internal frame and object layouts, which change between versions)"
            % (supported_text(), this, ".".join(map(str, version))))
