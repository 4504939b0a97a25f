"""Why a site did not specialize, in words, and what change to the code would let it.

``explain(family, operator, failure, seen, deopts)`` reads what the specializer saw at one
site (``_sites.seen_at``: the operand types, the callable's or attribute's kind, the outcome
of each attempt) and returns ``(saw, advice)``: a sentence of what it met, and a change to
the code, or None where there is none to make (no specialized form exists for that case).
The report's hover, its "sites to fix" and ``--stats-json`` use it.
"""

__all__ = ["explain", "describe_seen"]

_NUMBERS = {"int", "float"}
MISSED = "missed its guards"        # the kind of an observation made at a miss (_sites)
_ARITHMETIC = {"+", "-", "*", "/", "+=", "-=", "*=", "/="}


def _types(entry):
    return " and ".join(entry["types"]) if entry["types"] else "?"


def describe_seen(family, seen):
    """One line per distinct observation: "int and float: operands of different types (9)"."""
    out = []
    for e in seen:
        if e["kind"] == MISSED:
            # at a miss: the operands (or the owner, or the callable) that failed the guards
            out.append("%s: missed the guards of %s%s" % (
                _types(e), e["result"], " (%d times)" % e["count"] if e["count"] > 1 else ""))
            continue
        what = _types(e) if family not in _ATTRIBUTE_FAMILIES else _attr_what(e)
        if family == "CALL":
            what = _call_what(e)
        result = e["result"] or "not specialized"
        out.append("%s: %s%s" % (what, result,
                                 " (%d attempts)" % e["count"] if e["count"] > 1 else ""))
    return out


_ATTRIBUTE_FAMILIES = {"LOAD_ATTR", "STORE_ATTR", "LOAD_METHOD"}


def _attr_what(e):
    owner = e["types"][0] if e["types"] else "?"
    kind = e["kind"] or "?"
    if len(e["types"]) > 1 and kind not in ("instance attribute",):
        return "%s, %s (%s)" % (owner, kind, e["types"][1])
    return "%s, %s" % (owner, kind)


def _call_what(e):
    kind = e["kind"] or "callable"
    if len(e["types"]) > 1:
        return "%s %s" % (kind, e["types"][1])
    return "%s (%s)" % (kind, e["types"][0] if e["types"] else "?")


# failure kind -> the change (OWNER: the type of the object whose attribute it is)
_ATTRIBUTE_ADVICE = {
    "attribute not in the instance's shared keys":
        "set every attribute of OWNER in __init__ (to None if it has no value yet), always "
        "in the same order, so that instances share their keys",
    "instance __dict__ materialized":
        "the instance's __dict__ was used directly (vars(obj), obj.__dict__): avoid that, "
        "or give OWNER __slots__",
    "plain class attribute on an instance":
        "a class attribute read through an instance: read it from the class (OWNER.name) "
        "or make it a module constant",
    "class attribute shadowed by the instance":
        "the instance has an attribute with the method's name: rename one",
    "type has no version tag":
        "OWNER keeps changing (class attributes assigned at run time): set them when the "
        "class is made",
    "name not found":
        "the attribute did not exist when this first ran: create it in __init__",
}


def times(n):
    return "once" if n == 1 else "twice" if n == 2 else "%d times" % n


def _combo(types):
    """"float" for (float, float), "int and float" for (int, float)."""
    if len(set(types)) == 1:
        return types[0]
    return " and ".join(types) or "?"


def _distinct(seen):
    out, keys = [], set()
    for e in seen:
        if tuple(e["types"]) not in keys:
            keys.add(tuple(e["types"]))
            out.append(e)
    return out


def _last_failed(seen):
    for e in reversed(seen):
        if not e["specialized"] and e["kind"] != MISSED:
            return e
    return None


def _operator_advice(operator, failure, types):
    a, b = (types + ["?", "?"])[:2]
    if failure == "operands of different types":
        # int and float mixed specialize for + - * / and comparisons (the NUMERIC forms);
        # // % ** and the bitwise operators have no form for them, floats alike or not
        if "bool" in (a, b) and {a, b} <= {"bool", "int"}:
            return "operands %s and %s: make both ints (int(flag))" % (a, b)
        return None      # list * int, str % tuple, ...: no specialized form to reach
    if failure == "operator not specialized":
        op = operator.rstrip("=") if operator not in ("==", "!=", "<=", ">=") else operator
        if op == "**" and a in _NUMBERS:
            return ("** does not specialize: for a small constant power write the product "
                    "(x * x for x ** 2)")
        if op in ("<", ">", "<=", ">=") and a == "str":
            return None     # only == and != on str specialize; nothing better to write
    return None


def explain(family, operator, failure, seen, deopts=0, *, specialized=False):
    """(saw, advice) for a site: ``failure`` its last failure kind (None if it has none),
    ``seen`` the observations of ``_sites.seen_at``, ``operator`` the instruction's argrepr
    (BINARY_OP, COMPARE_OP), ``specialized`` whether it is specialized now (and missing)."""
    lines = describe_seen(family, seen)
    saw = "; ".join(lines) if lines else None
    kinds = {tuple(e["types"]) for e in seen if e["kind"] != MISSED}
    if specialized:
        now = [e for e in seen if e["specialized"]]
        if not now:
            return saw, None
        last = now[-1]
        missed = [e for e in seen if e["kind"] == MISSED]
        if missed:
            most = max(missed, key=lambda e: e["count"])
            had, came = _combo(last["types"]), _combo(most["types"])
            often = "%s (%d times)" % (came, most["count"])
            if family in ("BINARY_OP", "COMPARE_OP") and had == "float" and "int" in came:
                return saw, ("specialized for float, then %s came: make them floats (start a "
                             "sum at 0.0, not 0)" % often)
            if family in _ATTRIBUTE_FAMILIES or family == "CALL":
                return saw, ("specialized for %s, then %s came: keep one class here, or "
                             "split the code by class" % (had, often))
            return saw, ("specialized for %s, then %s came: keep one type here, or split "
                         "the code by type" % (had, often))
        if family in ("BINARY_OP", "COMPARE_OP") and set(last["types"]) == {"float"}:
            return saw, ("specialized for floats, then its guards failed: if ints come here "
                         "too, make them floats (start a sum at 0.0, not 0)")
        if family in ("BINARY_OP", "COMPARE_OP") and set(last["types"]) == {"int"}:
            return saw, ("specialized for ints, then its guards failed: other types, or "
                         "ints beyond 2**30, come here too; keep this site to small ints")
        return saw, ("specialized for %s, then its guards failed: other types come here "
                     "too; keep this site to one" % _types(last))
    if deopts and failure is None:
        if len(kinds) > 1:
            return saw, ("polymorphic: it saw %s. Keep one type here (all floats, one "
                         "class) or split the code by type" % ", then ".join(
                             _combo(e["types"]) for e in _distinct(seen)))
        return saw, ("deoptimized %s: its guards kept failing. Keep the operands' "
                     "types and the objects' classes the same here" % times(deopts))
    if failure is None:
        return saw, None
    last = _last_failed(seen) or {"types": [], "kind": None}
    types = list(last["types"])
    kind = last.get("kind")
    if family in ("BINARY_OP", "COMPARE_OP"):
        advice = _operator_advice(operator or "", failure, types)
        return saw, advice
    owner = types[0] if types else "the object"
    if family in _ATTRIBUTE_FAMILIES:
        if kind == "class defines __getattr__":
            return saw, ("%s defines __getattr__, so no attribute of its instances "
                         "specializes: drop __getattr__, or serve those names with "
                         "properties" % owner)
        if kind == "class defines __getattribute__":
            return saw, ("%s defines __getattribute__ (not a plain function of self and "
                         "name): every attribute access goes through it" % owner)
        text = _ATTRIBUTE_ADVICE.get(failure)
        return saw, text.replace("OWNER", owner) if text else None
    if family == "LOAD_GLOBAL":
        if failure == "name not found":
            return saw, "the global did not exist yet when this ran: define it first"
        return saw, None
    if family == "CALL":
        if failure == "call with keyword arguments" and kind and kind.startswith("Python"):
            return saw, "called with keyword arguments: pass them positionally here"
        if failure == "call with keyword arguments" and kind and kind.startswith("class"):
            return saw, ("the class is called with keyword arguments: pass them "
                         "positionally here")
        if failure == "arguments do not match the parameters simply" and kind and \
                "*args" in kind:
            return saw, ("the function takes *args, **kwargs or keyword-only parameters: "
                         "give it plain positional parameters")
        if kind and kind.startswith("bound method"):
            return saw, ("a bound method kept in a variable (m = obj.meth; m()): call "
                         "obj.meth() directly")
        if kind == "other callable object":
            return saw, ("a callable object (functools.partial, an instance with __call__): "
                         "call a function directly")
        return saw, None
    if family == "TO_BOOL" and failure == "class defines its truth (__bool__ or __len__)":
        return saw, ("%s defines __bool__ or __len__, so `if x:` calls it every time: where "
                     "the test means \"is there an object\", write `if x is not None:`" % owner)
    if family == "UNPACK_SEQUENCE" and failure == "sequence type or length not specialized":
        if types and types[0] not in ("tuple", "list"):
            return saw, "unpacking a %s: unpack a tuple or a list" % types[0]
        return saw, None
    return saw, None
