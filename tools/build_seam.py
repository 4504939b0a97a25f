"""Build pyadapt's C core on an interpreter pyadapt does not support yet, to check a seam.

    $(pyenv prefix 3.13.0)/bin/python tools/build_seam.py [OUTDIR]

setup.py refuses such an interpreter (pyadapt/_versions.py) before any compiler runs, and
``import pyadapt`` refuses it too; this script compiles the same sources with the same flags
(pyadapt/_build.py: the core plus the running version's pa_frame3XX.c) into OUTDIR (default
build/seam-3XX), then loads the extension alone, with every symbol bound at load
(RTLD_NOW), so that a symbol libpython does not export fails here rather than at a user's
import.  Nothing is installed; the package's refusal is untouched.  Exit status 0 when the
module builds and loads.
"""
import importlib.util
import os
import runpy
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    tag = "%d%d" % sys.version_info[:2]
    out = os.path.abspath(argv[0] if argv else os.path.join(ROOT, "build", "seam-" + tag))
    os.makedirs(out, exist_ok=True)
    os.chdir(ROOT)      # _build.py names its sources relative to the working directory
    ffibuilder = runpy.run_path(os.path.join(ROOT, "pyadapt", "_build.py"))["ffibuilder"]
    # cffi compiles inside tmpdir: name the sources absolutely
    kwds = ffibuilder._assigned_source[3]
    kwds["sources"] = [os.path.join(ROOT, s) for s in kwds["sources"]]
    so = ffibuilder.compile(tmpdir=out, verbose=False)
    sys.setdlopenflags(os.RTLD_NOW | os.RTLD_GLOBAL)
    spec = importlib.util.spec_from_file_location("pyadapt._pyadapt", so)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print("built and loaded", os.path.relpath(so, ROOT), module.lib)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
