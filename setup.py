"""Build script: the C core is compiled by cffi in API mode (see pyadapt/_build.py).

The other jobs here: refusing, in one line and before any compiler runs, an interpreter
pyadapt does not support (pyadapt/_versions.py); shipping ``pyadapt-autostart.pth`` into site-packages so that
``PYADAPT=1`` in the environment starts any Python process under pyadapt, and keeping the
build script ``pyadapt/_build.py`` out of the wheel (it is in the sdist: the wheel is built
from it).  Metadata is in pyproject.toml; the sdist's contents in MANIFEST.in.
"""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# An interpreter pyadapt does not support is refused here, in one line, before setuptools
# (and pip, for a local directory or an sdist) gets to run a compiler over the C core.
_refusal = runpy.run_path(os.path.join(HERE, "pyadapt", "_versions.py"))["refusal"]()
if _refusal is not None:
    sys.exit("error: " + _refusal)

from setuptools import setup  # noqa: E402
from setuptools.command.build_py import build_py  # noqa: E402

PTH_NAME = "pyadapt-autostart.pth"


class build_py_with_pth(build_py):
    """Copy the autostart .pth file to the root of the build tree (= site-packages)."""

    def run(self):
        super().run()
        src = os.path.join(HERE, "pyadapt", "autostart", PTH_NAME)
        self.copy_file(src, os.path.join(self.build_lib, PTH_NAME), preserve_mode=0)
        if getattr(self, "editable_mode", False):
            # pip install -e (PEP 660): the editable wheel carries only path hooks, not
            # build_lib.  setuptools' editable_wheel points install_lib at the wheel it is
            # assembling (where it also writes data and scripts), whose root is site-packages.
            wheel_root = self.get_finalized_command("install").install_lib
            self.copy_file(src, os.path.join(wheel_root, PTH_NAME), preserve_mode=0)

    def find_package_modules(self, package, package_dir):
        # pyadapt/_build.py runs at build time only (cffi_modules); an installed pyadapt
        # never imports it.
        return [entry for entry in super().find_package_modules(package, package_dir)
                if entry[:2] != ("pyadapt", "_build")]

    def get_outputs(self, include_bytecode=1):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH_NAME)]


setup(
    packages=["pyadapt"],
    cffi_modules=["pyadapt/_build.py:ffibuilder"],
    cmdclass={"build_py": build_py_with_pth},
    zip_safe=False,
)
