"""``--hook pyadapt`` for any pyperf script: record in each run how pyadapt ran the benchmark.

pyperf finds this class through the ``pyperf.hook`` entry point pyadapt's install declares,
and calls it in every worker process around each timed call of the benchmark (``__enter__``
and ``__exit__``, outside pyperf's own timing) and once at the end of the worker's warmups
and again of its values (``teardown``), with the metadata the run will carry.  It records:

- ``pyadapt_enabled``: whether pyadapt was running the whole process (``PYADAPT=1``, as
  ``python -m pyadapt script.py`` gives its pyperf workers with ``--inherit-environ PYADAPT``);
- ``pyadapt_specialize``, ``pyadapt_warmup``: the mode;
- ``pyadapt_timed_calls`` and, summed over those calls, what pyadapt's counters did while
  they ran: ``pyadapt_timed_frames``, ``_fallbacks``, ``_specialized``, ``_hits``,
  ``_misses``, ``_deopts``.  Divided by the calls and the run's ``loops`` (and
  ``inner_loops``) they are per benchmark iteration.

Not the instruction count: only a build with PYADAPT_COUNT_INSTRUCTIONS=1 counts it, and its
loop adds its instructions to ``stats()`` only when it returns to C; with the whole process
in pyadapt the frame that runs pyperf's timing loop, the benchmark and this hook is one loop
that returns long after the timed call.  The counters above are counted as they happen.

A worker that ran natively (pyadapt not enabled) records ``pyadapt_enabled: false`` and
counters of zero, so whoever reads the JSON (bench/standard.py) can tell it from a real run.
The hook only observes; it never fails a run.
"""
import pyadapt

_FAMILY_KEYS = ("specialized", "hits", "misses", "deopts")
COUNTERS = ("frames", "fallbacks") + _FAMILY_KEYS


def counters():
    """pyadapt's counters now, as one flat dict of COUNTERS (families summed)."""
    st = pyadapt.stats()
    out = {"frames": st["frames"], "fallbacks": sum(st["fallbacks"].values())}
    for key in _FAMILY_KEYS:
        out[key] = sum(f[key] for f in st["families"].values())
    return out


class PyperfHook:
    """A pyperf hook (see pyperf's HookBase: the same four methods)."""

    def __init__(self):
        self._calls = 0
        self._totals = dict.fromkeys(COUNTERS, 0)
        self._before = None

    def __enter__(self):
        self._before = counters()

    def __exit__(self, exc_type, exc_value, traceback):
        after = counters()
        for key in COUNTERS:
            self._totals[key] += after[key] - self._before[key]
        self._calls += 1

    def teardown(self, metadata):
        config = pyadapt.config()
        metadata["pyadapt_enabled"] = bool(pyadapt.is_enabled())
        metadata["pyadapt_specialize"] = config["specialize"]
        metadata["pyadapt_warmup"] = config["warmup"]
        metadata["pyadapt_timed_calls"] = self._calls
        for key in COUNTERS:
            metadata["pyadapt_timed_" + key] = self._totals[key]
