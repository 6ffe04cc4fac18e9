// Views of the rooms this client is in: a snapshot, then one JSON Patch per version (docs/protocol.md).
// Owns: `v` per room, applying patches (fast-json-patch), asking for `sync` on a gap or a failed patch.
// Must not: change a view any other way; the server is the only source of truth.
import { applyPatch } from "fast-json-patch";

export class Store {
  /** `resync(room)` sends a `sync`; `onChange(room)` runs after every applied snapshot or patch. */
  constructor({ resync, onChange }) {
    this.rooms = new Map();
    this.resyncs = 0; // snapshots asked for after a gap or a failed patch (shown in tests and the console)
    this.resync = resync;
    this.onChange = onChange;
  }

  get(room) {
    return this.rooms.get(room) || null;
  }

  forget(room) {
    this.rooms.delete(room);
  }

  snapshot(msg) {
    this.rooms.set(msg.room, { v: msg.v, view: msg.state, syncing: false });
    this.onChange(msg.room);
  }

  patch(msg) {
    const entry = this.rooms.get(msg.room);
    if (!entry) return; // not (yet) a room of ours: the snapshot after `joined` comes next
    if (entry.syncing) return; // the snapshot we asked for replaces everything up to its version
    if (msg.base !== entry.v) {
      this.gap(msg.room, entry, `patch base ${msg.base} but view at ${entry.v}`);
      return;
    }
    try {
      entry.view = applyPatch(entry.view, msg.ops, false, false).newDocument;
      entry.v = msg.v;
    } catch (err) {
      this.gap(msg.room, entry, `patch failed: ${err.message}`);
      return;
    }
    this.onChange(msg.room);
  }

  gap(room, entry, why) {
    console.warn(`room ${room}: ${why}; asking for a snapshot`);
    entry.syncing = true;
    this.resyncs += 1;
    this.resync(room);
  }
}
