// The fallback renderer: any game, no board. The view's public part as text; every prompt option is
// offered by the room shell as a button (hasGesture is always false), so any game is playable.
import { h } from "./dom.js";

/** A move as short text: its fields in order, e.g. `a: move · fig: 2`. */
export function describeGeneric(move) {
  return Object.entries(move)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" · ");
}

export default {
  id: "*",
  title: "Game",
  render(ctx) {
    return h(
      "section",
      { class: "generic", "aria-label": "Game state" },
      h("h3", null, "Public state"),
      h("pre", { class: "json" }, JSON.stringify(ctx.view.public, null, 1)),
      ctx.view.private ? [h("h3", null, "Yours only"), h("pre", { class: "json" }, JSON.stringify(ctx.view.private, null, 1))] : null,
    );
  },
  describe: (move) => describeGeneric(move),
  hasGesture: () => false,
  logLines: () => [],
};
