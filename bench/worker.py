"""pyperf script that times every workload in one mode.

    python bench/worker.py --mode {native,generic,adaptive} [--workloads a,b] [pyperf options]

bench/run.py starts it once per mode (and with CPython 3.10 for mode "native"); pyperf then
spawns a fresh worker process per benchmark and value set, passing --mode on.  In the two
pyadapt modes the timed call is ``pyadapt.run(workload.run, SIZE)``: the workload and every
Python frame it reaches run in pyadapt's loop, while pyperf's own timing loop stays native.

Each pyadapt-mode worker first checks, outside the timing, that pyadapt really ran the
workload (its frame counter grew, the result equals the native result) and, in adaptive
mode, that instructions specialized (in generic mode: that none did); the counters of a
second, warm call go into the run's metadata (instructions per call, specializations,
misses, deopts) for the report.  A failed check exits non-zero, which fails the run.
"""
import hashlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# run as a script, sys.path[0] is bench/ itself: import the package from the repository root
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == HERE:
    sys.path[0] = ROOT
elif ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pyperf  # noqa: E402

from bench import workloads  # noqa: E402

MODES = ("native", "generic", "adaptive")


def digest(value):
    return hashlib.sha1(repr(value).encode()).hexdigest()[:12]


def fail(msg):
    sys.stderr.write("bench worker: %s\n" % msg)
    sys.stderr.flush()
    sys.exit(3)


def native_time_func(func, size):
    def time_func(loops):
        t0 = time.perf_counter()
        for _ in range(loops):
            func(size)
        return time.perf_counter() - t0

    return time_func


def pyadapt_time_func(func, size):
    import pyadapt

    run = pyadapt.run

    def time_func(loops):
        t0 = time.perf_counter()
        for _ in range(loops):
            run(func, size)
        return time.perf_counter() - t0

    return time_func


def verify_pyadapt(name, mod, mode):
    """Run the workload natively and under pyadapt (outside timing); check and describe."""
    import pyadapt
    from bench._pyadapt_stats import summary

    if not pyadapt.config()["specialize"] == (mode == "adaptive"):
        fail("%s: pyadapt is not configured for %s mode: %r" % (name, mode, pyadapt.config()))
    expected = mod.run(mod.SIZE)
    pyadapt.reset_stats()
    got = pyadapt.run(mod.run, mod.SIZE)
    first = summary()
    if got != expected:
        fail("%s: pyadapt (%s) returned %r, natively %r" % (name, mode, got, expected))
    if first["frames"] <= 0:
        fail("%s: pyadapt's loop did not run the workload: %r" % (name, first))
    if mode == "adaptive" and (first["specialized"] <= 0 or first["hits"] <= 0):
        fail("%s: nothing specialized in adaptive mode: %r" % (name, first))
    if mode == "generic" and (first["specialized"] or first["hits"]):
        fail("%s: instructions specialized in generic mode: %r" % (name, first))
    # a warm call: what one timed call does
    pyadapt.reset_stats()
    pyadapt.run(mod.run, mod.SIZE)
    warm = summary()
    counted = {} if warm["instructions"] is None else {   # a PYADAPT_COUNT_INSTRUCTIONS=1 build
        "pyadapt_instructions": warm["instructions"]}
    return {
        **counted,
        "result_digest": digest(expected),
        "pyadapt_first_specialized": first["specialized"],
        "pyadapt_first_compiled": first["compiled"],
        "pyadapt_frames": warm["frames"],
        "pyadapt_fallbacks": warm["fallbacks"],
        "pyadapt_specialized": warm["specialized"],
        "pyadapt_failures": warm["failures"],
        "pyadapt_hits": warm["hits"],
        "pyadapt_misses": warm["misses"],
        "pyadapt_deopts": warm["deopts"],
    }


def add_cmdline_args(cmd, args):
    cmd.extend(("--mode", args.mode))
    if args.workloads:
        cmd.extend(("--workloads", args.workloads))


def main():
    for var in ("PYADAPT_SPECIALIZE", "PYADAPT_WARMUP"):
        os.environ.pop(var, None)
    runner = pyperf.Runner(add_cmdline_args=add_cmdline_args)
    runner.argparser.add_argument("--mode", choices=MODES, required=True)
    runner.argparser.add_argument("--workloads", default="",
                                  help="comma-separated subset of: " + ", ".join(workloads.NAMES))
    args = runner.parse_args()
    names = [n for n in args.workloads.split(",") if n] or list(workloads.NAMES)
    for n in names:
        workloads.load(n)  # unknown names fail here, in the parent, before any worker

    mode = args.mode
    runner.metadata["bench_mode"] = mode
    if mode == "native":
        if "pyadapt" in sys.modules:
            fail("pyadapt is loaded in a native-mode process (PYADAPT set?)")
    else:
        import pyadapt

        pyadapt.configure(specialize=(mode == "adaptive"))
        if pyadapt.is_enabled():
            fail("pyadapt is enabled process-wide (PYADAPT=1?): the timing loop would run in it")
        runner.metadata["pyadapt_config"] = "specialize=%s warmup=%s" % (
            pyadapt.config()["specialize"], pyadapt.config()["warmup"])

    # In a worker, only the task numbered --worker-task runs: check and describe that one
    # workload before pyperf times it.  Native workers record the result's digest once (in
    # the calibration run) so the report can check every mode computed the same thing.
    selected = None
    if args.worker and args.worker_task is not None and args.worker_task < len(names):
        selected = names[args.worker_task]

    for name in names:
        mod = workloads.load(name)
        metadata = {"workload_size": mod.SIZE}
        if name == selected:
            if mode == "native":
                if args.calibrate_loops:
                    metadata["result_digest"] = digest(mod.run(mod.SIZE))
            else:
                metadata.update(verify_pyadapt(name, mod, mode))
        if mode == "native":
            time_func = native_time_func(mod.run, mod.SIZE)
        else:
            time_func = pyadapt_time_func(mod.run, mod.SIZE)
        runner.bench_time_func(name, time_func, metadata=metadata)


if __name__ == "__main__":
    main()
