"""An incremental one-way constraint solver in the DeltaBlue style (local propagation with
walkabout strengths): variables, stay/edit/equality/scale constraints of several strengths,
incremental add and remove, plan extraction and execution.  Object graphs, attribute-
and method-heavy code with calls through a class hierarchy."""

SIZE = 2_500
TINY = 12


class Strength:
    def __init__(self, rank, name):
        self.rank = rank  # lower is stronger
        self.name = name

    def stronger(self, other):
        return self.rank < other.rank

    def weaker(self, other):
        return self.rank > other.rank

    def weakest_of(self, other):
        return self if self.rank > other.rank else other


REQUIRED = Strength(0, "required")
STRONG_PREFERRED = Strength(1, "strong preferred")
PREFERRED = Strength(2, "preferred")
STRONG_DEFAULT = Strength(3, "strong default")
NORMAL = Strength(4, "normal")
WEAK_DEFAULT = Strength(5, "weak default")
WEAKEST = Strength(6, "weakest")
ALL_STRENGTHS = (REQUIRED, STRONG_PREFERRED, PREFERRED, STRONG_DEFAULT, NORMAL,
                 WEAK_DEFAULT, WEAKEST)

NONE, FORWARD, BACKWARD = 0, 1, 2


class ConstraintError(Exception):
    pass


class Variable:
    def __init__(self, name, value=0):
        self.name = name
        self.value = value
        self.constraints = []
        self.determined_by = None
        self.walk_strength = WEAKEST
        self.stay = True
        self.mark = 0


class Constraint:
    def __init__(self, planner, strength):
        self.planner = planner
        self.strength = strength

    def install(self):
        self.add_to_graph()
        self.planner.incremental_add(self)

    def uninstall(self):
        if self.is_satisfied():
            self.planner.incremental_remove(self)  # also takes it out of the graph
        else:
            self.remove_from_graph()

    def is_input(self):
        return False

    def satisfy(self, mark):
        self.choose_method(mark)
        if not self.is_satisfied():
            if self.strength is REQUIRED:
                raise ConstraintError("could not satisfy a required constraint")
            return None
        self.mark_inputs(mark)
        out = self.output()
        overridden = out.determined_by
        if overridden is not None:
            overridden.mark_unsatisfied()
        out.determined_by = self
        if not self.planner.add_propagate(self, mark):
            raise ConstraintError("cycle")
        out.mark = mark
        return overridden


class UnaryConstraint(Constraint):
    def __init__(self, planner, var, strength):
        Constraint.__init__(self, planner, strength)
        self.var = var
        self.satisfied = False
        self.install()

    def add_to_graph(self):
        self.var.constraints.append(self)
        self.satisfied = False

    def remove_from_graph(self):
        self.var.constraints.remove(self)
        self.satisfied = False

    def choose_method(self, mark):
        self.satisfied = self.var.mark != mark and self.strength.stronger(self.var.walk_strength)

    def is_satisfied(self):
        return self.satisfied

    def mark_inputs(self, mark):
        pass

    def inputs_known(self, mark):
        return True

    def output(self):
        return self.var

    def mark_unsatisfied(self):
        self.satisfied = False

    def recalculate(self):
        self.var.walk_strength = self.strength
        self.var.stay = not self.is_input()
        if self.var.stay:
            self.execute()

    def execute(self):
        pass


class StayConstraint(UnaryConstraint):
    pass


class EditConstraint(UnaryConstraint):
    def is_input(self):
        return True


class BinaryConstraint(Constraint):
    def __init__(self, planner, v1, v2, strength):
        Constraint.__init__(self, planner, strength)
        self.v1 = v1
        self.v2 = v2
        self.direction = NONE
        self.install()

    def add_to_graph(self):
        self.v1.constraints.append(self)
        self.v2.constraints.append(self)
        self.direction = NONE

    def remove_from_graph(self):
        self.v1.constraints.remove(self)
        self.v2.constraints.remove(self)
        self.direction = NONE

    def choose_method(self, mark):
        v1, v2, s = self.v1, self.v2, self.strength
        if v1.mark == mark:
            ok = v2.mark != mark and s.stronger(v2.walk_strength)
            self.direction = FORWARD if ok else NONE
        elif v2.mark == mark:
            ok = v1.mark != mark and s.stronger(v1.walk_strength)
            self.direction = BACKWARD if ok else NONE
        elif v1.walk_strength.weaker(v2.walk_strength):
            self.direction = BACKWARD if s.stronger(v1.walk_strength) else NONE
        else:
            self.direction = FORWARD if s.stronger(v2.walk_strength) else NONE

    def is_satisfied(self):
        return self.direction != NONE

    def input(self):
        return self.v1 if self.direction == FORWARD else self.v2

    def output(self):
        return self.v2 if self.direction == FORWARD else self.v1

    def mark_inputs(self, mark):
        self.input().mark = mark

    def inputs_known(self, mark):
        v = self.input()
        return v.mark == mark or v.stay or v.determined_by is None

    def mark_unsatisfied(self):
        self.direction = NONE

    def recalculate(self):
        src = self.input()
        out = self.output()
        out.walk_strength = self.strength.weakest_of(src.walk_strength)
        out.stay = src.stay
        if out.stay:
            self.execute()


class EqualityConstraint(BinaryConstraint):
    def execute(self):
        self.output().value = self.input().value


class ScaleConstraint(BinaryConstraint):
    def __init__(self, planner, src, scale, offset, dest, strength):
        self.scale = scale
        self.offset = offset
        BinaryConstraint.__init__(self, planner, src, dest, strength)

    def add_to_graph(self):
        BinaryConstraint.add_to_graph(self)
        self.scale.constraints.append(self)
        self.offset.constraints.append(self)

    def remove_from_graph(self):
        BinaryConstraint.remove_from_graph(self)
        self.scale.constraints.remove(self)
        self.offset.constraints.remove(self)

    def mark_inputs(self, mark):
        BinaryConstraint.mark_inputs(self, mark)
        self.scale.mark = mark
        self.offset.mark = mark

    def execute(self):
        if self.direction == FORWARD:
            self.v2.value = self.v1.value * self.scale.value + self.offset.value
        else:
            self.v1.value = (self.v2.value - self.offset.value) // self.scale.value

    def recalculate(self):
        src = self.input()
        out = self.output()
        out.walk_strength = self.strength.weakest_of(src.walk_strength)
        out.stay = src.stay and self.scale.stay and self.offset.stay
        if out.stay:
            self.execute()


class Plan:
    def __init__(self):
        self.steps = []

    def execute(self):
        for c in self.steps:
            c.execute()


class Planner:
    def __init__(self):
        self.current_mark = 0

    def new_mark(self):
        self.current_mark += 1
        return self.current_mark

    def incremental_add(self, c):
        mark = self.new_mark()
        overridden = c.satisfy(mark)
        while overridden is not None:
            overridden = overridden.satisfy(mark)

    def incremental_remove(self, c):
        out = c.output()
        c.mark_unsatisfied()
        c.remove_from_graph()
        unsatisfied = self.remove_propagate_from(out)
        for strength in ALL_STRENGTHS:
            for u in unsatisfied:
                if u.strength is strength:
                    self.incremental_add(u)

    def add_propagate(self, c, mark):
        todo = [c]
        while todo:
            d = todo.pop()
            if d.output().mark == mark:
                self.incremental_remove(c)
                return False
            d.recalculate()
            self.add_consumers(d.output(), todo)
        return True

    def remove_propagate_from(self, out):
        out.determined_by = None
        out.walk_strength = WEAKEST
        out.stay = True
        unsatisfied = []
        todo = [out]
        while todo:
            v = todo.pop()
            for c in v.constraints:
                if not c.is_satisfied():
                    unsatisfied.append(c)
            determining = v.determined_by
            for c in v.constraints:
                if c is not determining and c.is_satisfied():
                    c.recalculate()
                    todo.append(c.output())
        return unsatisfied

    def add_consumers(self, v, into):
        determining = v.determined_by
        for c in v.constraints:
            if c is not determining and c.is_satisfied():
                into.append(c)

    def make_plan(self, sources):
        mark = self.new_mark()
        plan = Plan()
        todo = list(sources)
        while todo:
            c = todo.pop()
            out = c.output()
            if out.mark != mark and c.inputs_known(mark):
                plan.steps.append(c)
                out.mark = mark
                self.add_consumers(out, todo)
        return plan

    def plan_for_edits(self, edits):
        return self.make_plan([c for c in edits if c.is_input() and c.is_satisfied()])


def set_value(planner, var, value, repeat=5):
    """Edit `var` through an edit constraint: plan once, execute the plan a few times."""
    edit = EditConstraint(planner, var, PREFERRED)
    plan = planner.plan_for_edits([edit])
    for _ in range(repeat):
        var.value = value
        plan.execute()
    edit.uninstall()


def chain(n):
    """v0 == v1 == ... == vn, all required; edit v0, read vn."""
    planner = Planner()
    vs = [Variable("v%d" % i) for i in range(n + 1)]
    for a, b in zip(vs, vs[1:]):
        EqualityConstraint(planner, a, b, REQUIRED)
    StayConstraint(planner, vs[-1], STRONG_DEFAULT)
    edit = EditConstraint(planner, vs[0], PREFERRED)
    plan = planner.plan_for_edits([edit])
    seen = 0
    for i in range(20):
        vs[0].value = i
        plan.execute()
        if vs[-1].value != i:
            raise ConstraintError("chain failed")
        seen += vs[-1].value
    return seen


def projection(n):
    """dst[i] = src[i] * scale + offset, all required; edit each end and the factors."""
    planner = Planner()
    scale = Variable("scale", 10)
    offset = Variable("offset", 1000)
    src = dst = None
    dests = []
    for i in range(n):
        src = Variable("src%d" % i, i)
        dst = Variable("dst%d" % i, i)
        dests.append(dst)
        StayConstraint(planner, src, NORMAL)
        ScaleConstraint(planner, src, scale, offset, dst, REQUIRED)
    set_value(planner, src, 17)
    first = dst.value
    set_value(planner, dst, 1050)
    second = src.value
    set_value(planner, scale, 5)
    third = sum(d.value for d in dests)
    set_value(planner, offset, 2000)
    fourth = sum(d.value for d in dests)
    return first, second, third, fourth


def run(n):
    return chain(n), projection(n)
