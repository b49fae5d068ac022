"""Simulated phones for ``bench_share``: N reading WebSocket clients and one that never reads.

Run as ``python -m benchmarks.share_phones PORT CODE N``; connects to 127.0.0.1 only, says
"ready" once connected, and stops when its standard input closes or after ``LIFETIME_S``.
"""

from __future__ import annotations

import asyncio
import socket
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"
LIFETIME_S = 300.0


async def read_forever(port: int, code: str) -> None:
    try:
        async with connect(f"ws://{HOST}:{port}/ws?k={code}", max_size=None) as phone:
            async for _ in phone:
                pass
    except ConnectionClosed:
        pass


def never_reading(port: int, code: str) -> socket.socket:
    """A WebSocket handshake sent, then not one byte read."""
    stuck = socket.create_connection((HOST, port))
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.sendall(
        f"GET /ws?k={code} HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    return stuck


async def main(port: int, code: str, readers: int) -> None:
    stuck = never_reading(port, code)
    tasks = [asyncio.create_task(read_forever(port, code)) for _ in range(readers)]
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.run_in_executor(None, sys.stdin.read)
    await asyncio.wait([stdin_closed], timeout=LIFETIME_S)
    for task in tasks:
        task.cancel()
    stuck.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
    sys.exit(0)
