// The one DOM helper of every page script: build an element with its attributes, listeners and children.
// (No inline handlers: listeners are attached here, which the site's Content-Security-Policy allows.)

/**
 * Create an element: h("div", {class: "x", onclick: fn, dataset: {id: 1}, style: {"--c": "red"}}, "text", child).
 * Attributes that are undefined, null or false are left out (true: present and empty); children that are
 * undefined, null or false are skipped, arrays are flattened, strings and numbers become text nodes.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, val] of Object.entries(value)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, val);
        else node.style[prop] = val;
      }
    }
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
