/* Tableside: the calibration check. Shows GET /api/calibration/status with its two pictures,
collects four clicked corners for POST /api/calibration/corners, and links the printable mats. */
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const cameraInput = document.getElementById("camera");
const gameSelect = document.getElementById("game");
const markerView = document.getElementById("marker-view");
const rectifiedView = document.getElementById("rectified");
const clicks = document.getElementById("clicks");
const statusLine = document.getElementById("cal-status");
const problem = document.getElementById("cal-problem");
let corners = [];  // picture pixels, in the order clicked
let clicking = false;

function query(extra) {
  const params = new URLSearchParams({camera: cameraInput.value.trim()});
  if (gameSelect.value) params.set("game", gameSelect.value);
  for (const [name, value] of Object.entries(extra || {})) params.set(name, value);
  return params.toString();
}

function showProblem(message) {
  problem.hidden = !message;
  problem.textContent = message || "";
}

async function look() {
  if (!cameraInput.value.trim()) { statusLine.textContent = "Name the camera first."; return; }
  history.replaceState(null, "", `?${query()}`);
  statusLine.textContent = "looking...";
  showProblem(null);
  let status;
  try {
    status = await getJSON(`/api/calibration/status?${query({fresh: 1})}`);
  } catch (error) {
    statusLine.textContent = "The camera gave no picture.";
    showProblem(error.message);
    markerView.hidden = clicks.hidden = rectifiedView.hidden = true;
    return;
  }
  document.getElementById("calibrate").dataset.mat = status.mat ? status.mat.game : "";
  const message = status.message[0].toUpperCase() + status.message.slice(1);
  statusLine.replaceChildren(el("strong", {}, status.mat ? "Mat found. " : "No mat found. "), `${message}.`);
  if (status.calibration) {
    statusLine.append(el("span", {class: "muted"},
      ` Calibration from ${status.calibration.source === "mat" ? "the mat's markers" : "the saved corners"}, fit error ${status.calibration.rms_px} px.`));
  }
  const stamp = Date.now();
  markerView.onload = () => { sizeClicks(); markerView.hidden = false; clicks.hidden = false; };
  markerView.src = `${status.view}&n=${stamp}`;
  rectifiedView.hidden = !status.rectified;
  document.getElementById("no-rectified").hidden = Boolean(status.rectified);
  if (status.rectified) rectifiedView.src = `${status.rectified}&n=${stamp}`;
}

/* The click layer covers the picture and counts in its pixels, whatever size it is shown at. */
function sizeClicks() {
  clicks.setAttribute("viewBox", `0 0 ${markerView.naturalWidth} ${markerView.naturalHeight}`);
  drawClicks();
}

function drawClicks() {
  clicks.replaceChildren();
  const r = Math.max(4, (markerView.naturalWidth || 640) / 160);
  if (corners.length > 1) {
    const line = document.createElementNS(SVG, "polygon");
    line.setAttribute("points", corners.map((p) => p.join(",")).join(" "));
    line.setAttribute("class", corners.length === 4 ? "outline closed" : "outline");
    clicks.append(line);
  }
  corners.forEach(([x, y], i) => {
    const dot = document.createElementNS(SVG, "circle");
    Object.entries({cx: x, cy: y, r: r, class: "corner"}).forEach(([k, v]) => dot.setAttribute(k, v));
    const label = document.createElementNS(SVG, "text");
    Object.entries({x: x + r * 1.5, y: y - r * 1.5, class: "corner-label"}).forEach(([k, v]) => label.setAttribute(k, v));
    label.setAttribute("font-size", r * 4);
    label.textContent = String(i + 1);
    clicks.append(dot, label);
  });
  document.getElementById("click-count").textContent = `${corners.length} of 4 corners`;
  document.getElementById("save-corners").disabled = corners.length !== 4;
}

clicks.addEventListener("click", (event) => {
  if (!clicking || corners.length >= 4) return;
  const box = clicks.getBoundingClientRect();
  const x = (event.clientX - box.left) * markerView.naturalWidth / box.width;
  const y = (event.clientY - box.top) * markerView.naturalHeight / box.height;
  corners.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  drawClicks();
});

document.getElementById("start-clicking").addEventListener("click", () => {
  clicking = true;
  clicks.classList.add("armed");
  document.getElementById("corners-result").textContent = "Click the corners on the camera's picture, clockwise from the top-left.";
});
document.getElementById("clear-clicks").addEventListener("click", () => { corners = []; drawClicks(); });

document.getElementById("corners-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const result = await postJSON("/api/calibration/corners", {
    camera: cameraInput.value.trim(), corners: corners,
    width_mm: Number(document.getElementById("width-mm").value),
    height_mm: Number(document.getElementById("height-mm").value)});
  const out = document.getElementById("corners-result");
  if (!result.ok) { showProblem(result.data.error); return; }
  showProblem(null);
  clicking = false;
  clicks.classList.remove("armed");
  out.textContent = `Saved: the ${result.data.area_mm[2]} x ${result.data.area_mm[3]} mm area, fit error ${result.data.rms_px} px.`;
  rectifiedView.src = `${result.data.rectified}&n=${Date.now()}`;
  rectifiedView.hidden = false;
  document.getElementById("no-rectified").hidden = true;
  corners = [];
  await look();  // the status now names the saved corners, and the picture outlines their area
});

function drawMatLinks() {
  const game = document.getElementById("mat-game").value;
  const paper = document.getElementById("mat-paper").value;
  for (const format of ["pdf", "png", "svg"]) {
    document.getElementById(`mat-${format}`).href = `/mats/${game}.${format}?paper=${encodeURIComponent(paper)}`;
  }
}

document.getElementById("look").addEventListener("submit", (event) => { event.preventDefault(); look(); });
document.getElementById("mat-game").addEventListener("change", drawMatLinks);
document.getElementById("mat-paper").addEventListener("change", drawMatLinks);
gameSelect.addEventListener("change", () => {
  const mat = document.getElementById("mat-game");
  if ([...mat.options].some((o) => o.value === gameSelect.value)) { mat.value = gameSelect.value; drawMatLinks(); }
});
drawMatLinks();
if (cameraInput.value.trim()) look();
