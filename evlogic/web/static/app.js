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
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 6;
const SVG_NS = "http://www.w3.org/2000/svg";

const state = {
  boardName: "usa",        // a catalog name, or the uploaded file's name
  inlineBoard: null,       // an uploaded board (inline mapping), or null
  board: null,             // the board document (GET /api/boards/{name})
  rules: "standard",
  compare: "",
  players: [],             // [{name, home, states: [...]}]
  active: 0,
  focus: null,             // index of the focused player, or null
  homeMode: false,
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

function ready() {
  return state.players.length > 0 && state.players.every((p) => p.home);
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
      players: players.map((p) => ({
        name: String(p.name), home: p.home || null, states: (p.states || []).map(String),
      })),
    };
  } catch (_) {
    return null;
  }
}

// --- clicks -----------------------------------------------------------------

function clickTile(id, event) {
  const player = state.players[state.active];
  if (!player) return;
  if (state.homeMode || event.shiftKey) {
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
  notice("");
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
    home.textContent = player.home ? ` home ${player.home}` : " (no home yet: shift-click a tile)";

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
  notice(`${state.players[index].name} is the active player.`);
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

function showMap(svg) {
  const map = document.getElementById("map");
  map.replaceChildren(svg);
  for (const tile of svg.querySelectorAll("g.tile[data-state]")) {
    tile.addEventListener("click", (event) => clickTile(tile.dataset.state, event));
  }
}

// What-if gains on the focused player's map: "+N" on each tile they could win.
function markGains(svg, whatIf) {
  for (const entry of whatIf) {
    const tile = svg.querySelector(`g.tile[data-state="${CSS.escape(entry.state)}"]`);
    if (!tile) continue;
    tile.dataset.gain = String(entry.gain);
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

function renderScore(report, second) {
  const head = document.querySelector("#score thead");
  const body = document.querySelector("#score tbody");
  const columns = ["Player", "Home", "States", "Face EV", "Region", "Bonus", "Siege",
    "Penalty", "Net bonus", "Total"];
  if (second) columns.push(`Total (${second.rules})`, "Difference");
  head.replaceChildren(row(columns.map((text, i) => cell("th", text, i >= 2 && i !== 4 && i !== 6))));
  body.replaceChildren();
  report.players.forEach((player, index) => {
    const values = [
      player.name, player.home, String(player.states.length), String(player.face_ev),
      player.region.length ? `${player.region.length}: ${player.region.join(" ")}` : "-",
      signed(player.region_bonus), player.siege.length ? player.siege.join(" ") : "-",
      signed(-player.siege_penalty), signed(player.net_bonus), String(player.total),
    ];
    if (second) {
      const other = second.players[index].total;
      values.push(String(other), signed(other - player.total));
    }
    const line = row(values.map((text, i) => {
      const element = cell("td", text, i >= 2 && i !== 4 && i !== 6);
      if (i === 0) {
        element.classList.add("name");
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = PLAYER_STYLES[index].fill;
        element.prepend(swatch);
      }
      if (i === 9) element.classList.add("total");
      if (i === 10) element.classList.add("total-b");  // under the second rule set
      return element;
    }));
    line.dataset.player = player.name;
    if (report.winners.includes(player.name)) line.classList.add("winner");
    if (second && second.winners.includes(player.name)) line.classList.add("winner-b");
    if (state.focus === index) line.classList.add("focused");
    line.addEventListener("click", () => {
      state.focus = state.focus === index ? null : index;
      writeUrl();
      refresh();
    });
    body.append(line);
  });
  const status = document.getElementById("status");
  const where = report.final
    ? "final"
    : `projection, ${report.states_won} of ${report.game_end} states won`;
  let text = `${report.board}, ${report.rules} rules: ${where}. Winner: ${report.winners.join(", ")}`;
  if (second) text += ` · under ${second.rules}: ${second.winners.join(", ")}`;
  status.textContent = text;
  status.classList.toggle("final", report.final);
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

function renderExplanation(explanation) {
  const panel = document.getElementById("explain");
  panel.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = `Explanation: ${explanation.player}`;
  panel.append(title);
  const lines = [];
  if (explanation.core.length) {
    const [home, a, b] = explanation.core;
    lines.push(`Core: ${home} + ${a} + ${b}: ${a} and ${b} both border ${home} and each other.`);
  } else {
    lines.push(`Core: none. A core needs two owned states that border ${explanation.home} and each other.`);
  }
  for (const join of explanation.joins) {
    lines.push(`+ ${join.state} joins: touches ${join.links.join(", ")}`);
  }
  for (const left of explanation.excluded) {
    const touches = left.links.length === 1
      ? `touches only ${left.links[0]}`
      : left.links.length ? `touches ${left.links.join(", ")}` : "touches no region state";
    lines.push(`− ${left.state} left out: ${touches}; needs ${left.needed}`);
  }
  for (const siege of explanation.siege) {
    lines.push(`Siege: ${siege.state} held by ${siege.owner}: −${siege.penalty}`);
  }
  const list = document.createElement("ul");
  for (const text of lines) {
    const item = document.createElement("li");
    item.textContent = text;
    list.append(item);
  }
  panel.append(list);

  const next = document.getElementById("next");
  next.replaceChildren();
  for (const entry of explanation.what_if.slice(0, 15)) {
    const item = document.createElement("li");
    item.dataset.state = entry.state;
    const from = entry.holder ? ` from ${entry.holder}` : "";
    // the command line's reasons; its "4 -> 5" arrow as one character, so a line never breaks inside it
    const reasons = entry.reasons.join("; ").replaceAll(" -> ", " → ") || "no change";
    item.textContent = `${entry.state}${from}: ${signed(entry.gain)} (${reasons})`;
    next.append(item);
  }
}

function clearExplanation() {
  const panel = document.getElementById("explain");
  panel.innerHTML = "<h2>Explanation</h2><p class=\"placeholder\">Click a player's row in the score table to see why their score is what it is.</p>";
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
}

async function refresh() {
  const mine = ++refreshCount;
  const current = () => mine === refreshCount;
  if (!ready()) {
    showMap(drawOwners());
    document.querySelector("#score thead").replaceChildren();
    document.querySelector("#score tbody").replaceChildren();
    const missing = state.players.filter((p) => !p.home).map((p) => p.name);
    document.getElementById("status").textContent =
      `Set a home for ${missing.join(", ")}: pick the player (keys 1–6), then shift-click a tile.`;
    clearExplanation();
    document.body.dataset.ready = "true";
    return;
  }
  document.body.dataset.ready = "false";
  // The table first: the scores are asked for first and shown as soon as they
  // come; a focused player's explanation and diagram (what-if included: the
  // slower answers) follow.  Unfocused, the map shows owners only, which
  // needs no answer: it is drawn while the scores are on their way.
  const game = gameBody();
  const focused = state.focus !== null && state.focus < state.players.length;
  const scores = Promise.all([
    api("/api/score", game),
    state.compare ? api("/api/score", { ...game, rules: state.compare }) : null,
  ]);
  let focus = null;
  if (focused) {
    const player = state.players[state.focus].name;
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
    if (focused) {
      const [explanation, svgText] = await focus;
      if (!current()) return;
      const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
      const imported = document.importNode(svg, true);
      showMap(imported);
      markGains(imported, explanation.what_if);
      renderExplanation(explanation);
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
  return {
    board: state.inlineBoard || state.boardName,
    rules,
    agents: document.getElementById("balance-agents").value.trim(),
    players: number("balance-players"),
    order: document.getElementById("balance-order").value,
    games: number("balance-games"),
    seed: number("balance-seed"),
  };
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
  caption.textContent = "At a glance, with 95% intervals";
  table.append(caption);
  const head = document.createElement("thead");
  head.append(row(["Rule set", "First seat's advantage", "Bonus decides", "Siege decides",
    "Mean total"].map((text, i) => cell("th", text, i > 0))));
  const body = document.createElement("tbody");
  for (const set of report.rule_sets) {
    const first = set.first_seat_advantage;
    const points = (v) => `${v >= 0 ? "+" : ""}${(100 * v).toFixed(1)}`;
    const total = set.mean.total;
    body.append(row([
      set.rules,
      `${points(first.value)} points [${points(first.low)}, ${points(first.high)}]`,
      rateText(set.bonus_decides),
      rateText(set.siege_decides),
      `${total.value.toFixed(1)} [${total.low.toFixed(1)}, ${total.high.toFixed(1)}]`,
    ].map((text, i) => cell(i ? "td" : "th", text, i > 0))));
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
    state.board = board;
    state.boardName = file.name;
    state.inlineBoard = board.inline;
    resetPosition();
    const select = document.getElementById("board-select");
    let option = [...select.options].find((o) => o.value === file.name);
    if (!option) {
      option = new Option(`${board.title} (uploaded)`, file.name);
      select.append(option);
    }
    select.value = file.name;
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
    const game = fromUrl || initial;
    await loadBoard(fromUrl && fromUrl.board ? fromUrl.board : game.board);
    state.rules = game.rules || "standard";
    state.compare = (fromUrl && fromUrl.compare) || "";
    state.focus = fromUrl ? fromUrl.focus : null;
    state.players = game.players.map((p) => ({ name: p.name, home: p.home, states: p.states || [] }));
    state.active = 0;
    boardSelect.value = state.boardName;
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
  document.getElementById("download").addEventListener("click", download);
  document.getElementById("copy-link").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      notice("Link copied: it reopens this position.");
    } catch (_) {
      notice(`Copy this link: ${window.location.href}`);
    }
  });
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
