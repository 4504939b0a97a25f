"""What pyadapt shows people: the HTML report (``--report DIR``, ``pyadapt._report.report``),
the ``--stats`` table, ``--stats-json``, and the ``--warmup``/``--generic`` switches.

The report is read back as HTML (well-formed, the source text intact, each coloured span on the
exact expression with its hover text) and loaded in a real browser, headless Chromium, which
must show the same spans and paint them in the legend's colours.  The CLI options are checked
in child processes, against native runs where the program's output is concerned.
"""
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import zlib

import pytest

import pyadapt
from pyadapt import _report
from processes import (MARKER, child_env, describe, installed_pth, reports, run_pyadapt,
                       run_python, write)

# The LWN example: Point.shifted on floats, in a loop.
POINT = '''\
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def shifted(self, dx, dy):
        cls = type(self)
        return cls(self.x + dx, self.y + dy)


def walk(n):
    p = Point(0.0, 0.0)
    for _ in range(n):
        p = p.shifted(0.5, 0.25)
    return p


print("RESULT", walk(1000).x)
'''

# Every status on one page, and text that tests the escaping and the column arithmetic.
MIXED = '''\
class Weird:
    def __getattr__(self, name):
        return 1


class C:
    def __init__(self):
        self.v = 1.5


def fails(n):
    w, t = Weird(), 0
    for _ in range(n):
        t += w.anything
    return t


def misses(values):
    t = 0.0
    for x in values:
        t = t + x
    return t


def non_ascii(c):
    s = "€€€ <&> \\"q\\""; t = c.v * 2.0
    if s < "z" and "<&>" in s:
        t = t * 1.0
    return t, s


def multi_line(c):
    return max(
        c.v,
        c.v + 1.0,
    )


def never_called(c):
    return c.v + 1.0


print("RESULT", fails(100), misses([0.5] * 100 + [1] * 10), non_ascii(C()),
      [multi_line(C()) for _ in range(20)][-1])
for _ in range(20):
    non_ascii(C())
'''


# ---- reading the pages back -------------------------------------------------------------------

VOID = {"meta", "br", "img", "input", "link", "hr", "wbr"}


class Page(html.parser.HTMLParser):
    """Parses a report page: checks that tags nest properly, collects the coloured spans
    (classes, title, text) and the text of every source line (without its number)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.spans = []
        self.lines = []
        self.links = []
        self.ids = set()
        self.fixes = []          # the rows of the sites to fix: {"cells": [...], "href": ...}
        self.panel = None        # the hover panel: {"hidden": bool, "text": ...}
        self._row = None
        self._cell = None
        self._in_panel = False
        self._span = None
        self._line = None
        self._in_number = False
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed tags at the end: {self.stack}")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
            if self._row is not None and self._row["href"] is None:
                self._row["href"] = attrs["href"]
        if tag == "tr" and "fix" in classes:
            self._row = {"cells": [], "href": None, "classes": classes}
        elif tag == "td" and self._row is not None:
            self._cell = []
        elif tag == "div" and attrs.get("id") == "panel":
            self.panel = {"hidden": "hidden" in attrs, "text": []}
            self._in_panel = True
        if tag not in VOID:
            self.stack.append((tag, classes))
        if tag == "span" and "line" in classes:
            self._line = []
        elif tag == "a" and "ln" in classes:
            self._in_number = True
        elif tag == "span" and "pa" in classes:
            if self._span is not None:
                self.errors.append("a coloured span inside a coloured span")
            self._span = {"classes": classes, "title": attrs.get("title"), "text": [],
                          "id": attrs.get("id")}
        elif self._span is not None:
            self.errors.append(f"<{tag}> inside a coloured span")

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID:
            self.errors.append(f"self-closed <{tag}/>")

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> does not close {self.stack[-1:]}")
            return
        _, classes = self.stack.pop()
        if tag == "td" and self._cell is not None:
            self._row["cells"].append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.fixes.append(self._row)
            self._row = None
        elif tag == "div" and self._in_panel:
            self.panel["text"] = "".join(self.panel["text"])
            self._in_panel = False
        if tag == "span" and "pa" in classes:
            self._span["text"] = "".join(self._span["text"])
            self.spans.append(self._span)
            self._span = None
        elif tag == "a" and "ln" in classes:
            self._in_number = False
        elif tag == "span" and "line" in classes:
            self.lines.append("".join(self._line))
            self._line = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._in_panel:
            self.panel["text"].append(data)
        if self._span is not None:
            self._span["text"].append(data)
        if self._line is not None and not self._in_number:
            self._line.append(data)

    def with_title(self, prefix):
        return [s for s in self.spans if s["title"] and s["title"].startswith(prefix)]

    def status(self, span):
        (status,) = [c[2:] for c in span["classes"] if c.startswith("s-")]
        return status


def read_page(path):
    with open(path, encoding="utf-8") as f:
        page = Page(f.read())
    assert not page.errors, f"{path} is not well-formed: {page.errors[:5]}"
    return page


def page_of(directory, source_name):
    """The report page of the source file called source_name, found through index.html."""
    index = read_page(os.path.join(directory, "index.html"))
    names = [h for h in index.links if h.startswith(source_name + "-") and h.endswith(".html")]
    assert len(names) == 1, f"index.html links no single page for {source_name}: {index.links}"
    return os.path.join(directory, names[0])


def site_hits(title):
    found = re.search(r"hits at this site: ([\d,]+)", title)
    return int(found.group(1).replace(",", "")) if found else None


@pytest.fixture(scope="module")
def point_report(tmp_path_factory):
    """``python -m pyadapt --report rep point.py``: the directory and the point.py page."""
    tmp = tmp_path_factory.mktemp("point")
    write(tmp / "point.py", POINT)
    proc = run_pyadapt(["--report", "rep", "point.py"], tmp)
    assert proc.returncode == 0, describe(proc)
    assert "RESULT 500.0" in proc.stdout
    assert f"report written to {tmp / 'rep' / 'index.html'}" in proc.stderr, describe(proc)
    return tmp / "rep", page_of(tmp / "rep", "point.py")


# ---- (a) the report of the LWN example --------------------------------------------------------

EXPECTED_POINT_SPANS = {
    # form: the text of the span that carries it (the innermost expression of the site)
    "LOAD_ATTR_INSTANCE_VALUE": {"self.x", "self.y"},
    "BINARY_OP_ADD_FLOAT": {" + dx", " + dy"},     # "self.x + dx" minus its inner self.x
    "LOAD_GLOBAL_BUILTIN": {"type"},
    "CALL_TYPE_1": {"(self)"},                     # "type(self)" minus its inner type
}


def test_point_report_colours_each_specialized_expression(point_report):
    _, path = point_report
    page = read_page(path)
    assert page.lines == POINT.splitlines(), "the page does not show the source as it is"
    assert page.spans, "no coloured span"
    for form, texts in EXPECTED_POINT_SPANS.items():
        spans = page.with_title(form)
        assert {s["text"] for s in spans} == texts, (form, spans)
        for span in spans:
            assert page.status(span) == "specialized", span
            title = span["title"]
            assert "family " in title and "specialized" in title
            assert site_hits(title) >= 990, title       # 1000 calls, warmup 2
            assert "misses at this site: 0" in title, title
    # the call of the class, and the attribute stores in __init__
    assert page.with_title("CALL_PY_CLASS") and page.with_title("STORE_ATTR_INSTANCE_VALUE")
    # every coloured span says what it is; generic-only instructions stay uncoloured
    specializable = _report._specializable_families()
    assert {"LOAD_ATTR", "BINARY_OP", "CALL", "LOAD_GLOBAL"} <= specializable
    assert not specializable & {"LOAD_FAST", "LOAD_NAME", "RETURN_VALUE", "STORE_FAST"}
    for span in page.spans:
        family = re.match(r"\w+  \(family (\w+)\)", span["title"])
        assert family and family.group(1) in specializable, span


def test_point_index_lists_the_file_with_the_proxy_explained(point_report):
    directory, path = point_report
    with open(directory / "index.html", encoding="utf-8") as f:
        text = f.read()
    read_page(directory / "index.html")
    assert os.path.basename(path) in text
    assert "lower bound" in text and "per frame entered" in text
    assert "BINARY_OP" in text and "hit rate" in text
    # pyadapt's own modules (the CLI ran some of them under pyadapt) are left out
    assert "__main__.py" not in text.split("Code without a source file")[0]


# ---- every status, escaping, columns, nesting -------------------------------------------------

@pytest.fixture(scope="module")
def mixed_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mixed")
    write(tmp / "mixed.py", MIXED)
    native = run_python(["mixed.py"], tmp)
    proc = run_pyadapt(["--report", str(tmp / "rep"), "mixed.py"], tmp)
    assert proc.returncode == 0 and native.returncode == 0, describe(proc) + describe(native)
    assert proc.stdout == native.stdout
    return read_page(page_of(tmp / "rep", "mixed.py"))


def test_page_keeps_the_source_text_exactly(mixed_page):
    # HTML special characters, quotes, non-ASCII: escaped on the page, the same text in it
    assert mixed_page.lines == MIXED.splitlines()


def test_columns_are_characters_not_bytes(mixed_page):
    # On the line with "€€€" (3 bytes each in UTF-8) the attribute after it is still found
    # exactly: the position table counts bytes, the page characters.
    line = next(i for i, l in enumerate(MIXED.splitlines()) if "€€€" in l)
    spans = [s for s in mixed_page.with_title("LOAD_ATTR_INSTANCE_VALUE")
             if f"line {line + 1}," in s["title"]]
    assert spans and {s["text"] for s in spans} == {"c.v"}, spans


def test_every_status_is_shown(mixed_page):
    by_status = {}
    for span in mixed_page.spans:
        by_status.setdefault(mixed_page.status(span), []).append(span)
    # Weird.__getattr__ defeats LOAD_ATTR: failed, with the reason
    failed = [s for s in by_status.get("failed", []) if s["text"] == "w.anything"]
    assert failed and "last failure: " in failed[0]["title"], by_status.get("failed")
    # floats then ints: the float add misses at its site (under the budget, so still there)
    missing = by_status.get("missing", [])
    assert any(s["title"].startswith("BINARY_OP_ADD_FLOAT") for s in missing), missing
    assert any(re.search(r"misses at this site: ([1-9]\d*)", s["title"]) for s in missing)
    # a branch never taken: its adaptive sites are cold
    cold_line = MIXED.splitlines().index("        t = t * 1.0") + 1
    cold = [s for s in by_status.get("cold", []) if f"line {cold_line}," in s["title"]]
    assert [s["text"] for s in cold] == ["t * 1.0"], by_status.get("cold")
    # a function never called has no unit: nothing of it is coloured
    never = MIXED.splitlines().index("def never_called(c):") + 2
    assert not [s for s in mixed_page.spans if f"line {never}," in s["title"]]
    # the module level ran once: too few times to specialize, which is not a problem
    few = by_status.get("few", [])
    assert few and all("ran too few times to specialize: ran 1 of the 3 executions"
                       in s["title"] for s in few if s["title"].count("\n\n") == 0), few
    assert by_status.get("specialized")
    # what the failed site saw, and why there is nothing simple to change: __getattr__
    assert "what it saw" in failed[0]["title"] and "Weird, class defines __getattr__" in \
        failed[0]["title"], failed[0]["title"]
    assert "to specialize: Weird defines __getattr__" in failed[0]["title"]


def test_multi_line_spans_colour_their_first_line(mixed_page):
    lines = MIXED.splitlines()
    start = lines.index("    return max(") + 1
    calls = [s for s in mixed_page.spans if s["title"].startswith("CALL")
             and f"line {start}-{start + 3}," in s["title"]]
    assert calls and all(s["text"] in ("max", "max(", "(") for s in calls), calls
    inner = [s for s in mixed_page.spans if f"line {start + 2}," in s["title"]]
    assert {s["text"] for s in inner} >= {"c.v", " + 1.0"}, inner


# ---- the API, in this process -----------------------------------------------------------------

class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def shifted(self, dx, dy):
        cls = type(self)
        return cls(self.x + dx, self.y + dy)


def walk(p, n):
    for _ in range(n):
        p = p.shifted(0.5, 0.25)
    return p


def test_report_api(tmp_path):
    api = getattr(pyadapt, "report", _report.report)
    pyadapt.configure(specialize=True, warmup=2)
    assert pyadapt.run(walk, Point(0.0, 0.0), 200).x == 100.0
    own = [c for c in pyadapt._core._compiled_codes()
           if c.co_filename in (__file__, pyadapt._introspect.__file__)]
    assert any(c.co_filename == __file__ for c in own)
    index = api(str(tmp_path / "rep"), codes=own)
    assert index == str(tmp_path / "rep" / "index.html")
    page = read_page(page_of(tmp_path / "rep", os.path.basename(__file__)))
    for form, texts in EXPECTED_POINT_SPANS.items():
        assert {s["text"] for s in page.with_title(form)} == texts, form
    # pyadapt's own modules never get a page
    assert not any(name.startswith("_introspect.py") for name in os.listdir(tmp_path / "rep"))


# ---- (b) in a real browser --------------------------------------------------------------------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("Chromium is not installed (apt-get install chromium): the report is not "
                "checked in a browser here")


def run_chromium(args, tmp_path):
    proc = subprocess.run(
        [chromium(), "--headless", "--disable-gpu", "--no-sandbox", "--disable-dev-shm-usage",
         "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}", *args],
        capture_output=True, text=True, timeout=180, env=child_env())
    assert proc.returncode == 0, describe(proc)
    return proc


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def test_report_in_chromium(point_report, tmp_path):
    _, path = point_report
    url = "file://" + os.path.abspath(path)
    # The DOM as the browser built it (after parsing and the page's script)
    dom = run_chromium(["--dump-dom", url], tmp_path).stdout
    page = Page(dom)
    assert not page.errors, page.errors[:5]
    for form, texts in EXPECTED_POINT_SPANS.items():
        spans = page.with_title(form)
        assert {s["text"] for s in spans} == texts, (form, spans)
        assert all(page.status(s) == "specialized" for s in spans)
    assert page.lines == POINT.splitlines()

    # What the browser paints: the legend's green on the specialized expressions and the
    # neutral blue-grey of code that ran too few times (the module level ran once).
    shot = tmp_path / "report.png"
    run_chromium([f"--screenshot={shot}", "--window-size=1200,900", url], tmp_path)
    assert shot.stat().st_size > 10_000
    width, height, rows = png_pixels(shot)
    assert (width, height) == (1200, 900)
    counts = {}
    for row in rows:
        for px in row:
            counts[px] = counts.get(px, 0) + 1
    green = counts.get((0xA8, 0xE6, 0xA1), 0)       # --ok in the page's CSS
    few = counts.get((0xDF, 0xE9, 0xF3), 0)         # --few
    assert green > 2000 and few > 300, (green, few)
    # and nothing of this program is shown as a problem (the module level ran once)
    assert {page.status(s) for s in page.spans} <= {"specialized", "few", "cold"}


# ---- (c) --stats, --stats-json, --warmup, --generic -------------------------------------------

HOT = '''\
import atexit, json, os, sys
import pyadapt


def hot(n):
    t = 0.0
    for i in range(n):
        t = t + 0.5
    return t


def at_exit_work(n):
    t = 1.0
    for i in range(n):
        t = t * 1.0
    return t


print("''' + MARKER + '''" + json.dumps({"config": pyadapt.config(), "result": hot(300)}), flush=True)
if "child" in sys.argv:
    import subprocess
    code = ("import json, os, pyadapt; print(" + repr("''' + MARKER + '''") + " + json.dumps("
            "{'config': pyadapt.config(), 'enabled': pyadapt.is_enabled(), "
            "'env': [os.environ.get('PYADAPT_WARMUP'), os.environ.get('PYADAPT_SPECIALIZE')]}))")
    subprocess.run([sys.executable, "-c", code], check=True)
if "atexit" in sys.argv:
    atexit.register(at_exit_work, 300)
if "exit" in sys.argv:
    sys.exit(3)
if "raise" in sys.argv:
    raise ValueError("the program failed")
'''


def run_hot(tmp_path, options, *program_args, env=None):
    write(tmp_path / "hot.py", HOT)
    out = tmp_path / "stats.json"
    proc = run_pyadapt([*options, "--stats-json", str(out), "hot.py", *program_args], tmp_path,
                       env=env)
    assert out.exists(), "no --stats-json written\n" + describe(proc)
    with open(out) as f:
        return proc, json.load(f)


def test_stats_json_and_table(tmp_path):
    proc, stats = run_hot(tmp_path, ["--stats"])
    native = run_python(["hot.py"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert proc.stdout == native.stdout  # the same program output
    assert set(stats) >= {"instructions", "frames", "inlined_calls", "compiled", "fallbacks",
                          "families", "specialized"}
    # the hot loop specialized: t + 0.5 on floats, range iteration
    assert stats["families"]["BINARY_OP"]["specialized"] >= 1
    assert stats["specialized"]["BINARY_OP_ADD_FLOAT"]["hits"] >= 295
    assert stats["specialized"]["FOR_ITER_RANGE"]["hits"] >= 295
    assert stats["frames"] >= 2       # the module and hot(), in pyadapt's loop
    err = proc.stderr
    # the instruction count only in a build that counts it (PYADAPT_COUNT_INSTRUCTIONS=1)
    assert ("instructions executed" in err) == (stats["instructions"] is not None), err
    for text in ("pyadapt statistics", "frames evaluated",
                 "calls inlined", "code objects compiled", "frames run by CPython's loop",
                 "BINARY_OP", "hit rate", "BINARY_OP_ADD_FLOAT", "specialized forms"):
        assert text in err, f"--stats does not show {text!r}:\n{err}"
    # the table's count is the JSON's: the writer itself ran natively, counting nothing
    assert f"{stats['frames']:,}" in err


def test_help_shows_the_new_options(tmp_path):
    proc = run_pyadapt(["--help"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    for text in ("--stats", "--stats-json FILE", "--report DIR", "--warmup N", "--generic",
                 "PYADAPT_WARMUP"):
        assert text in proc.stdout, f"--help does not mention {text!r}:\n{proc.stdout}"


@pytest.mark.parametrize("ending, status", [("exit", 3), ("raise", 1), ("atexit", 0)])
def test_outputs_are_written_however_the_program_ends(tmp_path, ending, status):
    proc, stats = run_hot(tmp_path, ["--stats", "--report", "rep"], ending)
    native = run_python(["hot.py", ending], tmp_path)
    assert proc.returncode == native.returncode == status, describe(proc)
    assert proc.stdout == native.stdout
    assert proc.stderr.startswith(native.stderr), describe(proc)   # the traceback, as natively
    assert "pyadapt statistics" in proc.stderr
    assert (tmp_path / "rep" / "index.html").exists()
    if ending == "atexit":
        # the program's atexit handlers run first: their work is in the counts
        assert stats["specialized"]["BINARY_OP_MULTIPLY_FLOAT"]["hits"] >= 295
    else:
        assert stats["specialized"]["BINARY_OP_MULTIPLY_FLOAT"]["hits"] == 0


def test_warmup_takes_effect_here_and_in_children(tmp_path):
    installed_pth()  # the child starts under pyadapt through the autostart .pth
    proc, stats = run_hot(tmp_path, ["--warmup", "0"], "child")
    assert proc.returncode == 0, describe(proc)
    parent, child = reports(proc)
    # the parent writes a report, which reads site records; the child (PYADAPT=1) keeps none
    assert parent["config"] == {"specialize": True, "warmup": 0, "compile_after": 2,
                                "record_sites": True}
    assert child["config"] == {"specialize": True, "warmup": 0, "compile_after": 2,
                               "record_sites": False}
    assert child["enabled"]
    assert child["env"] == ["0", None]
    assert stats["specialized"]["BINARY_OP_ADD_FLOAT"]["hits"] >= 299  # from the first pass

    # a warmup longer than the loop: the loop never specializes
    proc, stats = run_hot(tmp_path, ["--warmup", "1000"])
    (parent,) = reports(proc)
    assert parent["config"]["warmup"] == 1000
    assert stats["specialized"]["BINARY_OP_ADD_FLOAT"]["hits"] == 0
    assert stats["families"]["BINARY_OP"]["deferred"] >= 300


def test_generic_mode_specializes_nothing_here_and_in_children(tmp_path):
    installed_pth()
    proc, stats = run_hot(tmp_path, ["--generic", "--stats", "--report", "rep"], "child")
    assert proc.returncode == 0, describe(proc)
    parent, child = reports(proc)
    assert parent["config"]["specialize"] is False and parent["result"] == 150.0
    assert child["config"]["specialize"] is False and child["enabled"]
    assert child["env"] == [None, "0"]
    assert stats["frames"] >= 2, "pyadapt did not run the program"
    assert all(f["hits"] == 0 and f["misses"] == 0 for f in stats["specialized"].values())
    assert all(f["specialized"] == 0 and f["deferred"] == 0 for f in stats["families"].values())
    assert "generic mode" in proc.stderr
    page = read_page(page_of(tmp_path / "rep", "hot.py"))
    statuses = {page.status(s) for s in page.spans}
    assert statuses == {"generic"}, statuses


@pytest.mark.parametrize("value", ["-1", "x", "2.5"])
def test_bad_warmup_is_a_usage_error(tmp_path, value):
    write(tmp_path / "hot.py", HOT)
    proc = run_pyadapt(["--warmup", value, "hot.py"], tmp_path)
    assert proc.returncode == 2, describe(proc)
    assert "usage: python -m pyadapt" in proc.stderr and "--warmup" in proc.stderr


def test_stats_json_unwritable_does_not_change_the_ending(tmp_path):
    write(tmp_path / "hot.py", HOT)
    proc = run_pyadapt(["--stats-json", str(tmp_path / "no" / "such" / "dir.json"), "hot.py",
                        "exit"], tmp_path)
    assert proc.returncode == 3, describe(proc)
    assert "pyadapt: cannot write --stats-json" in proc.stderr


# ---- (d) a report that says what to change ------------------------------------------------------

# bodies.py of the README: vx is an int, squared (** has no specialized form), dt a float;
# double() sees floats, then ints, in turn.
FIX = '''\
import json
import helper


class Body:
    def __init__(self, x, vx):
        self.x = x
        self.vx = vx

    def step(self, dt):
        self.x = self.x + self.vx ** 2 * dt


def double(xs):
    t = 0
    for x in xs:
        t = x + x
    return t


bodies = [Body(0.0, 1) for _ in range(10)]
for _ in range(100):
    for b in bodies:
        b.step(0.01)
for _ in range(20):
    double([1.0] * 60 + [1] * 60)
print(json.dumps(round(bodies[0].x, 3)), helper.twice(2))
'''

HELPER = "def twice(n):\n    return n * 2\n"


def fix_line(expression):
    return next(n for n, text in enumerate(FIX.splitlines(), 1) if expression in text)


@pytest.fixture(scope="module")
def fix_report(tmp_path_factory):
    """``--report rep --stats-json stats.json fix.py``: the directory, the page of fix.py
    read back, and the statistics of the same run."""
    tmp = tmp_path_factory.mktemp("fix")
    write(tmp / "fix.py", FIX)
    write(tmp / "helper.py", HELPER)
    (tmp / "rep").mkdir()
    write(tmp / "rep" / "notes.html", "<p>the user's own notes</p>\n")
    write(tmp / "rep" / "gone.py-0badcafe.html",
          '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
          '<meta name="generator" content="pyadapt">\n<title>an old page</title>\n')
    native = run_python(["fix.py"], tmp)
    # --compile-after 0: helper.twice, called once, gets a unit and so a page
    proc = run_pyadapt(["--compile-after", "0", "--warmup", "2", "--report", "rep",
                        "--stats-json", "stats.json", "fix.py"], tmp)
    assert proc.returncode == 0 and proc.stdout == native.stdout, describe(proc)
    with open(tmp / "stats.json") as f:
        stats = json.load(f)
    return tmp / "rep", read_page(page_of(tmp / "rep", "fix.py")), stats


def stats_site(stats, expression, instruction):
    line = fix_line(expression)
    (record,) = [r for r in stats["sites"] if r["file"].endswith("fix.py")
                 and r["line"] == line and r["instruction"] == instruction
                 and FIX.splitlines()[line - 1][r["column"]:r["end_column"]] == expression]
    return record


def test_sites_to_fix_say_what_was_seen_and_what_to_change(fix_report):
    _, page, stats = fix_report
    # pyadapt's own statistics: the power failed (no specialized form of **), the
    # addition in double() deoptimized more than once, seeing floats and ints
    mul = stats_site(stats, "self.vx ** 2", "BINARY_OP")
    assert mul["kind"] == "adaptive" and mul["failure"] == "operator not specialized"
    assert mul["seen"][0]["types"] == ["int", "int"]
    add = stats_site(stats, "x + x", "BINARY_OP")
    assert add["deopts"] >= 2 and add["failure"] is None, add
    assert {tuple(e["types"]) for e in add["seen"]} == {("float", "float"), ("int", "int")}

    rows = {row["cells"][0]: row for row in page.fixes}
    mul_row = rows[f"line {fix_line('self.vx ** 2')}:{mul['column']}"]
    where, function, instruction, what, saw, advice = mul_row["cells"]
    assert (function, instruction) == ("Body.step", "BINARY_OP")
    assert what == "specialization failed: operator not specialized"
    assert saw.startswith("int and int: operator not specialized")
    assert advice.startswith("** does not specialize")
    assert "f-failed" in mul_row["classes"]

    add_row = rows[f"line {fix_line('t = x + x')}:{add['column']}"]
    _, function, _, what, saw, advice = add_row["cells"]
    assert function == "double"
    assert what == f"deoptimized / polymorphic: deoptimized {add['deopts']} times"
    assert "float and float: BINARY_OP_ADD_FLOAT" in saw and "int and int: BINARY_OP_ADD_INT" \
        in saw
    assert advice.startswith("polymorphic: it saw float, then int") or \
        advice.startswith("polymorphic: it saw int, then float"), advice

    # each row links to its span, whose hover holds the same details
    for row in (mul_row, add_row):
        assert row["href"].startswith("#S")
        (span,) = [s for s in page.spans if s["id"] == row["href"][1:]]
        assert row["cells"][5] in span["title"] and "what it saw" in span["title"]
    assert page.status(next(s for s in page.spans if s["id"] == mul_row["href"][1:])) == "failed"
    assert page.status(next(s for s in page.spans if s["id"] == add_row["href"][1:])) == "deopt"
    # every in-page link has its target
    assert all(h[1:] in page.ids for h in page.links if h.startswith("#")), page.links

    # code that ran once (the module level: the list of bodies) is no problem
    once = fix_line("bodies = [Body(0.0, 1)")
    statuses = {page.status(s) for s in page.spans if f"line {once}," in s["title"]
                and "<module>" in s["title"]}
    assert statuses and not statuses & {"failed", "deopt", "missing"}, statuses


def test_index_puts_the_program_first_and_keeps_only_this_run(fix_report):
    directory, _, _ = fix_report
    index = read_page(directory / "index.html")
    text = (directory / "index.html").read_text()
    order = [m for m in re.findall(r'id="g-([a-z-]+)"', text)]
    assert order[0] == "program" and "stdlib" in order, order
    program_part = text[text.index('id="g-program"'):text.index('id="g-stdlib"')]
    assert "fix.py" in program_part and "helper.py" in program_part
    assert "json" + os.sep + "__init__.py" in text[text.index('id="g-stdlib"'):]
    # every page the index links exists; the stale page is gone, the user's file is not
    pages = [h.split("#")[0] for h in index.links if h.endswith(".html") or ".html#" in h]
    assert pages and all((directory / p).exists() for p in pages)
    assert not (directory / "gone.py-0badcafe.html").exists()
    assert (directory / "notes.html").read_text() == "<p>the user's own notes</p>\n"
    assert set(os.listdir(directory)) == {"index.html", "notes.html"} | set(pages)


def test_report_only_limits_the_pages(tmp_path):
    write(tmp_path / "fix.py", FIX)
    write(tmp_path / "helper.py", HELPER)
    proc = run_pyadapt(["--compile-after", "0", "--report", "rep", "fix.py"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    assert len(os.listdir(tmp_path / "rep")) > 3
    # the same directory again, limited: the pages of the run before are gone
    proc = run_pyadapt(["--compile-after", "0", "--report", "rep", "--report-only", "fix.py",
                        "--report-only", "help*.py", "fix.py"], tmp_path)
    assert proc.returncode == 0, describe(proc)
    names = sorted(os.listdir(tmp_path / "rep"))
    assert [n.split("-")[0] for n in names] == ["fix.py", "helper.py", "index.html"], names
    assert "Limited to" in (tmp_path / "rep" / "index.html").read_text()
    # a directory: every file under it
    proc = run_pyadapt(["--compile-after", "0", "--report", "rep", f"--report-only={tmp_path}",
                        "fix.py"], tmp_path)
    names = sorted(n.split("-")[0] for n in os.listdir(tmp_path / "rep"))
    assert names == ["fix.py", "helper.py", "index.html"], names
    # without --report it means nothing: an error
    proc = run_pyadapt(["--report-only", "fix.py", "fix.py"], tmp_path)
    assert proc.returncode == 2 and "--report-only" in proc.stderr, describe(proc)


def test_command_programs_get_a_page(tmp_path):
    code = "t = 0.0\nfor i in range(50):\n    t = t + i ** 2\nprint(t)"
    proc = run_pyadapt(["--report", "rep", "--stats-json", "stats.json", "-c", code], tmp_path)
    assert proc.returncode == 0 and proc.stdout == "40425.0\n", describe(proc)
    # pyadapt's own record of the site: i ** 2 failed (no specialized form of **)
    stats = json.loads((tmp_path / "stats.json").read_text())
    (record,) = [r for r in stats["sites"] if r["file"] == "<string>" and r["line"] == 3
                 and r["column"] == 12 and r["instruction"] == "BINARY_OP"]
    assert record["failure"] == "operator not specialized", record
    page = read_page(page_of(tmp_path / "rep", "_string_"))
    assert page.lines == code.splitlines()
    assert "&lt;string&gt; (the -c program)" in (tmp_path / "rep" / "index.html").read_text()
    (mul,) = [s for s in page.spans if s["title"].startswith("BINARY_OP_ADAPTIVE")
              and "line 3, columns 12-18" in s["title"]]
    assert page.status(mul) == "failed" and "write the product" in mul["title"]


def test_fix_links_and_details_in_chromium(fix_report, tmp_path):
    directory, page, _ = fix_report
    path = page_of(directory, "fix.py")
    first = page.fixes[0]
    url = "file://" + os.path.abspath(path) + first["href"]
    dom = Page(run_chromium(["--dump-dom", url], tmp_path).stdout)
    assert not dom.errors, dom.errors[:5]
    # the link's target is selected and its details are in the panel, as on hover
    (target,) = [s for s in dom.spans if s["id"] == first["href"][1:]]
    assert "sel" in target["classes"]
    assert dom.panel and not dom.panel["hidden"], dom.panel
    assert dom.panel["text"] == target["title"]
    assert "to specialize: " + first["cells"][5] in dom.panel["text"]
    # every link of the page, as the browser built it, has its target
    assert all(h[1:] in dom.ids for h in dom.links if h.startswith("#")), dom.links
    assert all(os.path.exists(os.path.join(directory, h.split("#")[0]))
               for h in dom.links if not h.startswith("#"))
    # the index, in the browser: the program's group first, its links to the pages' fixes
    index = Page(run_chromium(["--dump-dom", "file://" + str(directory / "index.html")],
                              tmp_path).stdout)
    fixes = [h for h in index.links if h.endswith("#fix")]
    assert fixes and all(os.path.exists(directory / h[:-4]) for h in fixes)
    assert os.path.basename(path) + "#fix" in fixes


def test_hover_shows_details_in_chromium(fix_report, tmp_path):
    """The hover itself: a mouseover dispatched on a site's span in the browser (a copy of
    the page with one script more, run after the page's own) puts that span's details in the
    panel; the page as written, opened without a fragment, shows no panel."""
    directory, page, _ = fix_report
    path = page_of(directory, "fix.py")
    target = page.fixes[0]["href"][1:]
    plain = Page(run_chromium(["--dump-dom", "file://" + os.path.abspath(path)], tmp_path).stdout)
    assert plain.panel and plain.panel["hidden"], plain.panel
    text = open(path, encoding="utf-8").read()
    probe = ("<script>document.getElementById(%s).dispatchEvent(new MouseEvent('mouseover', "
             "{bubbles: true, view: window}));</script>" % json.dumps(target))
    assert text.count("</body>") == 1
    hovered = directory / "hovered-probe.html"
    hovered.write_text(text.replace("</body>", probe + "</body>"), encoding="utf-8")
    try:
        dom = Page(run_chromium(["--dump-dom", "file://" + str(hovered)], tmp_path).stdout)
    finally:
        hovered.unlink()
    assert not dom.errors, dom.errors[:5]
    (span,) = [s for s in dom.spans if s["id"] == target]
    assert dom.panel and not dom.panel["hidden"], dom.panel
    assert dom.panel["text"] == span["title"]
    assert "what it saw" in dom.panel["text"] and "to specialize: " in dom.panel["text"]
    assert "sel" not in span["classes"]          # hovered, not selected by a link
