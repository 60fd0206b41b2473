// evlogic serve: the board in the browser.  Plain JavaScript, no build step;
// every figure comes from the JSON API (the same rules as the command line).
"use strict";

// Okabe-Ito colours (colour-blind safe), each with a pattern so that owners
// also read apart in greyscale.
const PLAYER_STYLES = [
  { fill: "#0072b2", ink: "#ffffff", pattern: null },
  { fill: "#d55e00", ink: "#ffffff", pattern: "hatch" },
  { fill: "#009e73", ink: "#ffffff", pattern: "dots" },
  { fill: "#cc79a7", ink: "#000000", pattern: "cross" },
  { fill: "#e69f00", ink: "#000000", pattern: "rows" },
  { fill: "#56b4e9", ink: "#000000", pattern: "columns" },
];
const UNCLAIMED = { fill: "#f2f2f2", ink: "#333333" };
const RADIUS = 30;
const MIN_PLAYERS = 1;  // a one-player table, as the command line scores it
const MAX_PLAYERS = 6;
const SVG_NS = "http://www.w3.org/2000/svg";
// The longest uploaded board a link carries (characters, compressed): a
// link past it needs the board file, and the page says so before copying.
const LINK_BOARD_LIMIT = 32000;

const state = {
  boardName: "usa",        // a catalog name, or the uploaded file's name
  inlineBoard: null,       // an uploaded board (inline mapping), or null
  boardLink: null,         // the uploaded board, compressed for the link, or null
  boardLinkSize: 0,        // its length, when over LINK_BOARD_LIMIT (then boardLink is null)
  pending: null,           // a link's position whose uploaded board is not here yet
  board: null,             // the board document (GET /api/boards/{name})
  rules: "standard",
  compare: "",
  players: [],             // [{name, home, states: [...]}]
  active: 0,
  focus: null,             // index of the focused player, or null
  homeMode: false,
  cursor: null,            // the tile the map's Tab stop is on (a state id)
};
const history = { past: [], future: [] };
let refreshCount = 0;

// --- the API ---------------------------------------------------------------

async function api(path, body, as = "json", method = undefined) {
  const options = body === undefined ? { method: method || "GET" } : {
    method: method || "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new Error(`cannot reach the evlogic server (${error.message})`);
  }
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const document = await response.json();
      if (document && document.error) message = document.error;
    } catch (_) { /* not JSON: keep the status line */ }
    throw new Error(message);
  }
  return as === "json" ? response.json() : response.text();
}

function showError(message) {
  // (a link's position waiting for its board file stays said until it comes)
  if (!message && state.pending) message = state.pending.message;
  const box = document.getElementById("error");
  box.textContent = message ? `evlogic: error: ${message}` : "";
  box.hidden = !message;
}

function notice(message) {
  document.getElementById("notice").textContent = message || "";
}

// --- the game as the API takes it ------------------------------------------

function gameBody() {
  return {
    board: state.inlineBoard || state.boardName,
    rules: state.rules,
    players: state.players.map((p) => ({ name: p.name, home: p.home, states: p.states })),
  };
}

// What the score requests send: the players with a home (a game file needs
// one for every player; the table lists the others as not scored yet).
function scoredBody() {
  const game = gameBody();
  return { ...game, players: game.players.filter((p) => p.home) };
}

function ownerOf(id) {
  return state.players.findIndex((p) => p.home === id || p.states.includes(id));
}

function homeOf(id) {
  return state.players.findIndex((p) => p.home === id);
}

// --- history, URL -------------------------------------------------------------

function snapshot() {
  return JSON.stringify({
    players: state.players, rules: state.rules, compare: state.compare,
  });
}

function record() {
  history.past.push(snapshot());
  if (history.past.length > 500) history.past.shift();
  history.future = [];
}

function restore(text) {
  const saved = JSON.parse(text);
  state.players = saved.players;
  state.rules = saved.rules;
  state.compare = saved.compare;
  state.active = Math.min(state.active, state.players.length - 1);
  if (state.focus !== null && state.focus >= state.players.length) state.focus = null;
}

function undo() {
  if (!history.past.length) return;
  history.future.push(snapshot());
  restore(history.past.pop());
  changed(false);
}

function redo() {
  if (!history.future.length) return;
  history.past.push(snapshot());
  restore(history.future.pop());
  changed(false);
}

function writeUrl() {
  const params = new URLSearchParams();
  params.set("board", state.boardName);
  params.set("rules", state.rules);
  if (state.compare) params.set("compare", state.compare);
  params.set("players", JSON.stringify(state.players));
  if (state.focus !== null) params.set("focus", String(state.focus));
  if (state.inlineBoard && state.boardLink) params.set("board_data", state.boardLink);
  history.replaceUrl = true;
  window.history.replaceState(null, "", `#${params.toString()}`);
}

function readUrl() {
  if (!window.location.hash) return null;
  const params = new URLSearchParams(window.location.hash.slice(1));
  try {
    const players = JSON.parse(params.get("players") || "null");
    if (!Array.isArray(players)) return null;
    return {
      board: params.get("board"),
      rules: params.get("rules") || "standard",
      compare: params.get("compare") || "",
      focus: params.has("focus") ? Number(params.get("focus")) : null,
      boardData: params.get("board_data"),
      players: players.map((p) => ({
        name: String(p.name), home: p.home || null, states: (p.states || []).map(String),
      })),
    };
  } catch (_) {
    return null;
  }
}

// An uploaded board travels in the link: its inline mapping as JSON, deflated
// (CompressionStream, no library) and in base64url.  Opened, it is checked by
// the server as an uploaded file is (POST /api/boards/parse).

function base64url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function packText(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

async function unpackText(code) {
  const stream = new Blob([fromBase64url(code)]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

async function packBoard(board) {
  state.boardLink = null;
  state.boardLinkSize = 0;
  try {
    const code = await packText(JSON.stringify(board.inline));
    if (code.length <= LINK_BOARD_LIMIT) state.boardLink = code;
    else state.boardLinkSize = code.length;
  } catch (_) {
    state.boardLinkSize = Infinity;  // no CompressionStream: the link needs the file
  }
}

// Before copying: does the link carry all it needs?
function linkNote() {
  const note = document.getElementById("copy-link-note");
  let text = "";
  if (state.inlineBoard && !state.boardLink) {
    const size = Number.isFinite(state.boardLinkSize)
      ? ` (${state.boardLinkSize.toLocaleString("en")} characters compressed, over ${LINK_BOARD_LIMIT.toLocaleString("en")})`
      : "";
    text = `The board is too large to carry in a link${size}: a copied link needs the file ${state.boardName}, uploaded again where it is opened.`;
  }
  note.textContent = text;
  note.hidden = !text;
  return text;
}

async function copyLink() {
  const needs = linkNote();
  const what = needs ? `Link copied. ${needs}` : "Link copied: it reopens this position.";
  try {
    await navigator.clipboard.writeText(window.location.href);
    notice(what);
  } catch (_) {
    notice(`Copy this link: ${window.location.href}${needs ? ` (${needs})` : ""}`);
  }
}

// --- clicks -----------------------------------------------------------------

function clickTile(id, event) {
  const player = state.players[state.active];
  if (!player) return;
  if (state.homeMode || event.shiftKey || !player.home) {  // a player's first tile: the home
    setHome(id);
    return;
  }
  const home = homeOf(id);
  if (home >= 0) {
    notice(`${id} is ${state.players[home].name}'s home: homes never change hands.`);
    return;
  }
  record();
  const owner = ownerOf(id);
  for (const p of state.players) p.states = p.states.filter((s) => s !== id);
  if (owner !== state.active) player.states.push(id);
  notice("");
  changed();
}

function setHome(id) {
  const player = state.players[state.active];
  const home = homeOf(id);
  if (home >= 0 && home !== state.active) {
    notice(`${id} is already ${state.players[home].name}'s home.`);
    return;
  }
  record();
  for (const p of state.players) p.states = p.states.filter((s) => s !== id);
  player.home = id;
  state.homeMode = false;  // Home mode sets one home
  notice(`${id} is ${player.name}'s home.`);
  changed();
}

// --- players ---------------------------------------------------------------

function renderPlayers() {
  const list = document.getElementById("players");
  list.replaceChildren();
  state.players.forEach((player, index) => {
    const item = document.createElement("li");
    item.dataset.player = player.name;
    if (index === state.active) item.classList.add("active");
    const style = PLAYER_STYLES[index];

    const pick = document.createElement("input");
    pick.type = "radio";
    pick.name = "active-player";
    pick.checked = index === state.active;
    pick.title = `make ${player.name} the active player (key ${index + 1})`;
    pick.setAttribute("aria-label", `${player.name} is the active player (key ${index + 1})`);
    pick.addEventListener("change", () => setActive(index));

    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = style.fill;

    const name = document.createElement("input");
    name.type = "text";
    name.value = player.name;
    name.setAttribute("aria-label", `name of player ${index + 1}`);
    name.addEventListener("change", () => rename(index, name.value));

    const home = document.createElement("span");
    home.textContent = player.home ? ` home ${player.home}` : " (no home yet)";

    const up = button("↑", `move ${player.name} up`, () => move(index, -1), index === 0);
    const down = button("↓", `move ${player.name} down`, () => move(index, 1),
      index === state.players.length - 1);
    const remove = button("✕", `remove ${player.name}`, () => removePlayer(index),
      state.players.length <= MIN_PLAYERS);
    item.append(pick, " ", swatch, name, home, " ", up, down, remove);
    list.append(item);
  });
  document.getElementById("add-player").disabled = state.players.length >= MAX_PLAYERS;
}

function button(label, title, action, disabled) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.title = title;
  element.setAttribute("aria-label", title);
  element.disabled = Boolean(disabled);
  element.addEventListener("click", action);
  return element;
}

function setActive(index) {
  if (index < 0 || index >= state.players.length) return;
  state.active = index;
  renderPlayers();
  renderActiveLine();
  notice(`${state.players[index].name} is the active player.`);
}

// Focusing a player (their name in the table) makes them the active player
// too: the tiles clicked on their diagram are theirs.  Again: unfocused.
function focusPlayer(index) {
  if (state.focus === index) {
    state.focus = null;
  } else {
    state.focus = index;
    state.active = index;
    renderPlayers();
    renderActiveLine();
  }
  writeUrl();
  refresh();
}

// Whose tiles a click gives, above the map.
function renderActiveLine() {
  const line = document.getElementById("active-line");
  const player = state.players[state.active];
  line.replaceChildren();
  line.classList.toggle("home-mode", Boolean(state.homeMode));
  if (!player) return;
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = PLAYER_STYLES[state.active].fill;
  const name = document.createElement("strong");
  name.textContent = player.name;
  const home = state.homeMode || !player.home;
  line.append(home ? "Next tile: the home of " : "Tiles go to ", swatch, name,
    home ? (state.homeMode ? " (Home mode)" : " (no home yet)") : " (the active player; keys 1–6 change it)");
}

function rename(index, name) {
  const clean = name.trim();
  if (!clean || state.players.some((p, i) => i !== index && p.name === clean)) {
    notice("A player needs a name of their own.");
    renderPlayers();
    return;
  }
  record();
  state.players[index].name = clean;
  changed();
}

function move(index, step) {
  const other = index + step;
  if (other < 0 || other >= state.players.length) return;
  record();
  const players = state.players;
  [players[index], players[other]] = [players[other], players[index]];
  if (state.active === index) state.active = other;
  else if (state.active === other) state.active = index;
  if (state.focus === index) state.focus = other;
  else if (state.focus === other) state.focus = index;
  changed();
}

function addPlayer() {
  if (state.players.length >= MAX_PLAYERS) return;
  record();
  let number = state.players.length + 1;
  while (state.players.some((p) => p.name === `Player ${number}`)) number += 1;
  state.players.push({ name: `Player ${number}`, home: null, states: [] });
  state.active = state.players.length - 1;
  changed();
}

function removePlayer(index) {
  if (state.players.length <= MIN_PLAYERS) return;
  record();
  state.players.splice(index, 1);
  state.active = Math.min(state.active, state.players.length - 1);
  if (state.focus === index) state.focus = null;
  else if (state.focus !== null && state.focus > index) state.focus -= 1;
  changed();
}

// --- the map ---------------------------------------------------------------

function centre([q, r]) {
  return [Math.sqrt(3) * RADIUS * (q + r / 2), 1.5 * RADIUS * r];
}

function hexagon(x, y) {
  const corners = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    corners.push(`${(x + RADIUS * Math.cos(angle)).toFixed(1)},${(y + RADIUS * Math.sin(angle)).toFixed(1)}`);
  }
  return corners.join(" ");
}

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function patterns(defs) {
  PLAYER_STYLES.forEach((style, index) => {
    if (!style.pattern) return;
    const pattern = svgElement("pattern", {
      id: `owner-${index}`, width: 8, height: 8, patternUnits: "userSpaceOnUse",
      patternTransform: style.pattern === "hatch" ? "rotate(45)" : "",
    });
    pattern.append(svgElement("rect", { width: 8, height: 8, fill: style.fill }));
    const mark = { stroke: "#000", "stroke-opacity": 0.4, "stroke-width": 2 };
    if (style.pattern === "hatch" || style.pattern === "columns") {
      pattern.append(svgElement("line", { x1: 0, y1: 0, x2: 0, y2: 8, ...mark }));
    } else if (style.pattern === "rows") {
      pattern.append(svgElement("line", { x1: 0, y1: 4, x2: 8, y2: 4, ...mark }));
    } else if (style.pattern === "cross") {
      pattern.append(svgElement("line", { x1: 0, y1: 0, x2: 8, y2: 8, ...mark }));
      pattern.append(svgElement("line", { x1: 8, y1: 0, x2: 0, y2: 8, ...mark }));
    } else if (style.pattern === "dots") {
      pattern.append(svgElement("circle", { cx: 4, cy: 4, r: 1.6, fill: "#000", "fill-opacity": 0.5 }));
    }
    defs.append(pattern);
  });
}

function ownerFill(index) {
  const style = PLAYER_STYLES[index];
  return style.pattern ? `url(#owner-${index})` : style.fill;
}

// The ownership map: every player's states in their colour, homes marked.
function drawOwners() {
  const states = state.board.states;
  const ids = Object.keys(states).sort();
  const centres = Object.fromEntries(ids.map((id) => [id, centre(states[id].hex)]));
  const xs = ids.map((id) => centres[id][0]);
  const ys = ids.map((id) => centres[id][1]);
  const pad = RADIUS + 12;
  const left = Math.min(...xs) - pad;
  const top = Math.min(...ys) - pad;
  const width = Math.max(...xs) - Math.min(...xs) + 2 * pad;
  const height = Math.max(...ys) - Math.min(...ys) + 2 * pad;
  const svg = svgElement("svg", {
    viewBox: `${left} ${top} ${width} ${height}`, role: "img",
    "font-family": "Helvetica, Arial, sans-serif",
  });
  svg.append(svgElement("title", {}, `${state.board.title}: who holds what`));
  const defs = svgElement("defs");
  patterns(defs);
  svg.append(defs);
  svg.append(svgElement("rect", { x: left, y: top, width, height, fill: "#ffffff" }));
  const tiles = svgElement("g", { class: "tiles" });
  for (const id of ids) {
    const info = states[id];
    const owner = ownerOf(id);
    const home = homeOf(id) >= 0;
    const [x, y] = centres[id];
    const tile = svgElement("g", {
      class: "tile", "data-state": id,
      "data-owner": owner >= 0 ? state.players[owner].name : "",
      "data-role": owner < 0 ? "unclaimed" : (home ? "home" : "owned"),
    });
    const who = owner >= 0 ? `${state.players[owner].name}${home ? "'s home" : ""}` : "unclaimed";
    tile.append(svgElement("title", {}, `${info.name} (${id}): ${info.ev} EV${info.swing ? ", swing" : ""}: ${who}`));
    tile.append(svgElement("polygon", {
      points: hexagon(x, y), fill: owner >= 0 ? ownerFill(owner) : UNCLAIMED.fill,
      stroke: home ? "#000" : "#555", "stroke-width": home ? 4 : 1,
    }));
    const ink = owner >= 0 ? PLAYER_STYLES[owner].ink : UNCLAIMED.ink;
    const label = home ? `⌂ ${id}` : id;
    tile.append(svgElement("text", {
      x, y: y - 2, fill: ink, "text-anchor": "middle", "font-size": 13, "font-weight": "bold",
    }, label));
    tile.append(svgElement("text", {
      x, y: y + 13, fill: ink, "text-anchor": "middle", "font-size": 10,
    }, `${info.ev}${info.swing ? " swing" : ""}`));
    tiles.append(tile);
  }
  svg.append(tiles);
  return svg;
}

// --- the map by keyboard ---------------------------------------------------------
//
// The map is one Tab stop (a roving tabindex: the tile last focused, or the
// top left one).  The arrow keys move by hex geometry, not by the board's
// borders: to the nearest tile in that direction on the map as drawn (within
// 60 degrees of it), so islands and states with no border are reached too.
// Enter or Space claims the tile as a click does; Shift+Enter sets the home.

const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
let keyboardUsed = false;  // the last input was a key: focus shows its ring

function tileCentre(tile) {
  const numbers = tile.querySelector("polygon").getAttribute("points").trim()
    .split(/[\s,]+/).map(Number);
  let x = 0;
  let y = 0;
  for (let i = 0; i < numbers.length; i += 2) {
    x += numbers[i];
    y += numbers[i + 1];
  }
  return [(2 * x) / numbers.length, (2 * y) / numbers.length];
}

// The tile an arrow moves to from `from`, or null: within 60° of the arrow,
// the nearest (a little less near for being off the line).  On a hex grid:
// Left and Right, the neighbour in the row; Up and Down, one of the two in
// the row above or below, the tie going clockwise, so the opposite arrow
// leads back.
function tileToward(tiles, from, [dx, dy]) {
  const [x, y] = from.centre;
  let best = null;
  for (const tile of tiles) {
    if (tile === from) continue;
    const vx = tile.centre[0] - x;
    const vy = tile.centre[1] - y;
    const along = vx * dx + vy * dy;
    const across = dx * vy - dy * vx;  // > 0: clockwise of the arrow
    if (along <= 0 || Math.abs(across) > along * Math.sqrt(3) - 0.5) continue;  // under 60°
    const cost = Math.hypot(vx, vy) + Math.abs(across) / 2;  // near, then straight ahead
    if (!best || cost < best.cost - 0.5 || (cost < best.cost + 0.5 && across > best.across)) {
      best = { tile, cost, across };
    }
  }
  return best ? best.tile.element : null;
}

function tileLabel(tile) {
  const title = tile.querySelector("title");
  const gain = tile.dataset.gain;
  const worth = gain === undefined ? "" : `; won, ${signed(Number(gain))} for the focused player`;
  return `${title ? title.textContent : tile.dataset.state}${worth}`;
}

function showRing(svg, tile) {
  const ring = svg.querySelector(".focus-ring");
  if (!ring) return;
  const points = tile.querySelector("polygon").getAttribute("points");
  for (const line of ring.querySelectorAll("polygon")) line.setAttribute("points", points);
  svg.classList.toggle("ringed", keyboardUsed);
}

function showMap(svg) {
  const map = document.getElementById("map");
  const held = map.contains(document.activeElement) && document.activeElement.dataset
    ? document.activeElement.dataset.state : undefined;  // focus survives the redraw
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-describedby", "map-hint");
  const title = svg.querySelector(":scope > title");
  svg.setAttribute("aria-label", `The board${title ? `: ${title.textContent}` : ""}`);
  const ring = svgElement("g", { class: "focus-ring", "aria-hidden": "true" });
  ring.append(
    svgElement("polygon", { fill: "none", stroke: "#000000", "stroke-width": 8, "stroke-linejoin": "round" }),
    svgElement("polygon", { fill: "none", stroke: "#ffffff", "stroke-width": 3, "stroke-linejoin": "round" }),
  );
  svg.append(ring);
  map.replaceChildren(svg);
  const elements = [...svg.querySelectorAll("g.tile[data-state]")];
  const tiles = elements.map((element) => ({ element, centre: tileCentre(element) }));
  for (const tile of tiles) tile.element.centre = tile.centre;
  const ids = new Set(elements.map((e) => e.dataset.state));
  if (!ids.has(state.cursor)) {  // the top left tile
    const first = [...tiles].sort((a, b) => a.centre[1] - b.centre[1] || a.centre[0] - b.centre[0])[0];
    state.cursor = first ? first.element.dataset.state : null;
  }
  for (const tile of tiles) {
    const element = tile.element;
    element.setAttribute("role", "button");
    element.setAttribute("tabindex", element.dataset.state === state.cursor ? "0" : "-1");
    element.setAttribute("aria-label", tileLabel(element));
    element.addEventListener("click", (event) => clickTile(element.dataset.state, event));
    element.addEventListener("focus", () => {
      for (const other of elements) other.setAttribute("tabindex", other === element ? "0" : "-1");
      state.cursor = element.dataset.state;
      showRing(svg, element);
    });
    element.addEventListener("blur", () => svg.classList.remove("ringed"));
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        if (!event.repeat) clickTile(element.dataset.state, event);
      } else if (ARROWS[event.key] && !event.altKey && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        const next = tileToward(tiles, tile, ARROWS[event.key]);
        if (next) next.focus();
      }
    });
  }
  if (held !== undefined) {
    const again = elements.find((e) => e.dataset.state === held);
    if (again) again.focus();
  }
}

// What-if gains on the focused player's map: "+N" on each tile they could win.
function markGains(svg, whatIf) {
  for (const entry of whatIf) {
    const tile = svg.querySelector(`g.tile[data-state="${CSS.escape(entry.state)}"]`);
    if (!tile) continue;
    tile.dataset.gain = String(entry.gain);
    tile.setAttribute("aria-label", tileLabel(tile));
    const box = tile.querySelector("polygon").getBBox();
    tile.append(svgElement("text", {
      class: "gain", x: box.x + box.width / 2, y: box.y + 11, "text-anchor": "middle",
      "font-size": 11, fill: entry.gain > 0 ? "#004d00" : "#7a0000",
      stroke: "#ffffff", "stroke-width": 3, "paint-order": "stroke",
    }, `${entry.gain > 0 ? "+" : ""}${entry.gain}`));
  }
}

// --- the score table ---------------------------------------------------------

function signed(number) {
  return number > 0 ? `+${number}` : String(number);
}

const COLUMNS = ["Player", "Home", "States", "Face EV", "Region", "Bonus", "Siege", "Penalty",
  "Net bonus", "Total"];

// The table lists every player in seat order: those with a home as the
// report scores them (report: the `score` report of those, or null when
// none has one), the others as not scored yet.
function renderScore(report, second) {
  const head = document.querySelector("#score thead");
  const body = document.querySelector("#score tbody");
  const columns = [...COLUMNS];
  if (second) columns.push(`Total (${second.rules})`, "Difference");
  head.replaceChildren(row(columns.map((text, i) => {
    const th = cell("th", text, i >= 2 && i !== 4 && i !== 6);
    th.scope = "col";
    return th;
  })));
  body.replaceChildren();
  state.players.forEach((player, index) => {
    const at = report ? report.players.findIndex((p) => p.name === player.name) : -1;
    const line = at >= 0
      ? scoredRow(report, second, at, index)
      : unscoredRow(player, index, columns.length);
    line.dataset.player = player.name;
    if (state.focus === index && at >= 0) line.classList.add("focused");
    line.addEventListener("click", () => (at >= 0 ? focusPlayer(index) : setActive(index)));
    body.append(line);
  });
}

function scoredRow(report, second, at, index) {
  const player = report.players[at];
  const values = [
    player.name, player.home, String(player.states.length), String(player.face_ev),
    player.region.length ? `${player.region.length}: ${player.region.join(" ")}` : "-",
    signed(player.region_bonus), player.siege.length ? player.siege.join(" ") : "-",
    signed(-player.siege_penalty), signed(player.net_bonus), String(player.total),
  ];
  if (second) {
    const other = second.players[at].total;
    values.push(String(other), signed(other - player.total));
  }
  const line = row(values.map((text, i) => {
    if (i === 0) {
      const focused = state.focus === index;
      return nameCell(index, player.name, focused,
        focused ? `stop explaining ${player.name}` : `explain ${player.name}'s score; they become the active player`);
    }
    const element = cell("td", text, i >= 2 && i !== 4 && i !== 6);
    if (i === 9) element.classList.add("total");
    if (i === 10) element.classList.add("total-b");  // under the second rule set
    return element;
  }));
  if (report.winners.includes(player.name)) line.classList.add("winner");
  if (second && second.winners.includes(player.name)) line.classList.add("winner-b");
  return line;
}

function unscoredRow(player, index, width) {
  const name = nameCell(index, player.name, null, `make ${player.name} the active player, to place their home`);
  const what = document.createElement("td");
  what.colSpan = width - 1;
  what.className = "unscored";
  const held = player.states.length
    ? `; holds ${player.states.join(" ")}, not counted until then` : "";
  what.textContent = `no home yet: not scored${held}`;
  const line = row([name, what]);
  line.classList.add("no-home");
  return line;
}

// A player's name: a button (Tab reaches it; Enter or a click focuses them).
function nameCell(index, name, pressed, title) {
  const element = document.createElement("th");
  element.scope = "row";
  element.className = "name";
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = PLAYER_STYLES[index].fill;
  const focus = document.createElement("button");
  focus.type = "button";
  focus.className = "focus-player";
  focus.textContent = name;
  focus.title = title;
  if (pressed !== null) focus.setAttribute("aria-pressed", String(pressed));
  element.append(swatch, focus);
  return element;
}

function renderStatus(report, second) {
  const status = document.getElementById("status");
  const missing = state.players.filter((p) => !p.home).map((p) => p.name);
  const waiting = missing.length
    ? `Set a home for ${missing.join(", ")}: pick the player (keys 1–6), then click a tile.` : "";
  if (!report) {
    status.textContent = waiting;
    status.classList.remove("final");
    return;
  }
  const where = report.final
    ? "final"
    : `projection, ${report.states_won} of ${report.game_end} states won`;
  const among = missing.length ? " (of those with a home)" : "";
  let text = `${report.board}, ${report.rules} rules: ${where}. Winner${among}: ${report.winners.join(", ")}`;
  if (second) text += ` · under ${second.rules}: ${second.winners.join(", ")}`;
  if (waiting) text += `. ${waiting}`;
  status.textContent = text;
  status.classList.toggle("final", report.final && !missing.length);
}

function row(cells) {
  const element = document.createElement("tr");
  element.append(...cells);
  return element;
}

function cell(tag, text, number) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (number) element.classList.add("number");
  return element;
}

// --- the explanation -----------------------------------------------------------

// What `evlogic explain` shows: the face, the core and the states that
// joined, the region's size and bonus, the siege's arithmetic, the total;
// `score` is the player's row of the score report (face EV, region).
function renderExplanation(explanation, score) {
  const panel = document.getElementById("explain");
  panel.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = `Explanation: ${explanation.player} (home ${explanation.home}): total ${explanation.total} EV`;
  panel.append(title);
  const list = document.createElement("ul");
  const line = (text, parent = list) => {
    const item = document.createElement("li");
    item.textContent = text;
    parent.append(item);
    return item;
  };
  const sublist = (item) => {
    const inner = document.createElement("ul");
    item.append(inner);
    return inner;
  };
  line(`Face EV: ${score.face_ev}`);
  let core;
  if (explanation.core.length) {
    const [home, a, b] = explanation.core;
    core = line(`Core: ${home} + ${a} + ${b}: ${a} and ${b} both border ${home} and each other.`);
  } else {
    core = line(`Core: none. A core needs two owned states that border ${explanation.home} and each other.`);
  }
  if (explanation.joins.length) {
    const joins = sublist(core);
    for (const join of explanation.joins) {
      line(`+ ${join.state} joins: touches ${join.links.join(", ") || "nothing"}`, joins);
    }
  }
  const region = score.region.length
    ? line(`Region: ${score.region.length} states, bonus ${signed(explanation.region_bonus)}`)
    : line("Region: none, bonus 0");
  if (explanation.excluded.length) {
    const left = sublist(region);
    for (const state of explanation.excluded) {
      const touches = state.links.length === 1
        ? `touches only ${state.links[0]}`
        : state.links.length ? `touches ${state.links.join(", ")}` : "touches no region state";
      line(`− ${state.state} left out: ${touches}; needs ${state.needed}`, left);
    }
  }
  if (explanation.siege.length) {
    const siege = sublist(line("Siege:"));
    for (const sieged of explanation.siege) {
      line(`${sieged.state} held by ${sieged.owner}: −${sieged.penalty}`, siege);
    }
    const floor = explanation.region_bonus < explanation.siege_penalty ? " (floored at 0)" : "";
    line(`bonus ${signed(explanation.region_bonus)} − ${explanation.siege_penalty} = ` +
      `${signed(explanation.net_bonus)}${floor}`, siege);
  } else {
    line("Siege: none");
  }
  const net = explanation.net_bonus;
  line(`Total: ${score.face_ev} face ${net < 0 ? "−" : "+"}${Math.abs(net)} net bonus = ` +
    `${explanation.total} EV`).classList.add("total");
  panel.append(list);

  // Every what-if, strongest first, as `explain --format json` lists them.
  const options = explanation.what_if;
  document.getElementById("next-heading").textContent = options.length
    ? `Where to play next: all ${options.length} states ${explanation.player} could still win, best first`
    : "Where to play next";
  const next = document.getElementById("next");
  next.replaceChildren();
  for (const entry of options) {
    const item = document.createElement("li");
    item.dataset.state = entry.state;
    const from = entry.holder ? ` from ${entry.holder}` : "";
    const reasons = entry.reasons.map(reasonText).join("; ") || "no change";
    item.textContent = `${entry.state}${from}: ${signed(entry.gain)} (${reasons})`;
    next.append(item);
  }
}

// A what-if reason in the page's words: the "4 -> 5" arrow is one
// character, so a line never breaks inside it.
function reasonText(reason) {
  return reason.replaceAll(" -> ", " → ");
}

function clearExplanation() {
  const panel = document.getElementById("explain");
  const title = document.createElement("h2");
  title.textContent = "Explanation";
  const placeholder = document.createElement("p");
  placeholder.className = "placeholder";
  placeholder.textContent = "Click a player's name in the score table to see why their score is what it is.";
  panel.replaceChildren(title, placeholder);
  document.getElementById("next-heading").textContent = "Where to play next";
  document.getElementById("next").replaceChildren();
}

// --- refreshing ----------------------------------------------------------------

function changed(recorded = true) {
  void recorded;
  renderPlayers();
  writeUrl();
  updateButtons();
  refresh();
}

function updateButtons() {
  document.getElementById("undo").disabled = !history.past.length;
  document.getElementById("redo").disabled = !history.future.length;
  document.getElementById("home-mode").setAttribute("aria-pressed", String(state.homeMode));
  document.getElementById("rules-select").value = state.rules;
  document.getElementById("compare-select").value = state.compare;
  renderActiveLine();
  linkNote();
}

async function refresh() {
  const mine = ++refreshCount;
  const current = () => mine === refreshCount;
  const game = scoredBody();
  if (!game.players.length) {  // nobody to score yet
    showMap(drawOwners());
    renderScore(null, null);
    renderStatus(null, null);
    clearExplanation();
    document.body.dataset.ready = "true";
    return;
  }
  document.body.dataset.ready = "false";
  // The table first: the scores are asked for first and shown as soon as they
  // come; a focused player's explanation and diagram (what-if included: the
  // slower answers) follow.  Unfocused, the map shows owners only, which
  // needs no answer: it is drawn while the scores are on their way.
  const chosen = state.focus !== null ? state.players[state.focus] : null;
  const focused = Boolean(chosen && chosen.home);
  const scores = Promise.all([
    api("/api/score", game),
    state.compare ? api("/api/score", { ...game, rules: state.compare }) : null,
  ]);
  let focus = null;
  if (focused) {
    const player = chosen.name;
    focus = Promise.all([
      api("/api/explain", { ...game, player }),
      api("/api/diagram", { ...game, player }, "text"),
    ]);
    focus.catch(() => {}); // (its error is shown where it is awaited)
  } else {
    showMap(drawOwners());
  }
  try {
    const [report, second] = await scores;
    if (!current()) return;
    showError("");
    renderScore(report, second);
    renderStatus(report, second);
    if (focused) {
      const [explanation, svgText] = await focus;
      if (!current()) return;
      const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
      const imported = document.importNode(svg, true);
      showMap(imported);
      markGains(imported, explanation.what_if);
      const score = report.players.find((p) => p.name === chosen.name);
      renderExplanation(explanation, score);
    } else {
      clearExplanation();
    }
  } catch (error) {
    if (!current()) return;
    showError(error.message);
    showMap(drawOwners());
  } finally {
    if (current()) document.body.dataset.ready = "true";
  }
}

// --- balance: many simulated games (POST /api/balance, then its progress) -----------

const balance = { id: null, timer: null };
const BALANCE_POLL_MS = 400;

function balanceError(message) {
  const box = document.getElementById("balance-error");
  box.textContent = message ? `evlogic: error: ${message}` : "";
  box.hidden = !message;
}

function balanceBody() {
  const rules = [...document.querySelectorAll("#balance-rules input:checked")].map((i) => i.value);
  const number = (id) => {
    const text = document.getElementById(id).value.trim();
    return /^-?\d+$/.test(text) ? Number(text) : text;  // the server words a bad value
  };
  const body = {
    board: state.inlineBoard || state.boardName,
    rules,
    agents: document.getElementById("balance-agents").value.trim(),
    players: number("balance-players"),
    order: document.getElementById("balance-order").value,
    games: number("balance-games"),
    seed: number("balance-seed"),
  };
  const moves = document.getElementById("balance-moves").value;
  if (moves) body.moves = moves;  // else each rule set's own
  return body;
}

// running: Run is off; stoppable: the server has the run (Stop can name it).
function balanceRunning(running, stoppable = running) {
  document.getElementById("balance-run").disabled = running;
  document.getElementById("balance-stop").disabled = !stoppable;
  document.getElementById("balance").dataset.running = String(running);
}

function showBalanceProgress(run) {
  document.getElementById("balance-progress").hidden = false;
  const bar = document.getElementById("balance-bar");
  bar.max = run.total;
  bar.value = run.done;
  const words = {
    queued: "Waiting for a free worker…",
    running: run.done < run.total
      ? `Played ${run.done} of ${run.total} games…`
      : `Played all ${run.total} games; summing up the report…`,
    done: `Done: ${run.total} games (${run.games} a rule set).`,
    failed: "Stopped by an error.",
    cancelled: `Stopped after ${run.done} of ${run.total} games.`,
  };
  document.getElementById("balance-status").textContent = words[run.status] || run.status;
}

async function startBalance(event) {
  event.preventDefault();
  balanceError("");
  const body = balanceBody();
  if (!body.rules.length) {
    balanceError("pick at least one rule set");
    return;
  }
  balanceRunning(true, false);
  document.getElementById("balance-results").replaceChildren();
  try {
    const run = await api("/api/balance", body);
    balance.id = run.id;
    balanceRunning(true);
    showBalanceProgress(run);
    pollBalance();
  } catch (error) {
    balanceRunning(false);
    balanceError(error.message);
  }
}

async function pollBalance() {
  const id = balance.id;
  let run;
  try {
    run = await api(`/api/balance/${encodeURIComponent(id)}`);
  } catch (error) {
    if (id !== balance.id) return;
    balanceRunning(false);
    balanceError(error.message);
    return;
  }
  if (id !== balance.id) return;  // a newer run took over
  showBalanceProgress(run);
  if (run.status === "queued" || run.status === "running") {
    balance.timer = setTimeout(pollBalance, BALANCE_POLL_MS);
    return;
  }
  balanceRunning(false);
  if (run.status === "failed") balanceError(run.error);
  if (run.status === "done") showBalanceResults(run);
}

async function stopBalance() {
  if (!balance.id) return;
  clearTimeout(balance.timer);
  try {
    const run = await api(`/api/balance/${encodeURIComponent(balance.id)}`, undefined, "json", "DELETE");
    showBalanceProgress(run);
  } catch (error) {
    balanceError(error.message);
  }
  balance.id = null;
  balanceRunning(false);
}

function chartFigure(chart, name) {
  const figure = document.createElement("figure");
  figure.dataset.chart = name;
  const svg = new DOMParser().parseFromString(chart.svg, "image/svg+xml").documentElement;
  figure.append(document.importNode(svg, true));
  const caption = document.createElement("figcaption");
  caption.textContent = chart.description;
  figure.append(caption);
  return figure;
}

function heading(level, text) {
  const element = document.createElement(`h${level}`);
  element.textContent = text;
  return element;
}

function percent(value) {
  return `${(100 * value).toFixed(1)}%`;
}

function rateText(entry) {
  return `${percent(entry.rate)} [${percent(entry.low)}, ${percent(entry.high)}]`;
}

function balanceSummary(report) {
  const table = document.createElement("table");
  table.id = "balance-summary";
  const caption = document.createElement("caption");
  caption.textContent = `At a glance, with 95% intervals (moves: ${report.moves_model})`;
  table.append(caption);
  const head = document.createElement("thead");
  head.append(row(["Rule set", "Moves", "First mover's advantage", "Bonus decides",
    "Siege decides", "Mean total"].map((text, i) => cell("th", text, i > 1))));
  const body = document.createElement("tbody");
  for (const set of report.rule_sets) {
    const first = set.first_seat_advantage;
    const points = (v) => `${v >= 0 ? "+" : ""}${(100 * v).toFixed(1)}`;
    const total = set.mean.total;
    body.append(row([
      set.rules,
      set.moves_model,
      `${points(first.value)} points [${points(first.low)}, ${points(first.high)}]`,
      rateText(set.bonus_decides),
      rateText(set.siege_decides),
      `${total.value.toFixed(1)} [${total.low.toFixed(1)}, ${total.high.toFixed(1)}]`,
    ].map((text, i) => cell(i ? "td" : "th", text, i > 1))));
  }
  table.append(head, body);
  return table;
}

function showBalanceResults(run) {
  const results = document.getElementById("balance-results");
  const { report, charts } = run;
  const link = document.createElement("p");
  const open = document.createElement("a");
  open.href = run.page;
  open.target = "_blank";
  open.rel = "noopener";
  open.textContent = "Open the whole report as a page (every table)";
  const save = document.createElement("a");
  save.href = run.page;
  save.download = "balance.html";
  save.textContent = "download it";
  link.append(open, " or ", save, " (it opens offline).");
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.setAttribute("role", "region");  // (it may scroll sideways: a Tab stop, for the arrow keys)
  scroll.setAttribute("aria-label", "balance at a glance");
  scroll.tabIndex = 0;
  scroll.append(balanceSummary(report));
  results.replaceChildren(
    scroll,
    link,
    heading(3, "Win rate by seat"),
    chartFigure(charts.seats, "seats"),
    heading(3, "Final totals"),
    chartFigure(charts.totals, "totals"),
  );
  for (const set of charts.rule_sets) {
    results.append(heading(3, `${set.rules}: win rate by home, and how early each state is won`));
    const maps = document.createElement("div");
    maps.className = "balance-maps";
    maps.append(chartFigure(set.homes, "homes"), chartFigure(set.turns, "turns"));
    results.append(maps);
  }
}

function fillBalanceRules(rules) {
  const box = document.getElementById("balance-rules");
  rules.forEach((rule, index) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = rule.name;
    input.checked = index === 0;
    label.append(input, ` ${rule.name}`);
    box.append(label);
  });
}

// --- boards, rule sets, files ----------------------------------------------------

async function loadBoard(name) {
  state.board = await api(`/api/boards/${encodeURIComponent(name)}`);
  state.boardName = name;
  state.inlineBoard = null;
  state.boardLink = null;
  state.boardLinkSize = 0;
}

// An uploaded board (POST /api/boards/parse's answer), named by its file.
async function useUploadedBoard(board, name) {
  state.board = board;
  state.boardName = name;
  state.inlineBoard = board.inline;
  await packBoard(board);
  const select = document.getElementById("board-select");
  let option = [...select.options].find((o) => o.value === name);
  if (!option) {
    option = new Option(`${board.title} (uploaded)`, name);
    select.append(option);
  }
  select.value = name;
}

// A link's position, once its board is loaded.
function usePosition(position) {
  state.rules = position.rules || "standard";
  state.compare = position.compare || "";
  state.players = position.players.map((p) => ({ name: p.name, home: p.home, states: p.states || [] }));
  const focus = position.focus;
  state.focus = Number.isInteger(focus) && focus >= 0 && focus < state.players.length ? focus : null;
  state.active = state.focus === null ? 0 : state.focus;
}

function resetPosition() {
  for (const p of state.players) {
    p.home = null;
    p.states = [];
  }
}

async function chooseBoard(name) {
  try {
    record();
    await loadBoard(name);
    resetPosition();
    showError("");
    changed();
  } catch (error) {
    showError(error.message);
  }
}

async function uploadBoard(file) {
  try {
    const text = await file.text();
    const board = await api("/api/boards/parse", { yaml: text, filename: file.name });
    record();
    await useUploadedBoard(board, file.name);
    resetPosition();
    if (state.pending && state.pending.board === file.name) {  // the board a link needed
      usePosition(state.pending);
      notice(`${file.name}: the link's position is reopened.`);
    }
    state.pending = null;
    showError("");
    changed();
  } catch (error) {
    showError(error.message);
  }
}

async function loadGameText(text, filename) {
  try {
    const game = await api("/api/games/parse", { yaml: text, filename });
    record();
    if (typeof game.board === "string" && game.board !== state.boardName) await loadBoard(game.board);
    state.rules = typeof game.rules === "string" ? game.rules : state.rules;
    state.players = game.players.map((p) => ({ name: p.name, home: p.home, states: p.states }));
    state.active = 0;
    state.focus = null;
    document.getElementById("board-select").value = state.boardName;
    showError("");
    changed();
  } catch (error) {
    showError(error.message);
  }
}

async function download() {
  try {
    const body = { game: gameBody() };
    if (state.inlineBoard) body.board_file = state.boardName;
    const text = await api("/api/games/yaml", body, "text");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
    link.download = "game.yaml";
    document.body.append(link);
    link.click();
    link.remove();
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

// The board a link names: carried in it (an uploaded board), or one the
// server knows.  False, with the reason shown, when neither.
async function openLinkedBoard(position) {
  const name = position.board;
  if (position.boardData) {
    try {
      const text = await unpackText(position.boardData);
      const board = await api("/api/boards/parse", { yaml: text, filename: name });
      await useUploadedBoard(board, name);
      return true;
    } catch (error) {
      state.pending = { ...position, message: `this link's board ${name} cannot be read from ` +
        `the link (${error.message}); upload ${name} (Upload board…) to reopen the position` };
      showError("");
      return false;
    }
  }
  try {
    await loadBoard(name);
    return true;
  } catch (error) {
    state.pending = { ...position, message: `${error.message}. This link's board ${name} is ` +
      `not on this server: it was uploaded from a file; upload ${name} (Upload board…) to ` +
      "reopen the position" };
    showError("");
    return false;
  }
}

async function start() {
  try {
    const [boards, rules, initial] = await Promise.all([
      api("/api/boards"), api("/api/rules"), api("/api/start"),
    ]);
    const boardSelect = document.getElementById("board-select");
    for (const board of boards) boardSelect.append(new Option(board.title, board.name));
    for (const id of ["rules-select", "compare-select"]) {
      const select = document.getElementById(id);
      for (const rule of rules) select.append(new Option(rule.name, rule.name));
    }
    fillBalanceRules(rules);
    const fromUrl = readUrl();
    if (fromUrl && fromUrl.board && !(await openLinkedBoard(fromUrl))) {
      await loadBoard(initial.board);  // the link's board is not here: say which file it needs
      usePosition(initial);
    } else {
      if (!fromUrl || !fromUrl.board) await loadBoard(initial.board);
      usePosition(fromUrl || initial);
    }
    if (!state.inlineBoard) boardSelect.value = state.boardName;
  } catch (error) {
    showError(error.message);
    return;
  }
  wire();
  changed();
}

function wire() {
  document.getElementById("board-select").addEventListener("change", (e) => {
    if (e.target.value !== state.boardName) chooseBoard(e.target.value);
  });
  document.getElementById("rules-select").addEventListener("change", (e) => {
    record();
    state.rules = e.target.value;
    changed();
  });
  document.getElementById("compare-select").addEventListener("change", (e) => {
    record();
    state.compare = e.target.value;
    changed();
  });
  document.getElementById("board-upload").addEventListener("change", (e) => {
    if (e.target.files.length) uploadBoard(e.target.files[0]);
    e.target.value = "";
  });
  document.getElementById("game-upload").addEventListener("change", async (e) => {
    if (e.target.files.length) {
      const file = e.target.files[0];
      await loadGameText(await file.text(), file.name);
    }
    e.target.value = "";
  });
  document.getElementById("paste-open").addEventListener("click", () => {
    document.getElementById("paste-dialog").showModal();
  });
  document.getElementById("paste-load").addEventListener("click", () => {
    loadGameText(document.getElementById("paste-text").value, "pasted game");
  });
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("redo").addEventListener("click", redo);
  document.getElementById("home-mode").addEventListener("click", () => {
    state.homeMode = !state.homeMode;
    updateButtons();
  });
  // The map's focus ring shows for keyboard use, not after a click.
  document.addEventListener("keydown", () => { keyboardUsed = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardUsed = false; }, true);
  document.getElementById("download").addEventListener("click", download);
  document.getElementById("copy-link").addEventListener("click", copyLink);
  document.getElementById("add-player").addEventListener("click", addPlayer);
  document.getElementById("balance-form").addEventListener("submit", startBalance);
  document.getElementById("balance-stop").addEventListener("click", stopBalance);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    if (event.key >= "1" && event.key <= "6" && !event.ctrlKey && !event.metaKey) {
      setActive(Number(event.key) - 1);
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      if (event.shiftKey) redo(); else undo();
    } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "y") {
      event.preventDefault();
      redo();
    } else if (event.key.toLowerCase() === "h" && !event.ctrlKey && !event.metaKey) {
      state.homeMode = !state.homeMode;
      updateButtons();
    }
  });
}

start();
