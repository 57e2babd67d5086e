#!/usr/bin/env python3
"""`make soak`: random keys, pastes and resizes into the real binary in tmux, per scenario.

Prints figures; asserts nothing beyond its exit status (1 if the app crashed or drew a blank
screen). Not part of `make test`: 10,000 keys per scenario take minutes.

For each scenario in fixtures/scenarios: one tmux server, the app at 100x30 on its embedded
backend, then batches of random input (tmux key names, bracketed pastes, resizes between 20x6 and
200x60), and after every batch a look at the pane: still running, not blank. An exit is a crash
unless its status is 0 (a quit: Ctrl+C and q are never sent, but a screen may offer another way
out); the app is restarted so the scenario still gets all its keys.

Usage: scripts/soak.py [--binary PATH] [--keys N] [--seed N] [--scenario NAME ...]
"""

import argparse
import hashlib
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Everything a user might press, but the two quit keys (q, Ctrl+C): a soak that quits on its
# tenth key tests the start screen only.
KEYS = (
    ["Up", "Down", "Left", "Right", "Enter", "Escape", "Tab", "BTab", "BSpace", "DC", "Home", "End"]
    + ["PPage", "NPage", "Space", "F1", "F5"]
    + list("0123456789")
    + list("abcdefghijklmnoprstuvwxyz")
    + ["+", "@", ".", "-", "/", "?"]
)
PASTES = ["482915", "+995 511 30 04 00", "qa@example.com", "hunter2hunter2", "9" * 5000, "", "é漢字🙂"]
STANDARD = (100, 30)


def tmux(socket, *args, check=True):
    result = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args[:2])}: {result.stderr.strip()}")
    return result.stdout


class Session:
    """The app in a private tmux server; a shell around it writes its exit status to a file."""

    def __init__(self, binary, scenario, work):
        self.socket = f"accessdeck-soak-{os.getpid()}-{scenario}"
        self.status_path = Path(work) / f"{scenario}.status"
        self.conf = Path(work) / "tmux.conf"
        self.conf.write_text("set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n")
        self.command = (
            f"exec env -u NO_COLOR -u ESCDELAY TERM=tmux-256color LANG=C.UTF-8 sh -c "
            + shlex.quote(f'"$@"; echo "$?" > {shlex.quote(str(self.status_path))}')
            + f" soak {shlex.quote(binary)} --scenario {shlex.quote(scenario)}"
        )
        self.started = False

    def start(self):
        self.status_path.unlink(missing_ok=True)
        if not self.started:
            tmux(self.socket, "-f", str(self.conf), "new-session", "-d", "-s", "soak",
                 "-x", str(STANDARD[0]), "-y", str(STANDARD[1]), self.command)
            self.started = True
        else:
            tmux(self.socket, "resize-window", "-t", "soak", "-x", str(STANDARD[0]), "-y", str(STANDARD[1]))
            tmux(self.socket, "respawn-pane", "-k", "-t", "soak", self.command)
        deadline = time.monotonic() + 30
        # Settings, or Welcome for a scenario that starts signed out.
        while not any(first in self.capture() for first in ("Settings", "Get started")):
            if time.monotonic() > deadline:
                raise RuntimeError("the app showed neither Settings nor Welcome within 30 s:\n" + self.capture())
            time.sleep(0.05)
        self.pid = self.app_pid()

    def capture(self):
        return tmux(self.socket, "capture-pane", "-p", "-t", "soak")

    def exit_status(self):
        """None while the app runs."""
        try:
            text = self.status_path.read_text().strip()
        except FileNotFoundError:
            return None
        return int(text) if text else None

    def app_pid(self):
        shell = int(tmux(self.socket, "display-message", "-p", "-t", "soak", "#{pane_pid}").strip())
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat[stat.rindex(")") + 2:].split()[1]) == shell:
                    return int(entry)
        return None

    def cpu_seconds(self):
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text()
        except (OSError, TypeError):
            return 0.0
        after = fields[fields.rindex(")") + 2:].split()
        return (int(after[11]) + int(after[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_kb(self):
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except (OSError, TypeError):
            pass
        return 0

    def kill(self):
        tmux(self.socket, "kill-server", check=False)
        Path(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.socket).unlink(missing_ok=True)


def soak(binary, scenario, keys, seed, work):
    rng = random.Random(seed)
    session = Session(binary, scenario, work)
    figures = dict(keys=0, pastes=0, resizes=0, crashes=0, quits=0, samples=0, blank=0, transient=0, cpu=0.0, rss=0)
    screens = set()
    failures = []
    try:
        session.start()
        began = time.monotonic()
        while figures["keys"] < keys:
            batch = []
            for _ in range(min(50, keys - figures["keys"])):
                batch.append(rng.choice(KEYS))
            figures["keys"] += len(batch)
            tmux(session.socket, "send-keys", "-t", "soak", *batch)
            roll = rng.random()
            if roll < 0.05:
                tmux(session.socket, "set-buffer", "-b", "soak", rng.choice(PASTES) or " ")
                tmux(session.socket, "paste-buffer", "-p", "-d", "-b", "soak", "-t", "soak")
                figures["pastes"] += 1
            elif roll < 0.10:
                size = (rng.randint(20, 200), rng.randint(6, 60)) if rng.random() < 0.7 else STANDARD
                tmux(session.socket, "resize-window", "-t", "soak", "-x", str(size[0]), "-y", str(size[1]))
                figures["resizes"] += 1
            screen = session.capture()
            figures["samples"] += 1
            status = session.exit_status()
            if status is not None:
                figures["cpu"] += session.cpu_seconds()
                if status == 0:
                    figures["quits"] += 1
                else:
                    figures["crashes"] += 1
                    failures.append(f"exit status {status} after {figures['keys']} keys; screen:\n{screen}")
                session.start()
                continue
            if not screen.strip():
                # Caught between a resize's clear and the redraw that follows it, or left blank?
                time.sleep(0.5)
                screen = session.capture()
                if screen.strip():
                    figures["transient"] += 1
                else:
                    figures["blank"] += 1
                    failures.append(f"blank screen for 0.5 s after {figures['keys']} keys")
            screens.add(hashlib.sha1(screen.encode()).hexdigest())
        # Until the app has read and drawn everything sent: its CPU time stops moving.
        last = -1.0
        while (now := session.cpu_seconds()) != last:
            last = now
            time.sleep(0.3)
        elapsed = time.monotonic() - began - 0.3
        figures["cpu"] += session.cpu_seconds()
        figures["rss"] = session.peak_rss_kb()
        if session.exit_status() is None and not session.capture().strip():
            figures["blank"] += 1
            failures.append("blank screen at the end")
    finally:
        session.kill()
    figures["seconds"] = elapsed
    figures["distinct"] = len(screens)
    return figures, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default_binary = ROOT / ".build/release/accessdeck"
    if not default_binary.exists():
        default_binary = ROOT / ".build/debug/accessdeck"
    parser.add_argument("--binary", default=str(default_binary))
    parser.add_argument("--keys", type=int, default=10_000, help="keys per scenario")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--scenario", action="append", help="default: every scenario in fixtures/scenarios")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no executable at {args.binary} (swift build, or --binary)")
    scenarios = args.scenario or sorted(p.stem for p in (ROOT / "fixtures/scenarios").glob("*.json"))

    print(f"soak: {args.binary}, {args.keys} keys per scenario, seed {args.seed}")
    print(f"{'scenario':<20} {'keys':>6} {'keys/s':>7} {'pastes':>6} {'resizes':>7} {'crashes':>7} {'quits':>5}"
          f" {'frames':>6} {'blank':>5} {'mid-draw':>8} {'distinct':>8} {'cpu s':>6} {'peak RSS':>9}")
    total_crashes = total_blank = 0
    with tempfile.TemporaryDirectory(prefix="accessdeck-soak-") as work:
        for index, scenario in enumerate(scenarios):
            figures, failures = soak(args.binary, scenario, args.keys, args.seed + index, work)
            total_crashes += figures["crashes"]
            total_blank += figures["blank"]
            print(f"{scenario:<20} {figures['keys']:>6} {figures['keys'] / figures['seconds']:>7.0f}"
                  f" {figures['pastes']:>6} {figures['resizes']:>7} {figures['crashes']:>7} {figures['quits']:>5}"
                  f" {figures['samples']:>6} {figures['blank']:>5} {figures['transient']:>8} {figures['distinct']:>8}"
                  f" {figures['cpu']:>6.1f} {figures['rss'] / 1024:>6.1f} MB", flush=True)
            for failure in failures:
                print("  " + failure.replace("\n", "\n  "))
    print("frames: screens captured (one after each batch of 50 keys); blank: still blank 0.5 s later;")
    print("mid-draw: blank when captured, drawn 0.5 s later; distinct: different screens among the frames;")
    print("keys/s: keys sent through tmux per second until the app went idle; cpu s: the app's CPU time.")
    print(f"total: {total_crashes} crashes, {total_blank} blank frames")
    sys.exit(1 if total_crashes or total_blank else 0)


if __name__ == "__main__":
    main()
