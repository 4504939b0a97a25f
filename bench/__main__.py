"""python -m bench: run pyadapt's benchmark suite (see bench/run.py)."""
import sys

from bench.run import main

sys.exit(main())
