"""cffi (API mode) build of pyadapt's C core: ``pyadapt._pyadapt``.

setuptools runs this through ``cffi_modules`` in setup.py, so ``pip install .`` compiles
csrc/ with no other build system.  The cdef is the text of csrc/pa_cdef.h and
csrc/pa_caches.h, the same files the C sources include: one definition of the data that
crosses the boundary.

Set ``PYADAPT_DEBUG_BUILD=1`` in the environment for a debug build (assertions on,
-Og -g), ``PYADAPT_PAIR_STATS=1`` for a build that counts instruction pairs
(tools/pair_counts.py), ``PYADAPT_COUNT_INSTRUCTIONS=1`` for one whose loop counts the
instructions it executes (``stats()["instructions"]``, None in a normal build).
"""
import glob
import os
import sys
import sysconfig

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(os.path.dirname(HERE), "csrc")
# The core, shared by every CPython version ...
CORE_SOURCES = ["pa_eval.c", "pa_hook.c", "pa_module.c", "pa_units.c", "pa_compile.c",
                "pa_specialize.c", "pa_frames.c", "pa_opinfo.c", "pa_state.c", "pa_sites.c",
                "pa_match.c", "pa_excgroup.c"]
# ... plus the out-of-line half of the running version's seam (its header, pa_seam3XX.h,
# is chosen by csrc/pa_internal.h).
SEAM_SOURCE = "pa_frame%d%d.c" % sys.version_info[:2]
SOURCES = CORE_SOURCES + [SEAM_SOURCE]


def _read(name):
    with open(os.path.join(CSRC, name)) as f:
        return f.read()


ffibuilder = FFI()
ffibuilder.cdef(_read("pa_cdef.h") + _read("pa_caches.h"))

_debug = os.environ.get("PYADAPT_DEBUG_BUILD", "") not in ("", "0")
_cflags = ["-Wall", "-Wextra", "-std=gnu11", "-fno-strict-aliasing", "-fvisibility=hidden", "-fno-plt",
           # CPython's headers, internal ones included, as system headers: the warnings are for
           # pyadapt's own code (3.13.0's pycore_object.h has an unused parameter in an inline
           # function, reported once per source file otherwise)
           "-isystem", sysconfig.get_paths()["include"]]
_macros = []
if _debug:
    # -Og, not -O0: at -O0 pa_execute's C frame is large enough that the C recursion limit
    # no longer keeps deep recursion through C within the thread's stack (3.13.0:
    # tests/test_call_binding.py::test_recursion_through_c_meets_the_c_limit crashed)
    _cflags += ["-Og", "-g"]
    _macros.append(("PA_DEBUG", "1"))
if os.environ.get("PYADAPT_PAIR_STATS", "") not in ("", "0"):
    _macros.append(("PA_PAIR_STATS", "1"))     # tools/pair_counts.py
if os.environ.get("PYADAPT_COUNT_INSTRUCTIONS", "") not in ("", "0"):
    _macros.append(("PA_COUNT_INSTRUCTIONS", "1"))   # stats()["instructions"] (pa_cdef.h)

ffibuilder.set_source(
    "pyadapt._pyadapt",
    '#include <stdint.h>\n#include "pa_cdef.h"\n#include "pa_caches.h"\n',
    sources=[os.path.relpath(os.path.join(CSRC, s)) for s in SOURCES],
    include_dirs=[CSRC],
    # setuptools rebuilds the extension when one of these is newer than it: every header
    # (a header change must rebuild, not reuse stale objects) and this script.
    depends=sorted(os.path.relpath(h) for h in glob.glob(os.path.join(CSRC, "*.h")))
    + [os.path.relpath(os.path.abspath(__file__))],
    define_macros=_macros,
    extra_compile_args=_cflags,
    py_limited_api=False,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
