"""Build script: the C core is compiled by cffi in API mode (see pyadapt/_build.py).

The only other job here is shipping ``pyadapt-autostart.pth`` into site-packages so that
``PYADAPT=1`` in the environment starts any Python process under pyadapt.
"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH_NAME = "pyadapt-autostart.pth"
HERE = os.path.dirname(os.path.abspath(__file__))


class build_py_with_pth(build_py):
    """Copy the autostart .pth file to the root of the build tree (= site-packages)."""

    def run(self):
        super().run()
        src = os.path.join(HERE, "pyadapt", "autostart", PTH_NAME)
        self.copy_file(src, os.path.join(self.build_lib, PTH_NAME), preserve_mode=0)

    def get_outputs(self, include_bytecode=1):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH_NAME)]


setup(
    packages=["pyadapt"],
    cffi_modules=["pyadapt/_build.py:ffibuilder"],
    cmdclass={"build_py": build_py_with_pth},
    zip_safe=False,
)
