// How a clock reads on every page (the tables' clocks, the low-time warning): "4:59" under an hour,
// "23h 10m" from an hour up (correspondence clocks). Negative times read as 0:00. Digits stay Western in
// every language (Thai and Chinese clocks are written so); only the hour and minute units are translated.
import { _, fmt } from "./i18n.js";

export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total >= 3600) {
    return fmt(_("%(hours)sh %(minutes)sm"), {
      hours: Math.floor(total / 3600),
      minutes: Math.floor((total % 3600) / 60),
    });
  }
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
