#!/usr/bin/env python3
"""The dashboard under concurrent users (issue 25): page latency percentiles and
the memory of open live views, against `tavern web --dev-login` on loopback.

    cargo build --release -p tavern
    python3 scripts/web-bench.py [--binary target/release/tavern] [--users 50]
                                 [--requests 40] [--views 500]

A console on a fresh SQLite database begins an encounter with 20 combatants in the
console's channel; the dashboard serves it. Every simulated user (a thread with its
own keep-alive connection) asks one page in a loop; the pages are measured one
after the other, each against the same baseline in the same run: `/servers` (a
session read and a list, no core call). Then `--views` live views (event streams)
are opened and the server's resident memory is read before, with them open, and
after they close.

Standard library only.
"""

import argparse
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def login(port):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", "/login/dev", headers={"Content-Length": "0"})
    response = conn.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie").split(";")[0]
    conn.close()
    return cookie


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def load(port, cookies, path, users, requests):
    """`users` threads, each `requests` GETs of `path`: the latencies in ms."""
    latencies = []
    lock = threading.Lock()
    failures = []

    def user(index):
        conn = http.client.HTTPConnection("127.0.0.1", port)
        mine = []
        for _ in range(requests):
            start = time.perf_counter()
            conn.request("GET", path, headers={"Cookie": cookies[index % len(cookies)]})
            response = conn.getresponse()
            response.read()
            mine.append((time.perf_counter() - start) * 1000)
            if response.status != 200:
                failures.append(response.status)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=user, args=(i,)) for i in range(users)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if failures:
        sys.exit(f"{path}: {len(failures)} answers were not 200: {failures[:5]}")
    return latencies, len(latencies) / elapsed


def open_views(port, cookie, path, count):
    """`count` event streams, each read up to its headers: the sockets."""
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                sys.exit(f"a live view closed: {head!r}")
            head += chunk
        if b" 200 " not in head.split(b"\r\n")[0]:
            sys.exit(f"a live view was refused: {head[:200]!r}")
        sockets.append(s)
    return sockets


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/release/tavern")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--views", type=int, default=500)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="tavern-web-bench-")
    db = os.path.join(folder, "tavern.db")
    script = ["/init begin"]
    for index in range(20):
        hidden = " hidden:true" if index % 3 == 0 else ""
        script.append(f"/init add name:Orc{index} init:{index + 1} hp:2d8+2 ac:13{hidden}")
    script += ["/press Next", "/quit"]
    subprocess.run(
        [args.binary, "console", "--db", db, "--seed", "1"],
        input="\n".join(script) + "\n",
        text=True,
        capture_output=True,
        check=True,
        env={**os.environ, "USER": "bench"},
    )
    port = free_port()
    server = subprocess.Popen(
        [args.binary, "web", "--db", db, "--dev-login", "--address", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port)).close()
                break
            except OSError:
                time.sleep(0.05)
        # Ten sessions (the login rate limit's burst), shared by the users.
        cookies = [login(port) for _ in range(10)]
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("GET", "/servers/1/encounters", headers={"Cookie": cookies[0]})
        listing = conn.getresponse().read().decode()
        channel = re.search(r"/servers/1/encounters/(\d+)", listing).group(1)
        tracker = f"/servers/1/encounters/{channel}"
        pages = ["/servers", "/servers/1/macros", "/servers/1/characters", tracker]
        # Warm-up: the database's pages and the allocator.
        load(port, cookies, "/servers", 4, 20)
        print(f"{args.users} users x {args.requests} requests each, one page at a time")
        print(f"{'page':40} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'req/s':>8} {'p99/base':>9}")
        base_p99 = None
        for path in pages:
            latencies, rate = load(port, cookies, path, args.users, args.requests)
            p99 = percentile(latencies, 0.99)
            base_p99 = base_p99 or p99
            shown = "/servers/1/encounters/{channel}" if path == tracker else path
            print(
                f"{shown:40} {statistics.median(latencies):8.2f} {p99:8.2f} "
                f"{max(latencies):8.2f} {rate:8.0f} {p99 / base_p99:9.2f}"
            )
        before = rss_kib(server.pid)
        views = open_views(port, cookies[0], f"{tracker}/events", args.views)
        time.sleep(0.5)  # let the server settle before reading its memory
        during = rss_kib(server.pid)
        for view in views:
            view.close()
        time.sleep(0.5)
        after = rss_kib(server.pid)
        per_view = (during - before) / args.views
        print(
            f"live views: RSS {before} KiB before, {during} KiB with {args.views} open "
            f"({per_view:.1f} KiB each), {after} KiB after they closed"
        )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
