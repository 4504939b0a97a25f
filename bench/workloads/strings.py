"""String building: f-strings and %-formatting, concatenation in a loop, str.join, split,
replace, upper, startswith and slicing -- a small report written and parsed back."""

SIZE = 12_000
TINY = 10

NAMES = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel")


def make_line(i):
    name = NAMES[i % len(NAMES)]
    qty = (i * 37) % 101
    price = ((i * 7919) % 10_000) / 100.0
    return f"{i:05d};{name};{qty};{price:.2f};" + "%s-%d" % (name[:3].upper(), i % 17)


def build_report(n):
    parts = []
    header = ""
    for col in ("id", "name", "qty", "price", "code"):
        header += col.upper() + ";"
    parts.append(header[:-1])
    for i in range(n):
        parts.append(make_line(i))
    return "\n".join(parts)


def parse_report(text):
    lines = text.split("\n")
    total = 0.0
    codes = {}
    longest = ""
    for line in lines[1:]:
        ident, name, qty, price, code = line.split(";")
        total += int(qty) * float(price)
        prefix = code.split("-")[0]
        codes[prefix] = codes.get(prefix, 0) + 1
        if len(name) > len(longest) or (len(name) == len(longest) and name < longest):
            longest = name
        if ident.startswith("000"):
            line = line.replace(";", ",")
    return round(total, 2), sorted(codes.items()), longest


def run(n):
    text = build_report(n)
    summary = parse_report(text)
    acc = ""
    for word in text[:2000].split(";"):
        acc = acc + word[::-1][:3]
    return len(text), summary, len(acc), acc[:40]
