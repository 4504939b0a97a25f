# pyadapt regression: LOAD_ATTR_PROPERTY kept calling a property's old getter after
#   property.__init__ ran again on the same property object (and read the old getter after it
#   was freed).
# Found by: reading the guards of every specialized form (issue 10, "no guard is skipped").
# Native: `prop.__init__(new_getter)` replaces the getter in place; every later o.p calls it.
# Under pyadapt before the fix (adaptive, any warmup): the cache held the getter itself
#   (borrowed) and guarded only the class's version and that getter's own version, neither of
#   which changes: o.p kept returning the old getter's result, and once the property had
#   dropped the old getter the handler read a freed function object.  Fixed in csrc/pa_eval.c
#   (LOAD_ATTR_PROPERTY caches the property and reads its getter each time).
# MODES: adaptive generic w0 w50
# EXPECTED-EXIT: 0
# EXPECTED-STDOUT:
#| kept [1, 1, 2, 2]
#| freed [1, 1, 3, 3]
#| builtin getter [1, 1, 'TypeError', 'TypeError']
#| removed [1, 1, 'AttributeError', 'AttributeError']
# EXPECTED-STDOUT-3.12:
#| kept: not compared on 3.12+
#| freed [1, 1, 3, 3]
#| builtin getter [1, 1, 'TypeError', 'TypeError']
#| removed [1, 1, 'AttributeError', 'AttributeError']
# EXPECTED-STDOUT-3.13:
#| kept: not compared on 3.12+
#| freed [1, 1, 3, 3]
#| builtin getter [1, 1, 'TypeError', 'TypeError']
#| removed [1, 1, 'AttributeError', 'AttributeError']

import sys


def run(n, replacement, keep):
    class C:
        @property
        def p(self):
            return 1
    prop = C.__dict__["p"]
    kept = [prop.fget] if keep else []
    o, out = C(), []
    for i in range(n):
        if i == n // 2:
            if replacement is None:
                prop.__init__()          # no getter at all
            else:
                prop.__init__(replacement)
        try:
            out.append(o.p)
        except (TypeError, AttributeError) as e:
            out.append(type(e).__name__)
    del kept
    return out[:2] + out[-2:]


if sys.version_info < (3, 12):
    print("kept", run(40, lambda self: 2, True))
else:
    # CPython 3.12's own LOAD_ATTR_PROPERTY caches the getter under its function version and
    # keeps calling the old one while it lives ([1, 1, 1, 1] natively once the site has
    # specialized): what pyadapt's generic mode, which specializes nothing, cannot show
    print("kept: not compared on 3.12+")
print("freed", run(40, lambda self: 3, False))
print("builtin getter", run(40, len, False))
print("removed", run(40, None, False))
