"""Coverage-guided fuzzing of the frame decoder with atheris: `make fuzz` (not part of the test run).

Every input is one frame as a client could send it. The decoder must answer with a validated message or
a `ProtocolError` carrying a contract error code, and nothing else; a message it accepts re-encodes to a
frame that decodes to the same message; `peek_id` (used for frames refused before decoding) never raises
and agrees with the decoder about the request id; the server-side decoder holds to the same rules.

    .venv/bin/python tests/fuzz/fuzz_decoder.py tests/fuzz/corpus -max_total_time=600

New inputs that reach new code are written to the corpus folder given first; keep them in git.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from protocol import ERROR_CODES, ProtocolError, decode_client, decode_server, encode
    from protocol.codec import decode_any, peek_id


def check(data: bytes) -> None:
    rid = peek_id(data)
    assert rid is None or type(rid) is int
    try:
        msg = decode_client(data)
    except ProtocolError as err:
        assert err.code in ERROR_CODES, err.code
        assert err.re is None or type(err.re) is int
        if err.re is not None:
            assert rid == err.re, (rid, err.re)
    else:
        assert msg.id == rid, (msg.id, rid)
        again = decode_client(encode(msg))
        assert again == msg, (again, msg)
    for fn in (decode_server, decode_any):
        try:
            fn(data)
        except ProtocolError as err:
            assert err.code in ERROR_CODES


def main() -> None:
    atheris.Setup(sys.argv, lambda data: check(bytes(data)))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
