// The settings page (/accounts/settings/): ticking "browser notification" asks the browser's permission
// (inside the click, as browsers require) and says plainly when the browser refuses; the form itself is
// an ordinary POST.
import { _ } from "./i18n.js";

const box = document.getElementById("id_browser_notifications");
const note = document.getElementById("notify-permission");

function explain() {
  if (!note) return;
  if (!("Notification" in window)) {
    note.textContent = _("This browser cannot show notifications: the tab's title still shows your turn.");
  } else if (Notification.permission === "denied") {
    note.textContent =
      _("This browser blocks notifications from this site: allow them in the site settings (the icon left of the address).");
  } else if (Notification.permission === "granted") {
    note.textContent = _("This browser allows notifications from this site.");
  } else {
    note.textContent = _("Your browser will ask for permission when you tick this.");
  }
}

if (box) {
  box.addEventListener("change", async () => {
    if (!box.checked || !("Notification" in window) || Notification.permission === "granted") return;
    let permission = "denied";
    try {
      permission = await Notification.requestPermission();
    } catch {
      permission = "denied";
    }
    if (permission !== "granted") box.checked = false;
    explain();
  });
  explain();
}
