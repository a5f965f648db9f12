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
}

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
  command("enter", {action: document.getElementById("enter-action").value});
});

(async () => {
  const state = await refresh();
  if (!state) return;
  const source = new EventSource(`/events?game=${encodeURIComponent(gameId)}&since=${state.last_seq}`);
  const status = document.getElementById("connection");
  source.onopen = () => { status.textContent = "live"; root.dataset.connected = "yes"; };
  source.onerror = () => { status.textContent = "connection lost, reconnecting..."; };
  source.onmessage = () => scheduleRefresh();
})();
