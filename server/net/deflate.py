"""permessage-deflate (RFC 7692) for the server, with the messages that must not share a compression context
sent uncompressed.

Owns: the extension factory the transport hands to `websockets.serve` (`deflate_extensions`), and the rule of which
server messages skip the compressor.
Must not: change any message: a message sent uncompressed is the same bytes, without RSV1 (RFC 7692 section 6
lets an endpoint send any message uncompressed); the client's decompressor never sees it, so both sides' windows
stay the same.

Why some messages skip it: with context takeover, what one connection's compressor saw earlier shortens what it
sends later. If a message that another party writes (a chat line) and a secret (a token) pass through the same
compressor, someone who can both write such messages and see the sizes of the (encrypted) frames could guess the
secret a few bytes at a time (the CRIME / BREACH attacks on TLS and HTTP compression). So the frames that carry
bearer secrets (`welcome`: the token; `created`, `rematch`: an invite; `notify`: a webhook's signing secret) and the
frames whose text another player chooses (`chat`, `chat_log`) never enter the compressor. What stays compressed is
the viewer's own views and the server's answers (docs/security.md, "Compression").
"""

from __future__ import annotations

from collections.abc import Sequence

from websockets.extensions.base import Extension, ServerExtensionFactory
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.typing import BytesLike, ExtensionParameter

from server.config import Settings

#: server message types sent uncompressed: bearer secrets, and text another player writes
PLAIN_TYPES = ("welcome", "created", "rematch", "notify", "chat", "chat_log")


def _tag(t: str) -> bytes:
    """The msgpack bytes of a frame's first key and its value: `t` and the type (a frame is `{t: ..., ...}`)."""
    assert len(t) < 32
    return b"\xa1t" + bytes([0xA0 | len(t)]) + t.encode()


_PLAIN = tuple(_tag(t) for t in PLAIN_TYPES)
_HEAD = 1 + max(len(tag) for tag in _PLAIN)


def plain(data: BytesLike) -> bool:
    """True for a frame to send uncompressed: a map (of up to 15 keys, as every server frame is) whose first
    key is `t` and whose type is one of PLAIN_TYPES. Anything else is compressed."""
    head = bytes(data[:_HEAD])
    return bool(head) and 0x80 <= head[0] <= 0x8F and head.startswith(_PLAIN, 1)


class SelectiveDeflate(PerMessageDeflate):
    """PerMessageDeflate that leaves the PLAIN_TYPES frames uncompressed (see the module's docstring)."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is Opcode.BINARY and frame.fin and plain(frame.data):
            return frame
        return super().encode(frame)


class SelectiveDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, ext = super().process_request_params(params, accepted_extensions)
        ext.__class__ = SelectiveDeflate  # the same extension and zlib objects, with the encode above
        return response, ext


def deflate_extensions(settings: Settings) -> list[ServerExtensionFactory] | None:
    """permessage-deflate as the settings ask (None: not offered). With context takeover, so a viewer's frames
    compress against the ones before them (a patch is mostly the keys and paths of the one before); the window
    and memLevel bound the memory each connection holds for it."""
    if settings.compression == "none":
        return None
    bits = settings.deflate_window_bits
    return [
        SelectiveDeflateFactory(
            server_max_window_bits=bits,
            client_max_window_bits=bits,
            compress_settings={"memLevel": settings.deflate_mem_level},
        )
    ]
