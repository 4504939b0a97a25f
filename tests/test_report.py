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
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if tag not in VOID:
            self.stack.append((tag, classes))
        if tag == "span" and "line" in classes:
            self._line = []
        elif tag == "a" and "ln" in classes:
            self._in_number = True
        elif tag == "span" and "pa" in classes:
            if self._span is not None:
                self.errors.append("a coloured span inside a coloured span")
            self._span = {"classes": classes, "title": attrs.get("title"), "text": []}
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
    # the module level ran once: adaptive, not specialized yet
    assert by_status.get("warming"), "no adaptive site shown"
    assert by_status.get("specialized")


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
    # adaptive yellow (the module level ran once) in the screenshot.
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
    yellow = counts.get((0xFF, 0xE9, 0x8A), 0)      # --warm
    assert green > 2000 and yellow > 300, (green, yellow)


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
    assert parent["config"] == {"specialize": True, "warmup": 0}
    assert child["config"] == {"specialize": True, "warmup": 0} and child["enabled"]
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
