"""A Richards-style operating-system simulation: a priority scheduler runs an idle task,
a worker, two handlers and two devices that pass packets to each other through queues.
Attribute loads and stores on many small objects, method calls, a virtual `run` call
on tasks of five classes at one call site, linked lists."""

SIZE = 15_000
TINY = 30

IDLE, WORKER, HANDLER_A, HANDLER_B, DEVICE_A, DEVICE_B = range(6)
KIND_DEVICE = 0
KIND_WORK = 1
DATA_SIZE = 4


class Packet:
    def __init__(self, link, dest, kind):
        self.link = link
        self.dest = dest
        self.kind = kind
        self.count = 0
        self.datum = 0
        self.data = [0] * DATA_SIZE

    def append_to(self, queue):
        """Append self at the end of the list `queue`; return the list's head."""
        self.link = None
        if queue is None:
            return self
        last = queue
        while last.link is not None:
            last = last.link
        last.link = self
        return queue


class Task:
    def __init__(self, sched, ident, priority, queue):
        self.sched = sched
        self.ident = ident
        self.priority = priority
        self.queue = queue
        self.held = False
        self.waiting = True
        # the task list is kept in descending priority: tasks are created in ascending order
        self.next = sched.task_list
        sched.task_list = self
        sched.tasks[ident] = self

    def runnable(self):
        return not self.held and not (self.waiting and self.queue is None)

    def run(self, packet):
        raise NotImplementedError


class IdleTask(Task):
    def __init__(self, sched, ident, priority, count):
        Task.__init__(self, sched, ident, priority, None)
        self.waiting = False
        self.count = count
        self.seed = 1

    def run(self, packet):
        self.count -= 1
        if self.count == 0:
            return self.sched.hold_self()
        if self.seed & 1 == 0:
            self.seed >>= 1
            return self.sched.release(DEVICE_A)
        self.seed = (self.seed >> 1) ^ 0xD008
        return self.sched.release(DEVICE_B)


class WorkerTask(Task):
    def __init__(self, sched, ident, priority, queue):
        Task.__init__(self, sched, ident, priority, queue)
        self.dest = HANDLER_A
        self.letter = 0

    def run(self, packet):
        if packet is None:
            return self.sched.wait()
        self.dest = HANDLER_B if self.dest == HANDLER_A else HANDLER_A
        packet.dest = self.dest
        packet.count = 0
        for i in range(DATA_SIZE):
            self.letter += 1
            if self.letter > 26:
                self.letter = 1
            packet.data[i] = self.letter
        return self.sched.queue_packet(packet)


class HandlerTask(Task):
    def __init__(self, sched, ident, priority, queue, device):
        Task.__init__(self, sched, ident, priority, queue)
        self.device = device
        self.work = None
        self.devices = None

    def run(self, packet):
        if packet is not None:
            if packet.kind == KIND_WORK:
                self.work = packet.append_to(self.work)
            else:
                self.devices = packet.append_to(self.devices)
        work = self.work
        if work is not None:
            count = work.count
            if count >= DATA_SIZE:
                self.work = work.link
                return self.sched.queue_packet(work)
            dev = self.devices
            if dev is not None:
                self.devices = dev.link
                dev.datum = work.data[count]
                dev.dest = self.device
                work.count = count + 1
                return self.sched.queue_packet(dev)
        return self.sched.wait()


class DeviceTask(Task):
    def __init__(self, sched, ident, priority):
        Task.__init__(self, sched, ident, priority, None)
        self.pending = None

    def run(self, packet):
        if packet is None:
            pending = self.pending
            if pending is None:
                return self.sched.wait()
            self.pending = None
            return self.sched.queue_packet(pending)
        self.pending = packet
        self.sched.output = (self.sched.output * 31 + packet.datum) % 1_000_003
        return self.sched.hold_self()


class Scheduler:
    def __init__(self):
        self.tasks = [None] * 6
        self.task_list = None
        self.current = None
        self.queue_count = 0
        self.hold_count = 0
        self.output = 0

    def schedule(self):
        task = self.task_list
        while task is not None:
            if not task.runnable():
                task = task.next
                continue
            packet = None
            if task.waiting:
                packet = task.queue
                task.queue = packet.link
                task.waiting = False
            self.current = task
            task = task.run(packet)

    def hold_self(self):
        self.hold_count += 1
        self.current.held = True
        return self.current.next

    def release(self, ident):
        task = self.tasks[ident]
        task.held = False
        if task.priority > self.current.priority:
            return task
        return self.current

    def wait(self):
        self.current.waiting = True
        return self.current

    def queue_packet(self, packet):
        target = self.tasks[packet.dest]
        self.queue_count += 1
        packet.dest = self.current.ident
        target.queue = packet.append_to(target.queue)
        if target.waiting and target.queue is packet and target.priority > self.current.priority:
            return target
        return self.current


def run(n):
    sched = Scheduler()
    IdleTask(sched, IDLE, 0, n)
    work = Packet(Packet(None, WORKER, KIND_WORK), WORKER, KIND_WORK)
    WorkerTask(sched, WORKER, 1000, work)
    queue = Packet(Packet(Packet(None, HANDLER_A, KIND_DEVICE), HANDLER_A, KIND_DEVICE),
                   HANDLER_A, KIND_DEVICE)
    HandlerTask(sched, HANDLER_A, 2000, queue, DEVICE_A)
    queue = Packet(Packet(Packet(None, HANDLER_B, KIND_DEVICE), HANDLER_B, KIND_DEVICE),
                   HANDLER_B, KIND_DEVICE)
    HandlerTask(sched, HANDLER_B, 3000, queue, DEVICE_B)
    DeviceTask(sched, DEVICE_A, 4000)
    DeviceTask(sched, DEVICE_B, 5000)
    sched.schedule()
    return sched.queue_count, sched.hold_count, sched.output
