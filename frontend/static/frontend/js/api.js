// Small fetch wrapper for the JSON API: sends the CSRF token from the cookie, parses
// {"code","message","extra"} errors into ApiError so pages can show the server's message.

import { _, fmt } from "./i18n.js";
export class ApiError extends Error {
  constructor(status, code, message, extra) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra || {};
  }
}

export function getCookie(name) {
  const prefix = name + "=";
  for (const part of document.cookie ? document.cookie.split(";") : []) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return "";
}

export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  const init = { method, headers, credentials: "same-origin", signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = getCookie("csrftoken");
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text.slice(0, 300) };
    }
  }
  if (!response.ok) {
    const message =
      (data && (data.message || data.detail)) || fmt(_("%(status)s error"), { status: response.status });
    throw new ApiError(response.status, (data && data.code) || "error", message, data && data.extra);
  }
  return data;
}

/** Build "/path/?a=1&b=2", skipping empty values. */
export function withQuery(path, params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, value);
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The path and query of an API "next" link, so paging stays on this origin and scheme (proxies). */
export function localUrl(url) {
  if (!url) return null;
  const parsed = new URL(url, location.origin);
  return parsed.pathname + parsed.search;
}

/** Results list of a paginated ({count,next,results}) or plain-list response. */
export function resultsOf(data) {
  if (Array.isArray(data)) return data;
  return (data && data.results) || [];
}

export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

let toastTimer = null;
export function toast(message, { error = false } = {}) {
  let node = document.getElementById("toast");
  if (!node) {
    node = document.createElement("div");
    node.id = "toast";
    node.setAttribute("role", "status");
    document.body.appendChild(node);
  }
  node.className = "toast" + (error ? " toast-error" : "");
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (node.hidden = true), error ? 6000 : 2500);
}
