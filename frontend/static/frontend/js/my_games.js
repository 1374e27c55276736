// "My games" (/play/mine/): the time left of each game waiting for you counts down on the page.
const rows = Array.from(document.querySelectorAll("[data-testid=time-left][data-deadline]"));

function left(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h left`;
  if (h) return `${h} h ${m} min left`;
  return `${m}:${String(s % 60).padStart(2, "0")} left`;
}

function tick() {
  const now = Date.now();
  for (const node of rows) {
    const ms = Date.parse(node.dataset.deadline) - now;
    if (Number.isNaN(ms)) continue;
    node.textContent = ms > 0 ? left(ms) : "time is up";
    node.classList.toggle("time-left-low", ms < 3600 * 1000);
  }
}

if (rows.length) {
  tick();
  setInterval(tick, 1000);
}
