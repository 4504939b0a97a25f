"""pyadapt's benchmark suite: ``python -m bench --help`` (see README.md, "Benchmarks")."""
