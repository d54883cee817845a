// kobook's review pages: j/k step through the rows with findings, a click on a
// translated cell names its file:line, and (live preview only) the buttons post to
// the preview server, which writes the lock; the page is then read again.
(function () {
  "use strict";
  const rows = Array.from(document.querySelectorAll("tr.finding"));
  const where = document.getElementById("where");
  let current = -1;

  function show(index) {
    if (!rows.length) return;
    current = (index + rows.length) % rows.length;
    rows.forEach((row, i) => row.classList.toggle("current", i === current));
    const row = rows[current];
    row.scrollIntoView({ block: "center" });
    const cell = row.querySelector("td.ko");
    if (cell) cell.focus({ preventScroll: true });
    where.textContent = row.dataset.place;
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea")) return;
    if (event.key === "j") { show(current + 1); event.preventDefault(); }
    if (event.key === "k") { show(current - 1); event.preventDefault(); }
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    const row = event.target.closest("tr.row");
    if (!row) return;
    if (!button) {
      if (event.target.closest("td.ko")) {
        where.textContent = row.dataset.place;
        if (navigator.clipboard) navigator.clipboard.writeText(row.dataset.place).catch(() => {});
      }
      return;
    }
    if (document.body.dataset.live !== "1") return;
    button.disabled = true;
    fetch("/__kobook/review", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: button.dataset.action, place: row.dataset.place }),
    })
      .then((response) => response.json())
      .then((answer) => {
        where.textContent = answer.message || "";
        if (answer.ok) window.location.reload();
        else button.disabled = false;
      })
      .catch(() => { where.textContent = "the preview server did not answer"; button.disabled = false; });
  });
})();
