"""`make run`'s process manager: the Procfile's processes under honcho, with a plain word when one dies.

honcho starts every process of the Procfile (web, worker, beat) with their output interleaved; Ctrl-C or
SIGTERM stops them all, and when one of them exits on its own the others are stopped too. This adds
one thing to honcho: its "web stopped (rc=-11)" becomes a line that says what happened, e.g.
"web crashed: killed by SIGSEGV (segmentation fault); stopping the others". Every process runs with
PYTHONFAULTHANDLER=1 (the Makefile exports it), so a crash prints its Python stack just above.

Run: `python -m config.procfile [Procfile]`.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import honcho.manager
from honcho.compat import ProcessManager
from honcho.environ import parse_procfile
from honcho.manager import Manager

# Seconds between the polite SIGTERM and the SIGKILL: a Celery worker's warm shutdown (with the
# filesystem broker) takes about 5 s, honcho's default wait.
honcho.manager.KILL_WAIT = 20

_STOPPED = re.compile(r"^(?P<name>\S+) stopped \(rc=(?P<rc>-?\d+)\)$")
_MEANING = {
    signal.SIGSEGV: "segmentation fault",
    signal.SIGABRT: "aborted",
    signal.SIGKILL: "killed, e.g. by the out-of-memory killer",
    signal.SIGBUS: "bus error",
    signal.SIGFPE: "floating-point exception",
    signal.SIGILL: "illegal instruction",
}


def describe_exit(name: str, returncode: int, stopping: bool) -> str:
    """One line on how a process ended; `stopping` when we asked it to (Ctrl-C, or another one died).

    A negative code is the signal that killed it; 128 + N is the same reported by the shell that
    honcho runs each command in (unless the command `exec`s)."""
    signum = -returncode if returncode < 0 else returncode - 128 if 128 < returncode < 128 + 65 else 0
    if signum in signal.valid_signals():
        sig = signal.Signals(signum)
        if stopping and sig in (signal.SIGTERM, signal.SIGINT):
            return f"{name} stopped"
        if stopping and sig == signal.SIGKILL:
            return f"{name} did not stop within {honcho.manager.KILL_WAIT} s and was killed"
        meaning = _MEANING.get(sig)
        cause = f"{sig.name} ({meaning})" if meaning else sig.name
        return f"{name} crashed: killed by {cause}" + ("" if stopping else "; stopping the others")
    if stopping:
        return f"{name} stopped (exit status {returncode})"
    return (
        f"{name} exited with status {returncode}"
        + (" (it should not stop on its own)" if not returncode else "")
        + "; stopping the others"
    )


class _LeaderFirst(ProcessManager):  # type: ignore[misc]
    """SIGTERM to each command's own process only (honcho signals its whole group): a Celery worker then
    stops its pool children itself instead of seeing them killed under it. SIGKILL still takes the group."""

    def terminate(self, pid: int) -> None:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


_STARTED = re.compile(r"^(?P<name>\S+) started \(pid=(?P<pid>\d+)\)$")


class _Manager(Manager):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self._procmgr = _LeaderFirst()
        self._late: set[str] = set()  # asked to stop before honcho knew their pid

    def _killall(self, force: bool = False) -> None:
        """honcho's, but a Ctrl-C that comes before a process has reported its pid no longer crashes the
        manager (honcho 2.0 raised KeyError 'pid' and left the processes running): that process is
        stopped as soon as its start is reported."""
        for name, p in self._processes.items():
            if "returncode" in p:
                continue
            if "pid" not in p:
                self._late.add(name)
                continue
            signame = "SIGKILL" if force else "SIGTERM"
            self._system_print(f"sending {signame} to {name} (pid {p['pid']})\n")
            if force:
                self._procmgr.kill(p["pid"])
            else:
                self._procmgr.terminate(p["pid"])

    def _system_print(self, data: str) -> None:
        found = _STOPPED.match(data.strip())
        if found:
            data = describe_exit(found["name"], int(found["rc"]), self._terminating) + "\n"
        super()._system_print(data)
        started = _STARTED.match(data.strip())
        if started and started["name"] in self._late:
            self._late.discard(started["name"])
            self._system_print(f"sending SIGTERM to {started['name']} (pid {started['pid']})\n")
            self._procmgr.terminate(int(started["pid"]))


def main(argv: list[str]) -> int:
    procfile = Path(argv[1] if len(argv) > 1 else "Procfile")
    manager = _Manager()
    for name, command in parse_procfile(procfile.read_text()).processes.items():
        manager.add_process(name, command, env=dict(os.environ))
    manager.loop()
    return int(manager.returncode or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
