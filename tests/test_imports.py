"""Imports: import / from-import / star-import (module level, via exec), relative imports, errors.

A throwaway package is written to a temporary directory; factories drop it from sys.modules
before every run, so each run executes the import machinery (frozen importlib, Python code) and
the package's module bodies afresh.
"""

import os
import sys
import textwrap

import pytest

from harness import collect, factory, run_case

PKG = "pyadapt_testpkg"

FILES = {
    "__init__.py": """
        print("init", __name__)
        VALUE = 1
        _private = 2
        __all__ = ["VALUE", "helper"]

        def helper():
            return "helper from " + __name__
    """,
    "sub.py": """
        from . import VALUE
        from .inner import deep as renamed
    """,
    "sub2.py": """
        from . import VALUE
        from .inner import deep as renamed
        X = VALUE + 1
        print("sub2 sees", __package__, X)
    """,
    "inner.py": """
        def deep():
            return "deep"
        not_exported = 1
    """,
    "broken.py": """
        value = 1
        raise ValueError("broken module body")
    """,
    "circ_a.py": """
        from .circ_b import b_value
        a_value = 1
    """,
    "circ_b.py": """
        from .circ_a import a_value
        b_value = 2
    """,
    "beyond.py": """
        from ... import something
    """,
    "noall.py": """
        public = 1
        _hidden = 2
        def fn():
            return public
    """,
}


@pytest.fixture(scope="module", autouse=True)
def package_on_path(tmp_path_factory):
    root = tmp_path_factory.mktemp("imports")
    pkg = root / PKG
    pkg.mkdir()
    for name, text in FILES.items():
        (pkg / name).write_text(textwrap.dedent(text))
    sys.path.insert(0, str(root))
    yield root
    sys.path.remove(str(root))
    _forget_package()


def _forget_package():
    for name in list(sys.modules):
        if name == PKG or name.startswith(PKG + "."):
            del sys.modules[name]


def attempt(thunk):
    try:
        return thunk()
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))


def case_import_stdlib():
    import math
    import os.path
    import os.path as osp
    import collections.abc as cabc
    from json import dumps, loads as parse

    return math.sqrt(16.0), os.path.join("a", "b"), osp is os.path, cabc.Sequence.__name__, parse(dumps({"a": [1]}))


def case_import_binds_locally():
    import string

    def inner():
        import string as s2

        return s2 is string

    return string.ascii_lowercase[:3], inner(), "string" in locals()


@factory
def case_fresh_package_import():
    def run():
        import pyadapt_testpkg
        from pyadapt_testpkg import helper, VALUE
        from pyadapt_testpkg.inner import deep
        import pyadapt_testpkg.sub2 as sub2

        return helper(), VALUE, deep(), sub2.X, sub2.renamed(), pyadapt_testpkg.sub2 is sub2, sorted(k for k in vars(pyadapt_testpkg) if not k.startswith("__"))

    _forget_package()
    return run


@factory
def case_star_import_module_level_via_exec():
    def run():
        ns = {"__name__": "star_target"}
        exec("from pyadapt_testpkg import *\nfrom pyadapt_testpkg.noall import *\nfrom math import *\n", ns)
        return sorted(k for k in ns if k in ("VALUE", "helper", "_private", "public", "_hidden", "fn", "pi", "sqrt")), ns["fn"](), ns["helper"]()

    _forget_package()
    return run


@factory
def case_import_errors():
    def run():
        out = []

        def missing_module():
            import pyadapt_no_such_module  # noqa: F401

        def missing_submodule():
            import pyadapt_testpkg.nope  # noqa: F401

        def missing_name():
            from pyadapt_testpkg import nope  # noqa: F401

        def missing_name_builtin_module():
            from sys import nope  # noqa: F401

        def broken_body():
            import pyadapt_testpkg.broken  # noqa: F401

        def circular():
            import pyadapt_testpkg.circ_a  # noqa: F401

        def beyond_top():
            import pyadapt_testpkg.beyond  # noqa: F401

        for f in (missing_module, missing_submodule, missing_name, missing_name_builtin_module, broken_body, circular, beyond_top):
            try:
                f()
            except Exception as e:  # noqa: BLE001
                out.append((type(e).__name__, str(e), getattr(e, "name", None)))
        out.append("pyadapt_testpkg.broken" in sys.modules)
        return out

    _forget_package()
    return run


@factory
def case_uncaught_error_in_module_body():
    """The traceback goes through the module body; CPython strips importlib's own frames."""

    def run():
        import pyadapt_testpkg.broken  # noqa: F401

    _forget_package()
    return run


def case_uncaught_module_not_found():
    import pyadapt_no_such_module_either  # noqa: F401


def case_relative_import_without_package():
    out = []
    for g in ({"__name__": "toplevel"}, {"__name__": "toplevel", "__package__": ""}, {"__name__": "a.b", "__package__": "a"}):
        try:
            exec("from . import something", g)
        except Exception as e:  # noqa: BLE001
            out.append((type(e).__name__, str(e)))
    try:
        exec("from .mod import *", {"__name__": "x", "__package__": None})
    except Exception as e:  # noqa: BLE001
        out.append((type(e).__name__, str(e)))
    return out


@factory
def case_dunder_import_and_importlib():
    def run():
        import importlib

        m = __import__("pyadapt_testpkg.inner", fromlist=["deep"])
        m2 = importlib.import_module(".inner", "pyadapt_testpkg")
        top = __import__("pyadapt_testpkg.inner")
        r = importlib.reload(m2)
        return m is m2, top.__name__, m.deep(), r is m, attempt(lambda: importlib.import_module("pyadapt_no_such"))

    _forget_package()
    return run


def case_from_import_failure_names_the_name():
    # 3.12+ record the name in the ImportError (name_from), which the traceback's "Did you
    # mean" suggestion reads
    import traceback

    def near_miss():
        from os import pathh  # noqa: F401

    try:
        near_miss()
    except ImportError as e:
        return getattr(e, "name_from", "no name_from"), e.name, traceback.format_exception_only(e)


def case_import_with_builtins_a_mapping():
    # exec() with __builtins__ a mappingproxy: 3.13 finds __import__ in any mapping
    import types

    code = compile("import foo.bar", "test", "exec")
    out = []
    for builtins in ({}, {"__import__": lambda *args: args}):
        ns = {"__builtins__": types.MappingProxyType(builtins)}
        try:
            exec(code, ns)
            name, globals_, locals_, fromlist, level = ns["foo"]
            out.append((name, globals_ is ns, locals_ is ns, fromlist, level))
        except Exception as e:  # noqa: BLE001
            out.append((type(e).__name__, str(e)))
    return out


def case_import_in_loop_cached():
    total = 0
    for i in range(50):
        import math as m

        total += m.floor(i / 3)
    return total


@pytest.mark.parametrize("case,args,kwargs", collect(globals()))
def test_case(case, args, kwargs):
    run_case(case, args, kwargs)
