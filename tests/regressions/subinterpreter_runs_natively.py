# pyadapt regression: subinterpreters under PYADAPT=1 and `import pyadapt` in one
# Found by: ../shared/repro/subinterpreter_autostart_warning.py, subinterpreter_import_pyadapt.py
#   (issue 10 item 7).  Every subinterpreter of a program run under pyadapt printed
#   "pyadapt: autostart failed (AttributeError ...)"; `import pyadapt` inside one failed with an
#   AttributeError (natively too: the C core is process-wide state, and its set-up even went to
#   the main interpreter through PyGILState_Ensure).  Now a subinterpreter runs natively without
#   a word, and `import pyadapt` there raises a clear ImportError, natively and under pyadapt
#   (on 3.12 too, before the extension or cffi's backend is loaded, which 3.12 refuses there).
# MODES: adaptive generic
# EXPECTED-STDOUT:
#| sub ok True
#| import in a subinterpreter: ImportError pyadapt cannot be imported in a subinterpreter
#| main ok
try:
    import _xxsubinterpreters as interpreters
except ModuleNotFoundError:     # CPython 3.13 renamed it
    import _interpreters as interpreters

interp = interpreters.create()
interpreters.run_string(interp, "import os; print('sub ok', os.getpid() > 0)")
interpreters.run_string(interp, """if True:
    try:
        import pyadapt
    except ImportError as exc:
        print("import in a subinterpreter:", "ImportError", str(exc).partition(":")[0])
    else:
        print("imported", pyadapt.run(lambda: sum(range(10))))
""")
interpreters.destroy(interp)
print("main ok")
