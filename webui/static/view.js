/* Tableside: a game's view (place -> contents, as State.view() gives it) drawn for players.

Places are grouped by the word before the slash (heap/1,2 -> heap). A group whose keys are grid
positions ("1,2" or "r2c3") is drawn as a grid, the others as labelled rows. Pouches tokens stand
on the same grid as the heap, so they are drawn on it, in the same cell as the pile they stand on;
each pile shows its height. Cards, Decktet cards, pyramids, dice and
player tokens each get their own look. */
"use strict";

const SUITS = {S: ["\u2660", "black"], H: ["\u2665", "red"], D: ["\u2666", "red"], C: ["\u2663", "black"]};
const PYRAMID = /^(red|yellow|green|blue|black|clear|orange|purple|cyan|white)([123])$/;

function gridKey(key) {
  let m = /^(-?\d+),(-?\d+)$/.exec(key);
  if (m) return {col: Number(m[1]), row: Number(m[2])};
  m = /^r(\d+)c(\d+)$/.exec(key);
  if (m) return {col: Number(m[2]), row: Number(m[1])};
  return null;
}

function pieceNode(item, colours) {
  const card = /^([2-9TJQKA])([SHDC])$/.exec(item);
  if (card) {
    const [symbol, colour] = SUITS[card[2]];
    return el("span", {class: `piece card ${colour}`, title: item}, (card[1] === "T" ? "10" : card[1]) + symbol);
  }
  if (item === "back") return el("span", {class: "piece card back", title: "a face-down card"}, "\u00a0");
  const stack = item.split("+");
  if (stack.every((p) => PYRAMID.test(p))) {
    const node = el("span", {class: "piece stack", title: `pyramids ${item} (bottom to top)`});
    for (const p of stack) {
      const [, colour, size] = PYRAMID.exec(p);
      node.append(el("span", {class: `pyramid size${size}`, style: `--pyramid: ${colour}`}, size));
    }
    return node;
  }
  if (/^[1-6]$/.test(item)) return el("span", {class: "piece die", title: `die showing ${item}`}, item);
  if (colours && colours[item]) {
    return el("span", {class: "piece token", style: `--token: ${colours[item]}`, title: `${item}'s token`}, item);
  }
  return el("span", {class: "piece word", title: item}, item);
}

function contentsNode(items, colours) {
  const node = el("span", {class: "contents"});
  for (const item of items) node.append(pieceNode(item, colours));
  return node;
}

/* What one place holds, named by its place (the selectors tests and scripts use). */
function placeNode(kind, key, items, colours) {
  const node = contentsNode(items, colours);
  node.setAttribute("data-place", `${kind}/${key}`);
  return node;
}

/* Deck Town: a card's pyramids come grouped by owner colour (red1+red2); a player who alone
   occupies a card controls it, and the cell is framed in that player's colour. */
function markControl(cell, items) {
  const owners = new Set(items.slice(1).map((group) => (PYRAMID.exec(group.split("+")[0]) || [])[1]).filter(Boolean));
  if (owners.size !== 1) return;
  const [owner] = owners;
  cell.classList.add("controlled");
  cell.style.setProperty("--owner", owner);
  cell.title += ` (controlled by ${owner})`;
}

/* Pouches: a pile's height is the value of its top card, Ace 1 ... King 13 (a face-down top is
   not known yet). The cell is shaded darker the higher the pile, like a relief map. */
const HEIGHTS = "A23456789TJQK";

function pileHeight(items) {
  const top = items[items.length - 1] || "";
  const value = HEIGHTS.indexOf(top[0]);
  return /^[2-9TJQKA][SHDC]$/.test(top) ? value + 1 : null;
}

function heightNode(height) {
  return height === null
    ? el("span", {class: "height unknown", title: "face down: its height shows once it is revealed"}, "?")
    : el("span", {class: "height", title: `height ${height}: the top card's value`}, String(height));
}

/* A grid of places; ``size`` ({rows, cols}, 1-based "rNcM" keys) draws the empty cells of a known board. */
function drawGrid(name, cells, colours, size) {
  const positions = cells.map(([key]) => gridKey(key));
  const rc = cells.length && /^r\d+c\d+$/.test(cells[0][0]);
  const cols = positions.map((p) => p.col), rows = positions.map((p) => p.row);
  if (size) { cols.push(1, size.cols); rows.push(1, size.rows); }
  const minCol = Math.min(...cols), maxCol = Math.max(...cols), minRow = Math.min(...rows), maxRow = Math.max(...rows);
  const grid = el("div", {class: "grid", "data-group": name,
    style: `grid-template-columns: repeat(${maxCol - minCol + 1}, minmax(3.5rem, auto))`});
  const taken = new Set();
  const byKey = new Map();  // a place shared by several kinds (a token on a pile) is one cell
  cells.forEach(([key, items, kind], i) => {
    if (!byKey.has(key)) byKey.set(key, {position: positions[i], parts: []});
    byKey.get(key).parts.push([kind, items]);
  });
  for (const [key, {position: p, parts}] of byKey) {
    taken.add(`${p.row}:${p.col}`);
    const kinds = parts.map(([kind]) => kind);
    const cell = el("div", {class: `cell ${kinds.join(" ")}`, "data-cell": key, title: kinds.map((k) => `${k}/${key}`).join(", "),
      style: `grid-column: ${p.col - minCol + 1}; grid-row: ${p.row - minRow + 1}`});
    for (const [kind, items] of parts) {
      if (kind === "heap") {
        const height = pileHeight(items);
        cell.append(heightNode(height));
        if (height !== null) cell.style.background = `hsl(32, 42%, ${96 - height * 3.4}%)`;
      }
      if (kind === "board") markControl(cell, items);
      cell.append(placeNode(kind, key, items, colours));
    }
    grid.append(cell);
  }
  for (let row = minRow; row <= maxRow; row++) {
    for (let col = minCol; col <= maxCol; col++) {
      if (taken.has(`${row}:${col}`)) continue;
      const key = rc ? `r${row}c${col}` : `${col},${row}`;
      grid.append(el("div", {class: "cell empty", "data-place": `${cells[0][2]}/${key}`, title: `${name}/${key} (empty)`,
        style: `grid-column: ${col - minCol + 1}; grid-row: ${row - minRow + 1}`}));
    }
  }
  return el("div", {class: "group"}, el("h3", {}, name), grid);
}

/* Boards whose size the game's options give (Pungo's arena and roll grid), so empty cells show too. */
function knownSizes(options) {
  const sizes = {};
  for (const [group, option] of [["arena", "arena"], ["roll", "roll-grid"]]) {
    const m = /^(\d+)x(\d+)$/.exec((options || {})[option] || "");
    if (m) sizes[group] = {rows: Number(m[1]), cols: Number(m[2])};
  }
  return sizes;
}

function drawView(container, view, colours, options) {
  const sizes = knownSizes(options);
  const groups = new Map();
  for (const [place, items] of Object.entries(view)) {
    const slash = place.indexOf("/");
    let group = slash < 0 ? place : place.slice(0, slash);
    const key = slash < 0 ? "" : place.slice(slash + 1);
    const kind = group;
    if (group === "tokens" && Object.keys(view).some((p) => p.startsWith("heap/"))) group = "heap";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([key, items, kind]);
  }
  container.replaceChildren();
  for (const [name, entries] of groups) {
    if (entries.every(([key]) => gridKey(key))) {
      container.append(drawGrid(name, entries, colours, sizes[name]));
      continue;
    }
    const list = el("dl", {class: "places"});
    for (const [key, items, kind] of entries) {
      list.append(el("dt", {}, key ? `${kind} ${key}` : kind),
                  el("dd", {"data-place": key ? `${kind}/${key}` : kind}, items.length ? contentsNode(items, colours) : "empty"));
    }
    container.append(el("div", {class: "group"}, list));
  }
  if (!groups.size) container.append(el("p", {class: "muted"}, "Nothing on the table yet."));
}
