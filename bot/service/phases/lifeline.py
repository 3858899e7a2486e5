"""Worker processes end when the bot ends, however it ends (issue 36).

The pool's workers are forked by multiprocessing's fork server, not by the bot: killed by
SIGKILL (a crash, the OOM killer, a supervisor giving up), the bot cleans nothing up, and
each worker, blocked on its job queue, would wait forever, adopted by init, with the fork
server and the resource tracker it keeps alive (~75 MB a pair, piling up at each restart).

So each worker watches the bot itself: the bot holds the only write end of a pipe (`Lifeline`)
whose read end every worker gets; a thread in the worker (`watch`) blocks on it and ends the
worker when it reads end-of-file, which the kernel gives once the bot's last descriptor is
closed, by exit or by any signal. The fork server and the resource tracker then end by
themselves: they stop once the last process holding their pipes (the bot and the workers) is
gone. Chosen over prctl(PR_SET_PDEATHSIG): that is Linux only, follows the parent *thread*,
and a worker's parent is the fork server, not the bot; over polling os.getppid() or the bot's
pid: no delay, no pid reuse, nothing to tune. The bot never writes to the pipe.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from multiprocessing.connection import Connection

ORPHANED = 70  # a worker's exit status when the bot is gone (EX_SOFTWARE: nothing to report)


class Lifeline:
    """The bot's end of the pipe (never written, never inherited: os.pipe() descriptors are
    not inheritable) and the end each worker gets (pickled to it with the pool's
    initializer arguments: multiprocessing passes the descriptor over the fork server)."""

    def __init__(self) -> None:
        self.reader, self._writer = multiprocessing.Pipe(duplex=False)

    def cut(self) -> None:
        """The bot is done with its workers: those still alive end now."""
        self._writer.close()


def watch(reader: Connection) -> threading.Thread:
    """In a worker: end this process once the bot's end of `reader` is closed."""

    def wait() -> None:
        with contextlib.suppress(EOFError, OSError):
            reader.recv_bytes()  # the bot never writes: returns only at end-of-file
        os._exit(ORPHANED)  # no clean-up: the job's result has nowhere to go

    thread = threading.Thread(target=wait, name="parley-lifeline", daemon=True)
    thread.start()
    return thread
