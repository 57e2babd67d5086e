#!/usr/bin/env python3
"""`make soak`: random keys, pastes and resizes into the real binary in tmux, scenario after scenario.

Prints figures; asserts nothing beyond its exit status (1 if the app crashed, drew a blank screen or
could not switch scenario). Not part of `make test`: 10,000 keys per scenario take minutes.

One process for the whole soak, so memory that grows shows: the app starts at 100x30 on its embedded
backend with the first scenario of fixtures/scenarios, and each next scenario is loaded live through
the palette (Ctrl+P, "Scenario: NAME", as QA does). Per scenario, batches of random input (tmux key
names, bracketed pastes, resizes between 20x6 and 200x60), and after every batch a look at the pane:
still running, not blank. Once the app has drawn everything, its RSS is read; at the end the RSS
after the last scenario is set against the RSS after the first (issue 34's target: within 10 %). An
exit is a crash unless its status is 0 (a quit: Ctrl+C and q are never sent, but a screen may offer
another way out); the app is then restarted on the same scenario so it still gets all its keys, and
the memory figures say that a restart came between them.

With --passes N the list is gone through N times in the same process: memory that a scenario's first
visit warms up (code paths, caches filling to their caps) shows in the first pass only, memory that grows
with use in every pass; the RSS after each pass is printed.

Usage: scripts/soak.py [--binary PATH] [--keys N] [--seed N] [--passes N] [--scenario NAME ...]
"""

import argparse
import hashlib
import os
import random
import re
import shlex
import signal
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

    def __init__(self, binary, work):
        self.binary = binary
        self.socket = f"accessdeck-soak-{os.getpid()}"
        self.status_path = Path(work) / "app.status"
        self.conf = Path(work) / "tmux.conf"
        self.conf.write_text("set -g status off\nset -g remain-on-exit on\nset -g history-limit 0\n")
        self.started = False
        self.starts = 0

    def command(self, scenario):
        return (
            f"exec env -u NO_COLOR -u ESCDELAY TERM=tmux-256color LANG=C.UTF-8 sh -c "
            + shlex.quote(f'"$@"; echo "$?" > {shlex.quote(str(self.status_path))}')
            + f" soak {shlex.quote(self.binary)} --scenario {shlex.quote(scenario)}"
        )

    def start(self, scenario):
        """A fresh process on `scenario`."""
        self.status_path.unlink(missing_ok=True)
        if not self.started:
            tmux(self.socket, "-f", str(self.conf), "new-session", "-d", "-s", "soak",
                 "-x", str(STANDARD[0]), "-y", str(STANDARD[1]), self.command(scenario))
            self.started = True
        else:
            tmux(self.socket, "resize-window", "-t", "soak", "-x", str(STANDARD[0]), "-y", str(STANDARD[1]))
            tmux(self.socket, "respawn-pane", "-k", "-t", "soak", self.command(scenario))
        self.starts += 1
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

    def memory_kb(self):
        """VmRSS (now), RssAnon (heap and stacks: what a leak grows), RssFile (the binary and libraries) and
        VmHWM (the peak), in KiB; zeros once the process is gone."""
        fields = dict.fromkeys(("VmRSS", "RssAnon", "RssFile", "VmHWM"), 0)
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                name, _, value = line.partition(":")
                if name in fields:
                    fields[name] = int(value.split()[0])
        except (OSError, TypeError):
            pass
        return fields

    def wait_idle(self):
        """Until the app has read and drawn everything sent: its CPU time stops moving."""
        last = -1.0
        while (now := self.cpu_seconds()) != last:
            last = now
            time.sleep(0.3)

    def switch_scenario(self, name):
        """Loads `name` live through the palette, as QA does; False when the palette could not do it."""
        tmux(self.socket, "resize-window", "-t", "soak", "-x", str(STANDARD[0]), "-y", str(STANDARD[1]))
        # Closes a help, sheet or panel the random keys left open (one Esc each), apart so none reads as Alt.
        for _ in range(3):
            tmux(self.socket, "send-keys", "-t", "soak", "Escape")
            time.sleep(0.15)
        # On a screen where Esc itself opens a sheet (onboarding's "Esc logs out"), an odd number of them leaves
        # that sheet up, and the palette does not open over a sheet: one more Esc, and try again.
        for _ in range(4):
            tmux(self.socket, "send-keys", "-t", "soak", "C-p")
            if self.wait_screen(lambda screen: "> Type to search" in screen, timeout=3.0):
                break
            tmux(self.socket, "send-keys", "-t", "soak", "Escape")
            time.sleep(0.15)
        else:
            return False
        query = f"scenario {name}"
        tmux(self.socket, "send-keys", "-t", "soak", "-l", query)
        # The scenarios arrive from the backend the first time; the exact name sorts first (the shortest title).
        # ▸ marks the choice, > with ASCII on (the gallery's `a` turns it on for the whole app).
        chosen = re.compile(rf"[▸>] Scenario: {re.escape(name)}(\s|$)", re.M)
        if not self.wait_screen(lambda screen: f"> {query}" in screen and chosen.search(screen)):
            return False
        tmux(self.socket, "send-keys", "-t", "soak", "Enter")
        toast = re.compile(rf"Scenario: {re.escape(name)}(\s|$)", re.M)
        return self.wait_screen(lambda screen: f"> {query}" not in screen and toast.search(screen))

    def wait_screen(self, ready, timeout=20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.exit_status() is not None:
                return False
            if ready(self.capture()):
                return True
            time.sleep(0.05)
        return False

    def kill(self):
        tmux(self.socket, "kill-server", check=False)
        Path(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.socket).unlink(missing_ok=True)


def soak(session, scenario, keys, seed):
    """`keys` random keys into the running app on `scenario`; its figures and what went wrong."""
    rng = random.Random(seed)
    figures = dict(keys=0, pastes=0, resizes=0, crashes=0, quits=0, samples=0, blank=0, transient=0, cpu=0.0,
                   restarts=0)
    screens = set()
    failures = []
    cpu_before = session.cpu_seconds()
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
            figures["cpu"] += session.cpu_seconds() - cpu_before
            if status == 0:
                figures["quits"] += 1
            else:
                figures["crashes"] += 1
                failures.append(f"exit status {status} after {figures['keys']} keys; screen:\n{screen}")
            session.start(scenario)
            figures["restarts"] += 1
            cpu_before = 0.0
            continue
        if not screen.strip():
            # Caught between a resize's clear and the redraw that follows it, or left blank?
            time.sleep(0.5)
            screen = session.capture()
            if screen.strip():
                figures["transient"] += 1
            else:
                figures["blank"] += 1
                size = tmux(session.socket, "display-message", "-p", "-t", "soak", "#{pane_width}x#{pane_height}")
                failures.append(f"blank screen for 0.5 s after {figures['keys']} keys, at {size.strip()}")
        screens.add(hashlib.sha1(screen.encode()).hexdigest())
    session.wait_idle()
    figures["seconds"] = time.monotonic() - began - 0.3
    figures["cpu"] += session.cpu_seconds() - cpu_before
    figures["memory"] = session.memory_kb()
    if session.exit_status() is None and not session.capture().strip():
        figures["blank"] += 1
        failures.append("blank screen at the end")
    figures["distinct"] = len(screens)
    return figures, failures


def mb(kb):
    return f"{kb / 1024:6.1f} MB"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default_binary = ROOT / ".build/release/accessdeck"
    if not default_binary.exists():
        default_binary = ROOT / ".build/debug/accessdeck"
    parser.add_argument("--binary", default=str(default_binary))
    parser.add_argument("--keys", type=int, default=10_000, help="keys per scenario")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--scenario", action="append", help="default: every scenario in fixtures/scenarios")
    parser.add_argument("--passes", type=int, default=1, help="times through the list, in one process")
    parser.add_argument("--smaps-dir", help="keep /proc/PID/smaps after each scenario here, to see which mappings grew")
    args = parser.parse_args()
    # A SIGTERM still kills the tmux server (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no executable at {args.binary} (swift build, or --binary)")
    names = args.scenario or sorted(p.stem for p in (ROOT / "fixtures/scenarios").glob("*.json"))
    scenarios = names * max(1, args.passes)

    print(f"soak: {args.binary}, {args.keys} keys per scenario, seed {args.seed}, one process, scenarios"
          " switched through the palette")
    print(f"{'scenario':<20} {'keys':>6} {'keys/s':>7} {'pastes':>6} {'resizes':>7} {'crashes':>7} {'quits':>5}"
          f" {'frames':>6} {'blank':>5} {'mid-draw':>8} {'distinct':>8} {'cpu s':>6} {'RSS':>9} {'anon':>9}")
    total_crashes = total_blank = switch_failures = 0
    first = last = None
    passes = []
    with tempfile.TemporaryDirectory(prefix="accessdeck-soak-") as work:
        session = Session(args.binary, work)
        try:
            session.start(scenarios[0])
            for index, scenario in enumerate(scenarios):
                if index > 0 and not session.switch_scenario(scenario):
                    switch_failures += 1
                    print(f"  could not switch to {scenario} through the palette; restarting on it:\n  "
                          + session.capture().replace("\n", "\n  "))
                    session.start(scenario)
                figures, failures = soak(session, scenario, args.keys, args.seed + index)
                if args.smaps_dir:
                    os.makedirs(args.smaps_dir, exist_ok=True)
                    try:
                        smaps = Path(f"/proc/{session.pid}/smaps").read_text()
                    except OSError:
                        smaps = ""
                    Path(args.smaps_dir, f"{index + 1:02d}-{scenario}.smaps").write_text(smaps)
                total_crashes += figures["crashes"]
                total_blank += figures["blank"]
                memory = figures["memory"]
                print(f"{scenario:<20} {figures['keys']:>6} {figures['keys'] / figures['seconds']:>7.0f}"
                      f" {figures['pastes']:>6} {figures['resizes']:>7} {figures['crashes']:>7} {figures['quits']:>5}"
                      f" {figures['samples']:>6} {figures['blank']:>5} {figures['transient']:>8}"
                      f" {figures['distinct']:>8} {figures['cpu']:>6.1f} {mb(memory['VmRSS'])} {mb(memory['RssAnon'])}",
                      flush=True)
                for failure in failures:
                    print("  " + failure.replace("\n", "\n  "))
                if first is None:
                    first = (scenario, memory, session.starts)
                last = (scenario, memory, session.starts)
                if (index + 1) % len(names) == 0:
                    passes.append(memory)
        finally:
            session.kill()
    print("frames: screens captured (one after each batch of 50 keys); blank: still blank 0.5 s later;")
    print("mid-draw: blank when captured, drawn 0.5 s later; distinct: different screens among the frames;")
    print("keys/s: keys sent through tmux per second until the app went idle; cpu s: the app's CPU time;")
    print("RSS: resident memory once the app went idle after the scenario's keys (VmRSS); anon: its heap and")
    print("stacks (RssAnon), the rest being pages of the binary and the libraries.")
    if first and last and first[1]["VmRSS"]:
        restarts = last[2] - first[2]
        print(f"memory: RSS after the first scenario ({first[0]}) {mb(first[1]['VmRSS']).strip()}"
              f" (anon {mb(first[1]['RssAnon']).strip()}), after the last ({last[0]}) {mb(last[1]['VmRSS']).strip()}"
              f" (anon {mb(last[1]['RssAnon']).strip()}): {last[1]['VmRSS'] / first[1]['VmRSS']:.2f}x"
              f"   (target <= 1.10); peak {mb(last[1]['VmHWM']).strip()}")
        if restarts:
            print(f"  the app was restarted {restarts} time(s) in between: the figures are of different processes")
        if len(passes) > 1:
            print("  after each pass: " + ", ".join(
                f"{mb(memory['VmRSS']).strip()} (anon {mb(memory['RssAnon']).strip()})" for memory in passes))
    print(f"total: {total_crashes} crashes, {total_blank} blank frames, {switch_failures} failed scenario switches")
    sys.exit(1 if total_crashes or total_blank or switch_failures else 0)


if __name__ == "__main__":
    main()
