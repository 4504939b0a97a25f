# pyadapt regression: the program could see the launcher's frames
# Found by: ../shared/repro/stackpkg (issue 10 item 7).  Under `python -m pyadapt`, the launcher's
#   own frames (pyadapt/__main__.py <module> and main) showed in traceback.extract_stack() and
#   inspect.stack(), and warnings.warn(stacklevel=2) named pyadapt/__main__.py.  Now the
#   program's top level is called with no launcher frame below it (a script: nothing below
#   <module>, as natively).  tests/test_cli.py test_program_sees_no_launcher_frames covers -m,
#   -c, directories, zip files and stdin.
# MODES: adaptive generic w0
# EXPECTED-STDOUT:
#| extract_stack at top level: [('launcher_frames_invisible.py', '<module>')]
#| extract_stack in a function: [('launcher_frames_invisible.py', '<module>'), ('launcher_frames_invisible.py', 'where')]
#| f_back chain: ['where', '<module>']
#| inspect.stack(): ['where', '<module>']
#| warning 1 attributed to: launcher_frames_invisible.py
#| warning 2 attributed to: sys
# EXPECTED-STDOUT-3.13:
#| extract_stack at top level: [('launcher_frames_invisible.py', '<module>')]
#| extract_stack in a function: [('launcher_frames_invisible.py', '<module>'), ('launcher_frames_invisible.py', 'where')]
#| f_back chain: ['where', '<module>']
#| inspect.stack(): ['where', '<module>']
#| warning 1 attributed to: launcher_frames_invisible.py
#| warning 2 attributed to: <sys>
import inspect
import os
import sys
import traceback
import warnings


def names(stack):
    return [(os.path.basename(f.filename), f.name) for f in stack]


def where():
    print("extract_stack in a function:", names(traceback.extract_stack()))
    frame, chain = sys._getframe(), []
    while frame is not None:
        chain.append(frame.f_code.co_name)
        frame = frame.f_back
    print("f_back chain:", chain)
    print("inspect.stack():", [f.function for f in inspect.stack()])


def warn_caller():
    warnings.warn("attributed to the caller", stacklevel=2)


print("extract_stack at top level:", names(traceback.extract_stack()))
where()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warn_caller()
    warnings.warn("one level below the top", stacklevel=2)   # natively: "sys", line 1
for i, w in enumerate(caught, 1):
    print(f"warning {i} attributed to:", os.path.basename(w.filename))
