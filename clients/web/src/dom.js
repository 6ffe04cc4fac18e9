// Tiny DOM helpers: build elements from plain calls, keep keyboard focus across re-renders.
// Owns: element creation (HTML and SVG). Must not: know messages, rooms or games.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, props) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "value" && "value" in el) el.value = v;
    else if (k === "checked" && "checked" in el) el.checked = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Number.POSITIVE_INFINITY)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** An HTML element: h("button", {class: "x", onClick}, "text", child, [more]). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** An SVG element, same call shape as h(). */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** Make a non-button element act as a button for mouse and keyboard (Enter and Space). */
export function clickable(el, label, onActivate) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", onActivate);
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      onActivate(ev);
    }
  });
  return el;
}

/**
 * Replace the children of `host` with `node`, then put the focus back on the element with the same
 * `data-key` as the one that had it (re-rendering must not throw a keyboard user back to the top).
 */
export function replaceKeepingFocus(host, node) {
  const active = document.activeElement;
  const key = active && host.contains(active) ? active.getAttribute("data-key") : null;
  host.replaceChildren(node);
  if (key) {
    const again = host.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
    else host.closest("main")?.focus({ preventScroll: true });
  }
}
