/* Tableside: importing a JSON Lines export from the history page. */
"use strict";

document.getElementById("import").addEventListener("submit", async (event) => {
  event.preventDefault();
  const problem = document.getElementById("import-problem");
  const file = document.getElementById("import-file").files[0];
  if (!file) { problem.hidden = false; problem.textContent = "choose a .jsonl file first"; return; }
  const response = await fetch("/api/history/import", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/x-ndjson"}, body: file});
  const data = await response.json();
  if (response.ok) { window.location = data.page; return; }
  problem.hidden = false;
  problem.textContent = data.error;
});
