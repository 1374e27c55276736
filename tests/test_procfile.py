"""`make run`'s process manager (config/procfile.py, honcho): one Ctrl-C stops every process, and a
process that crashes stops the others with one line naming the signal (a segfault once left the
worker printing "Warm shutdown" thousands of times under the old shell trap)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from config.procfile import describe_exit

ROOT = Path(__file__).resolve().parent.parent


def test_exit_lines_name_the_signal() -> None:
    assert describe_exit("web", -signal.SIGSEGV, stopping=False) == (
        "web crashed: killed by SIGSEGV (segmentation fault); stopping the others"
    )
    assert describe_exit("worker", -signal.SIGTERM, stopping=True) == "worker stopped"
    assert "did not stop within" in describe_exit("worker", -signal.SIGKILL, stopping=True)
    assert describe_exit("web", 1, stopping=False) == "web exited with status 1; stopping the others"
    assert describe_exit("web", 128 + signal.SIGSEGV, stopping=False).startswith(
        "web crashed: killed by SIGSEGV"
    )


def _start(procfile: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "config.procfile", str(procfile)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_a_crash_stops_the_others_with_one_clear_line(tmp_path: Path) -> None:
    crash = "import os, signal, time; time.sleep(1); os.kill(os.getpid(), signal.SIGSEGV)"
    procfile = tmp_path / "Procfile"
    # `exec`, as in the real Procfile: the stop signal goes to the program itself, not to a shell
    procfile.write_text(f'web: exec {sys.executable} -c "{crash}"\nworker: exec sleep 60\n')
    started = time.monotonic()
    runner = _start(procfile)
    output, _ = runner.communicate(timeout=30)
    assert time.monotonic() - started < 20, "the other process was not stopped"
    assert "web crashed: killed by SIGSEGV (segmentation fault); stopping the others" in output, output
    assert output.count("crashed") == 1 and "worker stopped" in output
    assert runner.returncode != 0


def test_one_interrupt_stops_every_process(tmp_path: Path) -> None:
    procfile = tmp_path / "Procfile"
    marker = tmp_path / "pids"
    procfile.write_text(
        f"web: echo $$ >> {marker}; exec sleep 60\nworker: echo $$ >> {marker}; exec sleep 60\n"
    )
    runner = _start(procfile)
    deadline = time.monotonic() + 20
    while not (marker.exists() and len(marker.read_text().split()) == 2):
        assert time.monotonic() < deadline, "the processes did not start"
        time.sleep(0.1)
    runner.send_signal(signal.SIGINT)
    output, _ = runner.communicate(timeout=20)
    assert runner.returncode == 130, output
    for pid in map(int, marker.read_text().split()):
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        assert not alive, f"process {pid} survived the interrupt:\n{output}"
    assert output.count("stopped") == 2 and "crashed" not in output


def test_a_stop_before_a_process_reported_its_pid_waits_for_it() -> None:
    """Ctrl-C right after `make run` starts: honcho 2.0 raised KeyError 'pid' for a process whose start it
    had not yet read, and left every process running. Ours signals that process once its start arrives."""
    from config.procfile import _Manager

    class Recorder:
        def __init__(self) -> None:
            self.terminated: list[int] = []

        def terminate(self, pid: int) -> None:
            self.terminated.append(pid)

        def kill(self, pid: int) -> None:
            raise AssertionError("no SIGKILL expected")

    manager = _Manager()
    recorder = Recorder()
    manager._procmgr = recorder
    manager.add_process("web", "sleep 60")
    manager.add_process("worker", "sleep 60")
    manager._processes["web"]["pid"] = 101  # web has reported its start, the worker not yet
    manager.terminate()
    assert recorder.terminated == [101]
    manager._processes["worker"]["pid"] = 202
    manager._system_print("worker started (pid=202)\n")  # what honcho's loop prints on the start message
    assert recorder.terminated == [101, 202]
