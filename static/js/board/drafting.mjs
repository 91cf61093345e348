// Instant drafting. With each round's board the server sends every outcome of its draft
// (games.boardview.drafting_json: each placement of the card, each worker action after
// it, the score after that) and the words to draw them (#draft-data, #draft-words). A
// slot, a turn of the card or a worker zone is then drawn here at once, with no request:
// the same markup the server draws for that draft (games/boardhtml.py), the address kept
// with replaceState as an htmx link would. The lookups are draft.mjs's. Commit still
// posts the draft, and the server's next board replaces this one. Without the data (or
// without JavaScript) the links ask the server.
import {
  ZONE_ORDER,
  draftAnnouncement,
  draftFromParams,
  draftOutcome,
  draftParams,
  escapeHtml,
  fill,
  scoreRows,
  zoneLabel,
  zoneSvg,
} from "./draft.mjs";
import { noteFocus, restore } from "./keys.mjs";

const drafting = { board: null, data: null, words: null, draft: null, base: "" };

function draftingOf(board) {
  if (drafting.board === board) return drafting.data ? drafting : null;
  drafting.board = board;
  drafting.data = null;
  const dataElement = board.querySelector("#draft-data");
  const wordsElement = board.querySelector("#draft-words");
  const form = board.querySelector("form.commit-form");
  const turn = board.querySelector('[data-key="rotate"]');
  if (!dataElement || !wordsElement || !form || !turn) return null;
  try {
    drafting.data = JSON.parse(dataElement.textContent);
    drafting.words = JSON.parse(wordsElement.textContent);
  } catch {
    drafting.data = null;
    return null;
  }
  const field = (name) => {
    const input = form.querySelector(`input[name="${name}"]`);
    return input ? input.value : null;
  };
  drafting.draft = {
    rot: Number(field("rot") || 0),
    at: field("at"),
    place: field("place"),
    from: field("from"),
    to: field("to"),
  };
  // A move chosen halfway (its source only) is in the address, not in the form.
  const params = new URLSearchParams(location.search);
  if (drafting.draft.at && !drafting.draft.to && params.get("from") && !params.get("to")) {
    const source = params.get("from");
    const placement = drafting.data.placements[`${drafting.draft.at}@${drafting.draft.rot}`];
    if (placement && placement.move[source]) drafting.draft.from = source;
  }
  drafting.base = new URL(turn.getAttribute("href"), location.href).pathname;
  return drafting;
}

function drawDraft(state) {
  const { board, data, words, draft, base } = state;
  const outcome = draftOutcome(data, draft);
  const counts = new Map();
  for (const point of outcome.workers) counts.set(point, (counts.get(point) || 0) + 1);
  const link = (params) => `${base}?${draftParams(params, data.n)}`;
  const zoneHtml = (point, terrain, hut) => {
    const workers = counts.get(point) || 0;
    const label = zoneLabel(words, terrain, hut, workers);
    const found = outcome.links.get(point);
    if (!found) return `<span class="zone" data-zone="${point}" title="${escapeHtml(label)}">${zoneSvg(terrain, hut, workers, label)}</span>`;
    const [params, role] = found;
    const href = escapeHtml(link(params));
    const action = escapeHtml(words.actions[`${role}:${terrain}`]);
    return `<a class="zone zone--${role}" href="${href}" hx-get="${href}"\n   data-zone="${point}" data-role="${role}" aria-label="${action} (${escapeHtml(label)})" title="${action}">${zoneSvg(terrain, hut, workers, label)}</a>`;
  };
  const cardHtml = (key, zones, css, text) => {
    const [r, c] = key.split(",").map(Number);
    const inner = zones.map(([terrain, hut], i) => zoneHtml(`${2 * r + ZONE_ORDER[i][0]},${2 * c + ZONE_ORDER[i][1]}`, terrain, hut));
    return `<div class="${css}" role="gridcell" data-card-at="${key}">\n<span class="visually-hidden">${escapeHtml(fill(text, { where: data.where[key] }))}</span>\n${inner.join("\n")}\n</div>`;
  };
  let number = 0;
  const rows = data.grid.map((row) => {
    const cells = row.map((key) => {
      if (key === null) return '<div class="void" role="gridcell"></div>';
      if (key === draft.at) return cardHtml(key, data.card[draft.rot], "card card--draft", words.new_card);
      if (data.cells[key]) return cardHtml(key, data.cells[key], "card ", words.old_card);
      number += 1;
      const href = escapeHtml(link({ rot: draft.rot, at: key }));
      const shortcut = number < 10 ? ` aria-keyshortcuts="${number}"` : "";
      const label = escapeHtml(fill(words.slot, { where: data.where[key] }));
      return `<div class="slot-cell" role="gridcell"><a class="slot" href="${href}" hx-get="${href}" data-slot="${key}"${shortcut} aria-label="${label}"><span aria-hidden="true">+</span><kbd class="slot-key" aria-hidden="true">${number}</kbd></a></div>`;
    });
    return `<div class="landscape-row" role="row">\n${cells.join("\n")}\n</div>`;
  });
  const landscape = board.querySelector(".landscape-wrap--play .landscape");
  if (landscape) landscape.innerHTML = `\n${rows.join("\n")}\n`;
  drawScore(state, outcome);
  // The hand: the card turned, the turn buttons' links, the commit form's fields.
  const hand = board.querySelector(".card--hand");
  if (hand) {
    hand.innerHTML = data.card[draft.rot]
      .map(([terrain, hut]) => `<span class="zone">${zoneSvg(terrain, hut, 0, zoneLabel(words, terrain, hut, 0))}</span>`)
      .join("");
  }
  for (const [key, degrees] of [["rotate", 90], ["rotate-left", 270]]) {
    const button = board.querySelector(`[data-key="${key}"]`);
    if (!button) continue;
    const href = link({ rot: (draft.rot + degrees) % 360, at: draft.at });
    button.setAttribute("href", href);
    button.setAttribute("hx-get", href);
  }
  const form = board.querySelector("form.commit-form");
  for (const input of form.querySelectorAll('input[name="rot"], input[name="at"], input[name="place"], input[name="from"], input[name="to"]')) input.remove();
  const fields = [["rot", String(draft.rot)]];
  if (draft.at) fields.push(["at", draft.at]);
  if (draft.place) fields.push(["place", draft.place]);
  if (draft.from && draft.to) fields.push(["from", draft.from], ["to", draft.to]);
  const commit = form.querySelector('[data-key="commit"]');
  for (const [name, value] of fields) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.insertBefore(input, commit);
  }
  if (commit) {
    commit.disabled = !draft.at;
    const label = draft.place ? commit.dataset.labelPlace : draft.to ? commit.dataset.labelMove : commit.dataset.labelKeep;
    if (label) commit.textContent = label;
  }
  // What to do next, the supply, the announcement; a refusal shown before is over.
  const hint = board.querySelector("p.hint[data-hint-position]");
  if (hint) {
    hint.textContent = !draft.at ? hint.dataset.hintPosition : draft.from && !draft.to ? hint.dataset.hintTarget : hint.dataset.hintWorker;
  }
  const supply = board.querySelector(".round-head .supply");
  if (supply && !supply.querySelector(".tag")) supply.textContent = words.supply[data.supply - (draft.place ? 1 : 0)];
  for (const error of board.querySelectorAll(":scope > p.error")) error.remove();
  const announcement = board.querySelector("[data-announce]");
  if (announcement) {
    const text = draftAnnouncement(data, words, draft);
    announcement.querySelector("[data-committed]")?.remove();
    const part = announcement.querySelector("[data-draft-announce]");
    if (part) part.textContent = text;
    else announcement.textContent = text;
  }
}

function drawScore(state, outcome) {
  const { board, data, words } = state;
  const [total, rows] = scoreRows(data, outcome);
  const table = board.querySelector(".preview [data-score-table]");
  if (!table) return;
  const body = rows.map(([point, description, points, counted, region]) => {
    const note = counted ? "" : ` <small>(${escapeHtml(words.not_counted)})</small>`;
    return `<tr class="${counted ? "" : "not-counted"}" tabindex="0" data-region="${region}" data-worker-zone="${point}" data-testid="worker-row">\n<td>${escapeHtml(description)}</td>\n<td>${points}${note}</td>\n</tr>`;
  });
  table.querySelector("caption").textContent = fill(words.caption, { total });
  table.querySelector("tbody").innerHTML = `\n${body.join("\n") || `<tr><td colspan="2">${escapeHtml(words.no_workers)}</td></tr>`}\n`;
  table.querySelector('[data-testid="score-total"]').textContent = String(total);
}

// A click on a draft link (a slot, a turn of the card, a worker zone) is drawn here,
// before htmx would send it: the capture phase on the document comes first.
document.addEventListener(
  "click",
  (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (!(event.target instanceof Element)) return;
    const element = event.target.closest("#board a.slot, #board a.zone, #board a[data-key=rotate], #board a[data-key=rotate-left]");
    if (!element) return;
    const board = element.closest("#board");
    const state = draftingOf(board);
    if (!state) return;
    const href = element.getAttribute("href");
    const next = href ? draftFromParams(state.data, new URL(href, location.href).searchParams) : null;
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    const started = performance.now();
    noteFocus(document.activeElement === document.body ? element : document.activeElement);
    state.draft = next;
    drawDraft(state);
    history.replaceState(history.state, "", `${state.base}?${draftParams(next, state.data.n)}`);
    restore();
    // On a phone the card bar covers the bottom of the screen: keep the new card in sight.
    board.querySelector(".card--draft")?.scrollIntoView({ block: "nearest" });
    const board2 = document.getElementById("board");
    if (board2) board2.dataset.drawnIn = String(performance.now() - started);
    document.dispatchEvent(new CustomEvent("limes:drafted", { detail: { started } }));
  },
  true,
);
