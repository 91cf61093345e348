// The drafting lookups: what a draft of the round's card shows, read from the outcomes the
// server sends with each round's board (games.boardview.drafting_json, docs/formats.md).
// Nothing is worked out here: every legal choice and every score is looked up. No DOM: the
// page draws with these (drafting.mjs) and `node --test` checks them (tests/js/).

export const ZONE_ORDER = [[0, 0], [0, 1], [1, 0], [1, 1]];

const REGION_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";

// Draft.params: the query string of a draft, in the server's order and spelling.
export function draftParams(draft, n) {
  const parts = [];
  const point = (key, value) => { if (value) parts.push(`${key}=${value.replace(",", "%2C")}`); };
  if (draft.rot) parts.push(`rot=${draft.rot}`);
  point("at", draft.at);
  point("place", draft.place);
  point("from", draft.from);
  point("to", draft.to);
  if (n !== null && n !== undefined) parts.push(`n=${n}`);
  return parts.join("&");
}

// "%(where)s" and "%(total)d" filled in, as Django's interpolate with named values.
export function fill(template, values) {
  return template.replace(/%\((\w+)\)[sd]/g, (_match, name) => String(values[name]));
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]);
}

// Zones ("row,column") in reading order.
export function byPoint(a, b) {
  const [ar, ac] = a.split(",").map(Number);
  const [br, bc] = b.split(",").map(Number);
  return ar - br || ac - bc;
}

export function zoneLabel(words, terrain, hut, workers) {
  return words.labels[`${terrain}${hut ? 1 : 0}${Math.min(workers, 7)}`];
}

export function zoneSvg(terrain, hut, workers, label) {
  let svg = `<svg class="zone-art" viewBox="0 0 50 50" role="img" aria-label="${escapeHtml(label || terrain)}"><use href="#t-${terrain}"/>`;
  if (hut) svg += '<use href="#hut"/>';
  if (workers) {
    svg += '<use href="#worker"/>';
    if (workers > 1) svg += `<text x="24" y="20" class="worker-count">×${workers}</text>`;
  }
  return `${svg}</svg>`;
}

// A placement's region map: the region of each zone, and each region's zones.
export function regionsOf(placement) {
  if (placement.zonesOf) return placement;
  const [top, left, width, map] = placement.grid;
  placement.regionAt = new Map();
  placement.zonesOf = new Map();
  for (let i = 0; i < map.length; i += 1) {
    if (map[i] === ".") continue;
    const point = `${top + Math.floor(i / width)},${left + (i % width)}`;
    placement.regionAt.set(point, map[i]);
    if (!placement.zonesOf.has(map[i])) placement.zonesOf.set(map[i], []);
    placement.zonesOf.get(map[i]).push(point);
  }
  return placement;
}

// A worker's moves, one entry a target zone, from [region, zones (null: all the region's),
// whether the worker arriving scores, total, workers not scoring but the one arriving].
export function movesOf(placement, source) {
  regionsOf(placement);
  const moves = [];
  for (const [region, zones, counts, total, others] of placement.move[source] || []) {
    const points = zones === null ? placement.zonesOf.get(REGION_CHARS[region]) : zones.split(" ");
    for (const point of points) {
      const uncounted = counts ? others : [others, point].filter(Boolean).join(" ");
      moves.push({ zone: point, ending: uncounted ? [total, uncounted] : [total] });
    }
  }
  return moves.sort((a, b) => byPoint(a.zone, b.zone));
}

// The draft an address's query names, if the data holds it; null for one it does not
// (the page then asks the server, as without the data).
export function draftFromParams(data, params) {
  const draft = {
    rot: Number(params.get("rot") || 0),
    at: params.get("at"),
    place: params.get("place"),
    from: params.get("from"),
    to: params.get("to"),
  };
  if (![0, 90, 180, 270].includes(draft.rot)) return null;
  if (!draft.at) return draft;
  const placement = data.placements[`${draft.at}@${draft.rot}`];
  if (!placement) return null;
  if (draft.place && !placement.place.some((item) => item[0] === draft.place)) return null;
  if (draft.from) {
    const moves = movesOf(placement, draft.from);
    if (!moves.length) return null;
    if (draft.to && !moves.some((move) => move.zone === draft.to)) return null;
  }
  return draft;
}

// What a draft shows: the placement's outcomes, the workers after the action, the
// clickable zones and the score, all looked up in the data.
export function draftOutcome(data, draft) {
  const placement = draft.at ? data.placements[`${draft.at}@${draft.rot}`] : null;
  if (!placement) return { placement: null, workers: data.workers.slice(), links: new Map(), ending: null };
  const workers = data.workers.slice();
  let ending = placement.keep;
  let targets = null;
  if (draft.place) {
    const found = placement.place.find((item) => item[0] === draft.place);
    ending = found.slice(1);
    workers.push(draft.place);
  } else if (draft.from && draft.to) {
    const found = movesOf(placement, draft.from).find((item) => item.zone === draft.to);
    ending = found.ending;
    workers.splice(workers.indexOf(draft.from), 1);
    workers.push(draft.to);
  } else if (draft.from) {
    targets = movesOf(placement, draft.from);
  }
  workers.sort(byPoint);
  // round_view's zone links: choosing a target, or the place, source and selected zones.
  const links = new Map();
  const clear = { rot: draft.rot, at: draft.at, place: null, from: null, to: null };
  if (targets) {
    for (const target of targets) links.set(target.zone, [{ ...draft, to: target.zone }, "target"]);
    links.set(draft.from, [clear, "selected"]);
  } else {
    for (const item of placement.place) links.set(item[0], [{ ...clear, place: item[0] }, "place"]);
    for (const source of Object.keys(placement.move).sort(byPoint)) {
      links.set(source, [{ ...clear, from: source }, "source"]);
    }
    if (draft.place) links.set(draft.place, [clear, "selected"]);
    if (draft.to) links.set(draft.to, [clear, "selected"]);
  }
  return { placement, workers, links, ending };
}

// The score table of a draft: its total and a row a worker, [zone, description, points,
// counted (1 or 0), the zones of its region].
export function scoreRows(data, outcome) {
  if (!outcome.placement) return data.score;
  const placement = regionsOf(outcome.placement);
  const [total, uncountedText] = outcome.ending;
  const uncounted = uncountedText ? uncountedText.split(" ") : [];
  const rows = outcome.workers.map((point) => {
    const region = placement.regionAt.get(point);
    const [description, value] = placement.regions[REGION_CHARS.indexOf(region)];
    const index = uncounted.indexOf(point);
    if (index >= 0) uncounted.splice(index, 1);
    const counted = index < 0;
    return [point, data.descriptions[description], counted ? value : 0, counted ? 1 : 0, placement.zonesOf.get(region).join(" ")];
  });
  return [total, rows];
}

// boardview._announce: the draft so far, for the live region.
export function draftAnnouncement(data, words, draft) {
  const parts = [];
  if (draft.rot) parts.push(fill(words.turned, { degrees: draft.rot }));
  if (!draft.at) {
    parts.push(words.choose_slot);
    return parts.join(" ");
  }
  parts.push(fill(words.placed, { position: data.where[draft.at] }));
  const terrainAt = (point) => {
    const [r, c] = point.split(",").map(Number);
    const key = `${Math.floor(r / 2)},${Math.floor(c / 2)}`;
    const index = ZONE_ORDER.findIndex(([dr, dc]) => dr === ((r % 2) + 2) % 2 && dc === ((c % 2) + 2) % 2);
    const zones = key === draft.at ? data.card[draft.rot] : data.cells[key];
    return words.terrain[zones[index][0]];
  };
  if (draft.place) parts.push(fill(words.worker_goes, { terrain: terrainAt(draft.place) }));
  else if (draft.to) parts.push(fill(words.worker_moves, { terrain: terrainAt(draft.to) }));
  else if (draft.from) parts.push(words.choose_target);
  return parts.join(" ");
}
