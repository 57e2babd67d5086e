#!/usr/bin/env python3
"""Memory of `accessdeck serve` under clients that pipeline requests and never read (issue 45 item 1).

N sockets (BENCH_PIPELINERS, 512: the default connection cap), each with a 2 KB receive buffer, send
BENCH_PIPELINED (60) `GET /openapi.yaml` at once and read nothing. For each of BENCH_PIPELINER_ROUNDS (2)
rounds against the same server it prints the server's resident memory at its highest while they stay
(BENCH_HOLD_SECONDS, 10), the bytes the kernel holds in the server's send queues meanwhile (not part of the
resident memory), and the resident memory once they have all closed and the server has had
BENCH_SETTLE_SECONDS (10) to let go; and whether a fresh client was answered while they stayed. A second
round that ends where the first did shows memory kept for reuse, not lost.
Prints figures only; asserts nothing.
Usage: scripts/bench/pipeliners.py [BINARY] (a release build: .build/release/accessdeck)
"""
import os
import re
import socket
import subprocess
import sys
import time

BINARY = sys.argv[1] if len(sys.argv) > 1 else ".build/release/accessdeck"
CLIENTS = int(os.environ.get("BENCH_PIPELINERS", "512"))
PIPELINED = int(os.environ.get("BENCH_PIPELINED", "60"))
ROUNDS = int(os.environ.get("BENCH_PIPELINER_ROUNDS", "2"))
HOLD = float(os.environ.get("BENCH_HOLD_SECONDS", "10"))
SETTLE = float(os.environ.get("BENCH_SETTLE_SECONDS", "10"))


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def send_queues_mb(port):
    """What the kernel holds unsent on the server's side of its connections (ss's Send-Q), in MB; 0 without ss."""
    try:
        listing = subprocess.run(
            ["ss", "-tnH", "state", "established", f"sport = :{port}"], capture_output=True, text=True
        ).stdout
    except FileNotFoundError:
        return 0.0
    return sum(int(line.split()[1]) for line in listing.splitlines() if line.strip()) / (1024 * 1024)


def fresh_client_status(port):
    """The status a new client gets for GET /health, or what went wrong."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as fresh:
            fresh.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            head = fresh.recv(64).split(b"\r\n", 1)[0].decode(errors="replace")
            return head.split(" ")[1] if head.count(" ") >= 1 else f"nothing ({head!r})"
    except OSError as error:
        return f"failed ({error})"


def round_of_pipeliners(server, port):
    request = b"GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * PIPELINED
    clients = []
    for _ in range(CLIENTS):
        client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        client.connect(("127.0.0.1", port))
        client.setblocking(False)
        try:
            client.send(request)
        except BlockingIOError:
            pass
        clients.append(client)
    highest, queued = rss_mb(server.pid), 0.0
    started = time.monotonic()
    while time.monotonic() - started < HOLD:
        time.sleep(0.5)
        highest = max(highest, rss_mb(server.pid))
        queued = max(queued, send_queues_mb(port))
    fresh = fresh_client_status(port)
    for client in clients:
        client.close()
    time.sleep(SETTLE)
    return highest, queued, rss_mb(server.pid), fresh


def main():
    server = subprocess.Popen(
        [BINARY, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        line = server.stdout.readline()
        match = re.search(r"listening on http://[^:]+:(\d+)", line)
        if not match:
            sys.exit(f"no address from {BINARY} serve: {line!r}")
        port = int(match.group(1))
        fresh_client_status(port)
        time.sleep(1)
        print(
            f"{CLIENTS} clients x {PIPELINED} pipelined GET /openapi.yaml, never read "
            f"(RSS {rss_mb(server.pid):.0f} MB before):"
        )
        for number in range(1, ROUNDS + 1):
            highest, queued, after, fresh = round_of_pipeliners(server, port)
            print(
                f"  round {number}: RSS at most {highest:.0f} MB in {HOLD:.0f} s (and {queued:.0f} MB in the kernel's "
                f"send queues), {after:.0f} MB {SETTLE:.0f} s after they closed; a fresh client got {fresh}"
            )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
