"""A bare WebSocket client on a plain socket, for clients that misbehave on purpose.

It does the opening handshake by hand, sends masked binary frames, and then reads only when told to:
a client that never reads (with a small receive buffer) is exactly what a slow phone or an abandoned
tab looks like to the server. It never answers pings.
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from typing import Any

import msgpack


class RawWS:
    def __init__(self, port: int, *, rcvbuf: int | None = 4096, headers: dict[str, str] | None = None) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(5)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
        self._buf = b""

    def send_frame(self, payload: bytes, opcode: int = 2) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 2**16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, msg: dict[str, Any]) -> None:
        self.send_frame(msgpack.packb(msg, use_bin_type=True))

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def recv_frame(self) -> tuple[int, bytes]:
        """(opcode, payload) of the next frame from the server (unmasked)."""
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._read(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._read(8))
        return b0 & 0x0F, self._read(n)

    def recv(self) -> dict[str, Any]:
        """The next data message (pings are skipped, never answered)."""
        while True:
            op, payload = self.recv_frame()
            if op == 2:
                return dict(msgpack.unpackb(payload, raw=False))
            if op == 8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise ConnectionError(f"close frame {code}")

    def wait_gone(self, timeout: float) -> float:
        """Read and discard until the server ends the TCP connection; returns the seconds it took."""
        t0 = time.monotonic()
        self.sock.settimeout(0.2)
        while time.monotonic() - t0 < timeout:
            try:
                if not self.sock.recv(65536):
                    return time.monotonic() - t0
            except TimeoutError:
                continue
            except OSError:  # reset by the server: gone as well
                return time.monotonic() - t0
        raise AssertionError(f"the server kept the connection open for {timeout} s")

    def close(self) -> None:
        self.sock.close()
