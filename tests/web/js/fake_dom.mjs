// A small stand-in for the browser's document, enough for the renderers to build their HTML and SVG in node
// (`node --test`): elements with attributes, children, text, classes, styles and listeners. Not a test file.
// Owns: installing `document` and `Node` as globals, reading a built tree back (text, attributes).

export class FakeNode {}

class FakeText extends FakeNode {
  constructor(data) {
    super();
    this.data = data;
  }

  get textContent() {
    return this.data;
  }
}

class FakeElement extends FakeNode {
  constructor(tag, ns = null) {
    super();
    this.tagName = tag;
    this.namespaceURI = ns;
    this.attributes = new Map();
    this.children = [];
    this.listeners = {};
    this.style = {};
    this.dataset = {};
    const cls = () => new Set((this.getAttribute("class") || "").split(/\s+/).filter(Boolean));
    this.classList = {
      add: (...names) => this.setAttribute("class", [...new Set([...cls(), ...names])].join(" ")),
      remove: (...names) => this.setAttribute("class", [...cls()].filter((c) => !names.includes(c)).join(" ")),
      contains: (name) => cls().has(name),
    };
  }

  setAttribute(k, v) {
    this.attributes.set(k, String(v));
  }

  getAttribute(k) {
    return this.attributes.has(k) ? this.attributes.get(k) : null;
  }

  hasAttribute(k) {
    return this.attributes.has(k);
  }

  removeAttribute(k) {
    this.attributes.delete(k);
  }

  addEventListener(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  }

  append(...nodes) {
    for (const n of nodes) this.children.push(n instanceof FakeNode ? n : new FakeText(String(n)));
  }

  replaceChildren(...nodes) {
    this.children = [];
    this.append(...nodes);
  }

  get textContent() {
    return this.children.map((c) => c.textContent).join("");
  }

  set textContent(text) {
    this.children = [new FakeText(String(text))];
  }

  /** Every element below this one (depth first). */
  *descendants() {
    for (const c of this.children) {
      if (c instanceof FakeElement) {
        yield c;
        yield* c.descendants();
      }
    }
  }

  /** Only the forms the renderers use: a tag name, or `[attr="value"]`. */
  querySelector(sel) {
    const m = /^\[([\w-]+)="([^"]*)"\]$/.exec(sel);
    for (const el of this.descendants()) if (m ? el.getAttribute(m[1]) === m[2] : el.tagName === sel) return el;
    return null;
  }

  contains(other) {
    return other === this || [...this.descendants()].includes(other);
  }
}

/** Install the stand-in as the global `document` (and `Node`, for `instanceof`; a window that never scrolls). */
export function installFakeDom() {
  globalThis.Node = FakeNode;
  globalThis.window = { innerWidth: 1280, innerHeight: 900, scrollBy() {} };
  globalThis.requestAnimationFrame = () => 0;
  globalThis.document = {
    documentElement: { lang: "en" },
    activeElement: null,
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (ns, tag) => new FakeElement(tag, ns),
    createTextNode: (data) => new FakeText(data),
    querySelector: () => null,
  };
}

/** Everything a person may read or hear in a tree: its text and its titles, labels and other attribute texts. */
export function readable(root) {
  const out = [];
  const walk = (node) => {
    if (node instanceof FakeText) {
      if (node.data.trim()) out.push(node.data);
      return;
    }
    for (const k of ["aria-label", "title", "alt", "placeholder"]) if (node.getAttribute(k)) out.push(node.getAttribute(k));
    for (const c of node.children) walk(c);
  };
  walk(root);
  return out;
}

/** A tree as text (tags, attributes, children), to compare two renderings. */
export function serialise(node) {
  if (node instanceof FakeText) return node.data;
  const attrs = [...node.attributes].map(([k, v]) => ` ${k}="${v}"`).join("");
  return `<${node.tagName}${attrs}>${node.children.map(serialise).join("")}</${node.tagName}>`;
}
