/* Tableside: the live page. Draws GET /api/games/<id> and redraws on every event from /events. */
"use strict";

const root = document.getElementById("live");
const gameId = root.dataset.game;
const api = `/api/games/${gameId}`;
let colours = {};
let refreshing = null;

function ruleLink(reason) {
  const url = reason.url || `/rules/${reason.rule.split("/")[0]}#${reason.rule}`;
  return el("a", {href: url, class: "rule", title: reason.statement || reason.rule}, reason.rule);
}

function reasonsNode(reasons) {
  const list = el("ul", {class: "reasons"});
  for (const reason of reasons) {
    list.append(el("li", {}, reason.text, " ", ruleLink(reason),
      reason.statement ? el("span", {class: "statement"}, ` ${reason.statement}`) : null,
      reason.ruling ? el("span", {class: "ruling"}, ` Ruling: ${reason.ruling}`) : null));
  }
  return list;
}

async function command(path, body) {
  const box = document.getElementById("command-error");
  const result = await postJSON(`${api}/${path}`, body);
  box.hidden = result.ok;
  if (!result.ok) box.textContent = result.data.error;
  if (result.ok) draw(result.data.state);
  return result;
}

function drawProblem(pending) {
  const banner = document.getElementById("problem-banner");
  banner.hidden = !pending;
  if (!pending) return;
  banner.className = `banner ${pending.kind}`;
  const titles = {violation: "Violation: the rules refuse what the table shows",
                  question: `Question for the players: ${pending.why}`,
                  unrecognised: "Unrecognised change: no move explains what the table shows"};
  document.getElementById("problem-title").textContent = titles[pending.kind] || pending.kind;
  const readings = document.getElementById("problem-readings");
  readings.replaceChildren();
  for (const reading of pending.readings) {
    const item = el("li", {}, el("code", {}, reading.notation), reading.legal ? " (legal)" : " (illegal)",
                    reasonsNode(reading.reasons));
    if (pending.kind === "question") {
      item.append(el("button", {type: "button", class: "choose", "data-index": reading.index}, "This is what happened"));
    } else if (pending.kind === "violation") {
      item.append(el("button", {type: "button", class: "overrule", "data-index": reading.index}, "Overrule: play it anyway"));
    }
    readings.append(item);
  }
  const actions = document.getElementById("problem-actions");
  actions.textContent = pending.kind === "question" ? "" : "Put the table back as it was, or correct the reading below.";
  if (pending.changes && pending.changes.length) {
    actions.append(" Changed: " + pending.changes.map((c) => c.place).join(", ") + ".");
  }
}

/* The moves the players said that wait until the rules allow them, each with why and a way to take it back. */
function drawSaid(said) {
  document.getElementById("said-box").hidden = !said.length;
  const list = document.getElementById("said");
  list.replaceChildren();
  for (const move of said) {
    const takeBack = el("button", {type: "button", class: "unsay"}, "Take back");
    takeBack.addEventListener("click", () => command("unsay", {said: move.seq}));
    list.append(el("li", {"data-seq": move.seq}, el("strong", {}, move.notation), " waits: ",
                   reasonsNode(move.reasons), takeBack));
  }
}

function drawLog(log) {
  const list = document.getElementById("log");
  list.replaceChildren();
  for (const event of log.slice().reverse()) {
    if (event.kind === "start") continue;
    const item = el("li", {class: `event ${event.kind}`, "data-seq": event.seq, value: event.seq},
                    el("span", {class: "kind"}, event.kind), " ", event.text);
    list.append(item);
  }
}

function draw(state) {
  colours = Object.fromEntries(state.players.filter((p) => p.colour).map((p) => [p.name, p.colour]));
  drawView(document.getElementById("view"), state.view, colours, state.game.options);
  const toMove = document.getElementById("to-move");
  toMove.textContent = state.outcome ? "game over" : state.to_move === "table" ? "the table shows what chance brings"
                                                   : `${state.to_move} to move`;
  drawProblem(state.pending);
  drawSaid(state.said || []);
  const winner = document.getElementById("winner");
  winner.hidden = !state.outcome;
  if (state.outcome) {
    const names = state.outcome.winners.length ? `${state.outcome.winners.join(" and ")} wins!` : "A draw.";
    winner.replaceChildren(el("h2", {}, names), el("p", {}, state.outcome.text, " ",
      ruleLink({rule: state.outcome.rule, url: state.outcome.rule_url})));
  }
  const frame = document.getElementById("frame");
  if (state.frame) {
    frame.src = `${state.frame}?n=${Date.now()}`;
    frame.hidden = false;
    document.getElementById("no-frame").hidden = true;
  }
  if (state.log) drawLog(state.log);
  drawCamera(state.camera, state.camera_source);
  drawPieces(state.pieces);
  refreshOverlay();
}

/* The camera runner's status in one line, as the server words it ("camera running, calibrated by ..."). */
let cameraRunning = false;
let cameraSource = null;
function drawCamera(camera, source) {
  const line = document.getElementById("camera-status");
  line.hidden = !camera;
  cameraRunning = Boolean(camera && camera.running);
  if (source !== undefined) cameraSource = source;
  // a game with a camera can stop and start it; the button that would change nothing is disabled
  document.getElementById("camera-controls").hidden = !cameraSource || root.dataset.demo === "yes";
  document.getElementById("camera-stop").disabled = !cameraRunning;
  document.getElementById("camera-start").disabled = cameraRunning;
  if (!camera) return;
  line.dataset.status = camera.status;
  line.dataset.calibrated = camera.calibrated ? "yes" : "no";
  line.className = camera.status === "retrying" ? "problem" : "muted";
  line.textContent = camera.text;
}

/* -- the overlay: the last snapshot's cards on the camera picture; a click opens the picker -- */
const SVG_NS = "http://www.w3.org/2000/svg";
let deck = [];
let overlayBusy = false, overlayAgain = false;

/* One request at a time; a change that comes meanwhile asks again once it is done. */
async function refreshOverlay() {
  if (overlayBusy) { overlayAgain = true; return; }
  overlayBusy = true;
  do {
    overlayAgain = false;
    try { drawOverlay(await getJSON(`${api}/sightings`)); } catch (error) { /* the next event tries again */ }
  } while (overlayAgain);
  overlayBusy = false;
}

function drawOverlay(placed) {
  deck = placed.deck;
  const svg = document.getElementById("overlay");
  const note = document.getElementById("overlay-note");
  svg.replaceChildren();
  const shown = placed.sightings.filter((s) => s.corners_px);
  if (placed.image_size) svg.setAttribute("viewBox", `0 0 ${placed.image_size[0]} ${placed.image_size[1]}`);
  for (const s of shown) {
    const group = document.createElementNS(SVG_NS, "g");
    group.setAttribute("class", `sighting${s.confidence < 0.6 ? " unsure" : ""}`);
    group.dataset.sighting = s.sighting;
    group.dataset.label = s.label;
    const outline = document.createElementNS(SVG_NS, "polygon");
    outline.setAttribute("points", s.corners_px.map((p) => p.join(",")).join(" "));
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = `${s.sighting}: ${s.label} (${Math.round(s.confidence * 100)} %): click to relabel`;
    const [cx, cy] = s.corners_px.reduce(([a, b], [x, y]) => [a + x / 4, b + y / 4], [0, 0]);
    const [[x0, y0], [x1, y1]] = s.corners_px;
    const size = Math.hypot(x1 - x0, y1 - y0) / Math.max(2.5, s.label.length * 0.7);  // the label fits across the card
    const label = document.createElementNS(SVG_NS, "text");
    Object.entries({x: cx, y: cy, "font-size": size, "text-anchor": "middle", "dominant-baseline": "middle"})
      .forEach(([k, v]) => label.setAttribute(k, v));
    label.textContent = s.label;
    group.append(title, outline, label);
    svg.append(group);
  }
  placedBox = shown.length ? cardsBox(shown, placed.image_size) : null;
  zoomToCards();
  /* Sightings the picture cannot place (no calibration yet) are listed, to be clicked the same way. */
  const unplaced = placed.sightings.filter((s) => !s.corners_px);
  note.replaceChildren();
  if (unplaced.length) {
    note.append(placed.image_size ? "Not placed on the picture (no mat in view, no calibration saved): " : "Cards seen: ");
    for (const s of unplaced) {
      note.append(el("button", {type: "button", class: "sighting-chip", "data-sighting": s.sighting, "data-label": s.label},
                     `${s.sighting} ${s.label}`), " ");
    }
  } else if (shown.length) {
    note.textContent = `${shown.length} card${shown.length > 1 ? "s" : ""} placed by ${placed.placed_by}.`;
  }
}

/* The cards fill a small part of a webcam's picture: the view zooms to them (and a margin round
them) so that each is big enough to click; the button shows the whole picture again. */
let placedBox = null, wholePicture = false;

function cardsBox(sightings, size) {
  const xs = sightings.flatMap((s) => s.corners_px.map((p) => p[0]));
  const ys = sightings.flatMap((s) => s.corners_px.map((p) => p[1]));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 0.25 * Math.max(x1 - x0, y1 - y0);
  const left = Math.max(0, x0 - margin), top = Math.max(0, y0 - margin);
  return {x: left, y: top, w: Math.min(size[0], x1 + margin) - left, h: Math.min(size[1], y1 + margin) - top,
          width: size[0], height: size[1]};
}

function zoomToCards() {
  const view = document.getElementById("camera-view"), zoom = document.getElementById("zoom");
  const toggle = document.getElementById("zoom-toggle");
  toggle.hidden = !placedBox;
  const box = placedBox;
  if (!box || wholePicture) {
    zoom.style.transform = "";
    view.style.height = "";
    toggle.textContent = "Zoom to the cards";
    return;
  }
  const scale = Math.max(1, Math.min(box.width / box.w, 1.2 * box.width / box.h, 4));
  zoom.style.transform = `scale(${scale}) translate(${-100 * box.x / box.width}%, ${-100 * box.y / box.height}%)`;
  view.style.height = `${view.clientWidth * box.h * scale / box.width}px`;
  toggle.textContent = "Show the whole picture";
}

document.getElementById("zoom-toggle").addEventListener("click", () => { wholePicture = !wholePicture; zoomToCards(); });
window.addEventListener("resize", zoomToCards);

function openPicker(sighting, label, x, y) {
  const picker = document.getElementById("picker");
  picker.dataset.sighting = sighting;
  document.getElementById("picker-title").replaceChildren(el("code", {}, sighting), ` reads as ${label}; it really is:`);
  const filter = document.getElementById("picker-filter");
  filter.value = "";
  drawChoices();
  const area = document.querySelector(".camera").getBoundingClientRect();
  picker.style.left = `${Math.max(0, Math.min(x - area.left, area.width - 260))}px`;
  picker.style.top = `${y - area.top + 12}px`;
  picker.hidden = false;
  filter.focus();
}

/* Cards whose id or name contains every typed word: "q h" finds QH, "ace" the Decktet aces. */
function matching() {
  const words = document.getElementById("picker-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  return deck.filter((id) => words.every((w) => id.toLowerCase().includes(w)));
}

function drawChoices() {
  const box = document.getElementById("picker-choices");
  const found = matching();
  box.replaceChildren(...found.slice(0, 60).map((id) => el("button", {type: "button", class: "choice", "data-label": id}, id)));
  if (found.length > 60) box.append(el("span", {class: "muted"}, ` ${found.length - 60} more: type to narrow`));
  if (!found.length) box.append(el("span", {class: "muted"}, "no card of this game's deck matches"));
}

async function relabelAs(label) {
  const picker = document.getElementById("picker");
  const result = await command("relabel", {sighting: picker.dataset.sighting, label: label});
  if (result.ok) picker.hidden = true;
}

document.querySelector(".camera").addEventListener("click", (event) => {
  const target = event.target.closest("g.sighting, button.sighting-chip");
  if (target) openPicker(target.dataset.sighting, target.dataset.label, event.clientX, event.clientY);
});
document.getElementById("picker-filter").addEventListener("input", drawChoices);
document.getElementById("picker-filter").addEventListener("keydown", (event) => {
  if (event.key === "Enter") { event.preventDefault(); const first = matching()[0]; if (first) relabelAs(first); }
  if (event.key === "Escape") document.getElementById("picker").hidden = true;
});
document.getElementById("picker-choices").addEventListener("click", (event) => {
  const choice = event.target.closest("button.choice");
  if (choice) relabelAs(choice.dataset.label);
});
document.getElementById("picker-cancel").addEventListener("click", () => { document.getElementById("picker").hidden = true; });

async function refresh() {
  try {
    const state = await getJSON(api);
    draw(state);
    return state;
  } catch (error) {
    document.getElementById("connection").textContent = `cannot read the game: ${error.message}`;
    return null;
  }
}

function scheduleRefresh() {
  if (refreshing) return;
  refreshing = setTimeout(async () => { refreshing = null; await refresh(); }, 50);
}

document.getElementById("problem-readings").addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  const index = Number(button.dataset.index);
  command(button.classList.contains("choose") ? "choose" : "overrule", {index: index});
});
document.getElementById("undo").addEventListener("click", () => command("undo"));
document.getElementById("relabel-form").addEventListener("submit", (event) => {
  event.preventDefault();
  command("relabel", {sighting: document.getElementById("relabel-sighting").value,
                      label: document.getElementById("relabel-label").value});
});
document.getElementById("enter-form").addEventListener("submit", (event) => {
  event.preventDefault();
  command("enter", {action: document.getElementById("enter-action").value,
                   wait: document.getElementById("enter-wait").checked});
});

/* -- the players' pieces: tokens and colours shown to the camera -- */
function drawPieces(pieces) {
  const list = document.getElementById("pieces-list");
  if (!list || !pieces) return;
  list.replaceChildren();
  for (const token of pieces.tokens) {
    list.append(el("li", {"data-kind": "token", "data-label": token.label},
      `${token.label}'s token: a ${token.shape} of radius ${token.radius_mm} mm, ${token.height_mm} mm tall `,
      el("a", {href: token.picture, target: "_blank"}, "(as shown)")));
  }
  for (const colour of pieces.colours) {
    list.append(el("li", {"data-kind": "colour", "data-label": colour.label},
      `pyramid colour ${colour.label} `, el("a", {href: colour.picture, target: "_blank"}, "(as shown)")));
  }
  const problems = document.getElementById("pieces-problems");
  problems.replaceChildren(...pieces.problems.map((problem) => el("li", {}, problem)));
}

async function showPiece(path, body, what) {
  const result = document.getElementById("pieces-result");
  result.hidden = false;
  result.className = "muted";
  result.textContent = `Looking for ${what}...`;
  const answer = await postJSON(`${api}/${path}`, body);
  result.className = answer.ok ? "ok" : "problem";
  result.dataset.outcome = answer.ok ? "registered" : "refused";
  result.textContent = answer.ok ? `Registered ${what}.` : answer.data.error;
  if (answer.ok) drawPieces(answer.data.pieces);
}

const tokenForm = document.getElementById("token-form");
if (tokenForm) {
  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const label = document.getElementById("token-player").value;
    showPiece("tokens", {label: label, shape: document.getElementById("token-shape").value,
                         radius_mm: Number(document.getElementById("token-radius").value),
                         height_mm: Number(document.getElementById("token-height").value)}, `${label}'s token`);
  });
}
const colourForm = document.getElementById("colour-form");
if (colourForm) {
  colourForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = document.getElementById("colour-name").value.trim();
    showPiece("colours", {name: name}, `the colour ${name}`);
  });
}

document.getElementById("camera-stop").addEventListener("click", () => cameraCommand("stop"));
document.getElementById("camera-start").addEventListener("click", () => cameraCommand("start"));
async function cameraCommand(which) {
  const box = document.getElementById("command-error");
  const answer = await postJSON(`${api}/camera/${which}`, {});
  box.hidden = answer.ok;
  if (!answer.ok) box.textContent = answer.data.error;
  else drawCamera(answer.data.camera);
}

/* While the camera runs, its picture and frame count change between events: redraw every 2 s. */
setInterval(() => { if (cameraRunning) scheduleRefresh(); }, 2000);

(async () => {
  const state = await refresh();
  if (!state) return;
  const source = new EventSource(`/events?game=${encodeURIComponent(gameId)}&since=${state.last_seq}`);
  const status = document.getElementById("connection");
  source.onopen = () => { status.textContent = "live"; root.dataset.connected = "yes"; };
  source.onerror = () => { status.textContent = "connection lost, reconnecting..."; };
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.kind === "camera") drawCamera(event.camera);  // camera news: no log entry
    scheduleRefresh();
  };
})();
