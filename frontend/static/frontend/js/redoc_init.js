// Starts ReDoc on /api/redoc/ from the site's own files (the CSP allows no inline script).
// ReDoc's sidebar footer always shows Redocly's logo from their CDN (cdn.redoc.ly), which the site's CSP
// (img-src 'self' data:) refuses: the image is left out before it is requested; the "API docs by
// Redocly" credit stays as text. Its search index runs in a blob: worker, allowed on this page only
// (config/urls.py).
const CDN_LOGO = /^https:\/\/cdn\.redoc\.ly\//;
const NOTHING = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  if (this instanceof HTMLImageElement && String(name).toLowerCase() === "src" && CDN_LOGO.test(String(value))) {
    this.hidden = true;
    return setAttribute.call(this, name, NOTHING);
  }
  return setAttribute.call(this, name, value);
};
const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
Object.defineProperty(HTMLImageElement.prototype, "src", {
  ...src,
  set(value) {
    if (CDN_LOGO.test(String(value))) {
      this.hidden = true;
      value = NOTHING;
    }
    src.set.call(this, value);
  },
});

const container = document.getElementById("redoc-container");
window.Redoc.init(container.dataset.specUrl, {}, container);
