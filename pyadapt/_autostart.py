"""Start this interpreter under pyadapt: imported by ``pyadapt-autostart.pth`` when PYADAPT is set.

setup.py installs the .pth into site-packages; site.py runs its one line at every interpreter
start.  The line reads PYADAPT and imports this module only when PYADAPT is set to something
other than "0" (or empty), so a process without it never imports pyadapt.  Importing this
module is the whole action: ``PYADAPT=1`` switches pyadapt on for the whole process
(``pyadapt.enable()``).

This runs while the interpreter starts up (inside site's processing of .pth files), so it must
never stop it from starting: whatever goes wrong is reported in one line on stderr and the
process goes on natively.  That pyadapt itself cannot be imported (a broken build) is reported
the same way by the .pth line, which guards the import of this module and then leaves None in
``sys.modules["pyadapt._autostart"]``: site.py of 3.11 reads a venv's .pth files twice, and the
second reading must neither retry nor warn again.  In a subinterpreter (site runs there too,
with the process's PYADAPT), ``import pyadapt`` raises an ImportError marked
``autostart_quiet``, which the .pth line takes without a warning: subinterpreters run natively.
"""
import os
import sys


def _start():
    value = os.environ.get("PYADAPT", "")
    if value != "1":
        raise ValueError(f"PYADAPT={value!r} is not understood: 1 starts pyadapt, 0 or unset does not")
    import pyadapt

    # nothing reads site records in a PYADAPT=1 process unless it asks (configure)
    pyadapt.configure(record_sites=False)
    if not pyadapt.is_enabled():
        pyadapt.enable()


def _warn(exc):
    if sys.stderr is None:  # no stderr (pythonw, closed descriptors): nowhere to warn
        return
    message = str(exc).partition("\n")[0]
    print(f"pyadapt: autostart failed ({type(exc).__name__}: {message}); running natively",
          file=sys.stderr)


try:
    _start()
except Exception as exc:
    try:
        import pyadapt

        if pyadapt.is_enabled():  # enable() failed half way: go back to the native loop
            pyadapt.disable()
    except Exception:
        pass
    _warn(exc)
