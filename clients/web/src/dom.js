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

/**
 * An SVG target's words and numbers, drawn over it instead of in it (once its picture is built and placed): a
 * voice names a control by the words it shows (WCAG 2.5.3), and a board's space shows numbers and icons that its
 * label says in words. The overlay has the target's classes (but `target`) and data attributes, so styles and
 * look-ups find its text as before; it is hidden from assistive technology and lets clicks through.
 */
function liftText(el) {
  if (!el.parentNode) return;
  const art = document.createElementNS(SVG_NS, "g");
  for (const { name, value } of [...el.attributes]) {
    if (name === "class") art.setAttribute("class", `${value.replace(/\btarget\b/, "")} target-art`);
    else if (name === "transform" || (name.startsWith("data-") && name !== "data-key")) art.setAttribute(name, value);
  }
  art.setAttribute("aria-hidden", "true");
  for (const child of [...el.children]) {
    if (child.tagName !== "title" && (child.tagName === "text" || child.querySelector("text"))) art.append(child);
  }
  if (art.childNodes.length) el.after(art);
}

/** Make a non-button element act as a button for mouse and keyboard (Enter and Space). */
export function clickable(el, label, onActivate) {
  if (el.namespaceURI === SVG_NS) queueMicrotask(() => liftText(el));
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

/** The text selection (or caret) of a text field, if it has one (number and email fields have none). */
function selectionOf(el) {
  try {
    if (typeof el.selectionStart === "number") return [el.selectionStart, el.selectionEnd, el.selectionDirection];
  } catch {
    /* a field type without a selection */
  }
  return null;
}

/**
 * Replace the children of `host` with `node`, then put the focus back on the element with the same
 * `data-key` as the one that had it (re-rendering must not throw a keyboard user back to the top), and the
 * caret or selection of a text field where it was (a redraw while typing must not move it or drop a selection).
 */
export function replaceKeepingFocus(host, node) {
  const active = document.activeElement;
  const key = active && host.contains(active) ? active.getAttribute("data-key") : null;
  const selection = key ? selectionOf(active) : null;
  const value = key && "value" in active ? active.value : null;
  host.replaceChildren(node);
  if (key) {
    const again = host.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) {
      again.focus({ preventScroll: true });
      if (selection && "value" in again && again.value === value) {
        try {
          again.setSelectionRange(selection[0], selection[1], selection[2]);
        } catch {
          /* a field type without a selection */
        }
      }
    } else host.closest("main")?.focus({ preventScroll: true });
  }
}
