/* Tableside: the start page. Builds the choices from the catalogue and posts to /api/games. */
"use strict";

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
const seatColours = JSON.parse(document.getElementById("colours").textContent);
const gameSelect = document.getElementById("game");
const editionSelect = document.getElementById("edition");
const seats = document.getElementById("seats");
const defaultNames = ["ann", "bob", "cat", "dan", "eve"];

function chosenGame() { return catalogue.find((g) => g.name === gameSelect.value); }

function drawEditions() {
  const game = chosenGame();
  editionSelect.replaceChildren(...game.editions.map((e) => el("option", {value: e.name}, e.title)));
  drawOptions();
  while (seats.children.length < game.min_players) addPlayer();
  while (seats.children.length > game.max_players) seats.lastElementChild.remove();
  document.getElementById("player-count").textContent =
    game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players} to ${game.max_players} players`;
}

function drawOptions() {
  const game = chosenGame();
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", {}, "Options"));
  const options = game.options.filter((o) => !o.editions.length || o.editions.includes(editionSelect.value));
  if (!options.length) box.append(el("p", {class: "muted"}, "This edition has no options."));
  for (const option of options) {
    let input;
    if (typeof option.default === "boolean") {
      input = el("input", {type: "checkbox", "data-option": option.name, checked: option.default});
    } else if (option.choices.length) {
      input = el("select", {"data-option": option.name},
        ...option.choices.map((c) => el("option", {value: c, selected: c === option.default}, String(c))));
    } else {
      input = el("input", {"data-option": option.name, value: option.default});
    }
    box.append(el("label", {class: "option"}, input, ` ${option.name}: `, el("span", {class: "muted"}, option.help)));
  }
}

function addPlayer() {
  const n = seats.children.length;
  if (n >= chosenGame().max_players) return;
  const colour = el("select", {class: "colour"}, el("option", {value: ""}, "no colour"),
    ...seatColours.map((c, i) => el("option", {value: c, selected: i === n}, c)));
  const remove = el("button", {type: "button", class: "remove"}, "remove");
  remove.addEventListener("click", () => { if (seats.children.length > chosenGame().min_players) item.remove(); });
  const item = el("li", {}, el("input", {class: "name", value: defaultNames[n] || `p${n + 1}`, size: 12,
    "aria-label": `player in seat ${n + 1}`}), " ", colour, " ", remove);
  seats.append(item);
}

function optionValue(input) {
  if (input.type === "checkbox") return input.checked;
  const option = chosenGame().options.find((o) => o.name === input.dataset.option);
  if (typeof option.default === "number") return Number(input.value);
  return input.value;
}

document.getElementById("start").addEventListener("submit", async (event) => {
  event.preventDefault();
  const problem = document.getElementById("problem");
  const body = {
    game: gameSelect.value,
    edition: editionSelect.value,
    options: Object.fromEntries([...document.querySelectorAll("[data-option]")].map((i) => [i.dataset.option, optionValue(i)])),
    players: [...seats.children].map((li, seat) => {
      const colour = li.querySelector(".colour").value;
      return colour ? {name: li.querySelector(".name").value, seat: seat, colour: colour}
                    : {name: li.querySelector(".name").value, seat: seat};
    }),
    camera: document.getElementById("camera").value,
  };
  const setup = document.getElementById("setup").value.trim();
  if (setup) {
    try { body.setup = JSON.parse(setup); } catch (e) {
      problem.hidden = false;
      problem.textContent = `the setup is not valid JSON: ${e.message}`;
      return;
    }
  }
  const result = await postJSON("/api/games", body);
  if (result.ok) { window.location = result.data.page; return; }
  problem.hidden = false;
  problem.textContent = result.data.error;
});
/* The calibration check opens on the chosen camera and game. */
function drawCalibrationLink() {
  const params = new URLSearchParams({camera: document.getElementById("camera").value.trim(), game: gameSelect.value});
  document.getElementById("calibration-link").href = `/play/calibrate?${params}`;
}
gameSelect.addEventListener("change", drawCalibrationLink);
document.getElementById("camera").addEventListener("input", drawCalibrationLink);
gameSelect.addEventListener("change", drawEditions);
editionSelect.addEventListener("change", drawOptions);
document.getElementById("add-player").addEventListener("click", addPlayer);
drawEditions();
drawCalibrationLink();
