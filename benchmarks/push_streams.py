"""Idle event streams one stream server holds, its memory per stream, one event's fan-out.

    scripts/cluster up          # PORT, CLUSTER_DIR, REDIS_URL, LIMES_CACHE_PREFIX as for it
    python benchmarks/push_streams.py --streams 1000,2000,4000 [--server stream1] [--port P]

Run by hand. For each count it opens that many lobby streams (``/lobby/stream/``: no
session needed, the same code as a game's) straight to one stream server on 127.0.0.1
(or, with ``--port`` the proxy's, through HAProxy), checks that each one got its first
event, and reads the stream server's memory (the PSS of its process group: gunicorn's
master and its uvicorn workers) before and with them. Then
it publishes one lobby event through Redis, as ``floor.push`` does, and times its arrival
at every stream. Then it hangs up on all of them and goes to the next count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUEST = b"GET /lobby/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
OPEN_AT_ONCE = 200


def group_memory_kib(leader: int) -> int:
    """PSS in KiB of every process in ``leader``'s process group."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != leader:
                continue
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total


class Stream:
    """One idle tab on the lobby."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.heard: float | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def run(self, port: int) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(REQUEST)
        events = 0
        while line := await reader.readline():
            if line.startswith(b"event: lobby"):
                events += 1
                if events == 1:
                    self.ready.set()
                else:
                    self.heard = time.monotonic()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def measure(args: argparse.Namespace, count: int, leader: int) -> None:
    await asyncio.sleep(2)
    before = group_memory_kib(leader)
    streams = [Stream() for _ in range(count)]
    tasks = []
    opened = time.monotonic()
    for start in range(0, count, OPEN_AT_ONCE):
        batch = streams[start : start + OPEN_AT_ONCE]
        tasks += [asyncio.create_task(stream.run(args.port)) for stream in batch]
        await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in batch)), 60)
    opening = time.monotonic() - opened
    await asyncio.sleep(2)
    held = group_memory_kib(leader)
    alive = sum(1 for task in tasks if not task.done())
    channel = f"{os.environ.get('LIMES_CACHE_PREFIX', '')}limes:push"
    sent = time.monotonic()
    redis.Redis.from_url(args.redis_url).publish(
        channel, json.dumps({"channel": "lobby", "event": "lobby", "data": {}})
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(s.heard is None for s in streams):
        await asyncio.sleep(0.01)
    delays = sorted((s.heard - sent) * 1e3 for s in streams if s.heard is not None)
    for stream in streams:
        stream.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    per_stream = (held - before) / count
    print(
        f"| {count} | {alive} | {opening:.1f} | {before / 1024:.0f} | {held / 1024:.0f} "
        f"| {per_stream:.1f} | {len(delays)} "
        f"| {statistics.median(delays) if delays else float('nan'):.0f} "
        f"| {delays[int(len(delays) * 0.95) - 1] if delays else float('nan'):.0f} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="1000,2000", help="comma-separated counts")
    parser.add_argument("--server", default="stream1", help="the stream server, by pid file")
    parser.add_argument("--cluster-dir", default=os.environ.get("CLUSTER_DIR", "var/cluster"))
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8080")) + 3, help="stream1's"
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.streams.split(",")]
    if max(counts) > 10_000:
        parser.error("at most 10,000 streams")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(counts) + 100), hard))
    leader = int((Path(args.cluster_dir) / f"{args.server}.pid").read_text())
    print(
        f"Idle lobby streams held by {args.server} (127.0.0.1:{args.port}); "
        f"memory is PSS of its process group"
    )
    print(
        "| streams | open | opened in s | MiB before | MiB with | KiB per stream "
        "| heard the event | fan-out p50 ms | p95 ms |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in counts:
        asyncio.run(measure(args, count, leader))


if __name__ == "__main__":
    main()
