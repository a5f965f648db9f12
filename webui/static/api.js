/* Tableside: talking to the JSON API from a page. Plain JavaScript, nothing fetched from elsewhere. */
"use strict";

/* POST a JSON body; resolves to {ok, status, data}, where data.error says what went wrong. */
async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    credentials: "same-origin",
    body: JSON.stringify(body === undefined ? {} : body),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: `the server answered ${response.status}`}; }
  return {ok: response.ok, status: response.status, data: data};
}

async function getJSON(url) {
  const response = await fetch(url, {credentials: "same-origin"});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

/* An element with text and attributes: el("li", {class: "x"}, "text", child, ...). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}
