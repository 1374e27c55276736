"""The in-page check shared by the chat-placement browser tests: which visible controls a chat element lies
over (bounding boxes of the chat panel and its button against every button, link, field, card, board square,
order target and the decision area)."""

from __future__ import annotations

from typing import Any

# Returns "<chat part> × <control>" for every overlap of more than one pixel each way (none may be).
OVERLAPS_JS = """() => {
  const shown = (n) => { const r = n.getBoundingClientRect(); const s = getComputedStyle(n);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none"; };
  const parts = [document.getElementById("chat"), document.getElementById("chat-toggle")].filter((n) => n && shown(n));
  const inChat = (n) => parts.some((c) => c === n || c.contains(n) || n.contains(c));
  const controls = [...document.querySelectorAll(
    "button, a[href], input, select, textarea, summary, [data-token], .hand-card, [role=button], #decision, #wx-decide, "
    + "#wx-hand-strip, .wx-mini-card, [data-testid=order-target]")].filter((n) => shown(n) && !inChat(n));
  const out = [];
  for (const c of parts) {
    const a = c.getBoundingClientRect();
    for (const n of controls) {
      const b = n.getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) out.push(`${c.id} × ${n.tagName.toLowerCase()}#${n.id} "${(n.textContent || "").trim().slice(0, 30)}"`);
    }
  }
  return out;
}"""


def overlaps(page: Any) -> list[str]:
    """What the chat covers, at the top of the page and scrolled to its end (a fixed panel moves over both)."""
    page.evaluate("window.scrollTo(0, 0)")
    found = list(page.evaluate(OVERLAPS_JS))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    found += page.evaluate(OVERLAPS_JS)
    page.evaluate("window.scrollTo(0, 0)")
    return found


def is_sheet(page: Any) -> bool:
    """The open chat fills the whole window (a phone's sheet), its close button inside the window."""
    box = page.locator("#chat").bounding_box()
    view = page.viewport_size
    close = page.locator("#chat-close").bounding_box()
    return (
        bool(box and close)
        and abs(box["x"]) < 1
        and abs(box["y"]) < 1
        and (abs(box["width"] - view["width"]) < 1 and abs(box["height"] - view["height"]) < 1)
        and close["width"] >= 44
        and close["height"] >= 44
    )
