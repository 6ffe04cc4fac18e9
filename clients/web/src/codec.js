// The wire codec: one msgpack map per binary frame (docs/protocol.md). No hand-written msgpack.
import { decode, encode } from "@msgpack/msgpack";

/** Encode one client message as the bytes of a binary frame. */
export function pack(msg) {
  return encode(msg);
}

/** Decode one server frame (an ArrayBuffer) into a message map. */
export function unpack(data) {
  return decode(new Uint8Array(data));
}
