"""bench/programs.py (the whole-programs table) runs end to end: one round of two programs,
natively and under python -m pyadapt, with samples of wall time, CPU time and peak RSS."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_whole_programs_table_smoke(tmp_path):
    out = tmp_path / "run" / "programs.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYADAPT")}
    proc = subprocess.run(
        [sys.executable, "-m", "bench.programs", "--rounds", "1",
         "--programs", "empty_script,import_pyadapt", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "empty_script" in proc.stdout and "pyadapt/native" in proc.stdout
    data = json.loads(out.read_text())
    for name in ("empty_script", "import_pyadapt"):
        for mode in ("native", "pyadapt"):
            sample = data["results"][name][mode]
            assert len(sample["wall"]) == len(sample["rss"]) == 1
            assert sample["rss"][0] > 0 and sample["cpu"][0] > 0
    assert len(data["results"]["import_pyadapt"]["pyadapt"]["inprocess"]) == 1
    assert "| empty_script |" in data["table_md"]

    # python -m bench puts the table after its others, from programs.json in the run directory
    sys.path.insert(0, ROOT)
    try:
        from bench import report
    finally:
        sys.path.remove(ROOT)
    text, md = report.render(str(out.parent))
    assert "whole programs" in text and "empty_script" in text and "| empty_script |" in md
