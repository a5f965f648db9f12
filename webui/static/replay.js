/* Tableside: stepping through a logged game, with the table and the picture of each moment. */
"use strict";

const replayRoot = document.getElementById("replay");
const replayId = replayRoot.dataset.game;
const steps = JSON.parse(document.getElementById("steps").textContent);
const replayColours = JSON.parse(document.getElementById("colours").textContent);
const replayOptions = JSON.parse(document.getElementById("options").textContent);
let current = 0;

/* The picture of a moment: its own frame, or else the last one before it. */
function frameAt(index) {
  for (let i = index; i >= 0; i--) if (steps[i].frame) return steps[i].frame;
  return null;
}

async function show(index) {
  current = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[current];
  document.getElementById("position").textContent = `event ${step.seq} of ${steps.length}`;
  document.getElementById("step-kind").textContent = step.kind;
  document.getElementById("step-kind").className = `kind ${step.kind}`;
  document.getElementById("step-text").textContent = step.text;
  replayRoot.dataset.seq = step.seq;
  const frame = frameAt(current);
  const img = document.getElementById("frame");
  img.hidden = !frame;
  document.getElementById("no-frame").hidden = !!frame;
  if (frame) img.src = frame;
  const state = await getJSON(`/api/history/${replayId}/at/${step.seq}`);
  if (steps[current].seq !== state.seq) return;  // a later click won
  drawView(document.getElementById("view"), state.view, replayColours, replayOptions);
  document.getElementById("to-move").textContent = state.outcome ? "game over"
    : state.to_move === "table" ? "the table shows what chance brings" : `${state.to_move} to move`;
  replayRoot.dataset.shown = step.seq;
}

document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("previous").addEventListener("click", () => show(current - 1));
document.getElementById("next").addEventListener("click", () => show(current + 1));
document.getElementById("last").addEventListener("click", () => show(steps.length - 1));
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") show(current + 1);
  if (event.key === "ArrowLeft") show(current - 1);
});
document.getElementById("frame").addEventListener("error", (event) => {
  event.target.hidden = true;  // an imported game's pictures stayed on the machine that exported it
  document.getElementById("no-frame").hidden = false;
});
if (steps.length) show(0);
