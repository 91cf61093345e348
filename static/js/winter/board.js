// The Winter board: choosing a place, turning the tile and choosing a follower ask the
// server nothing (the legal moves come with the page as JSON); Commit posts the turn.
// Without this file every step is a link and Commit a plain form.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg";
  const STEP = 100;
  const HINT_KEY = "winter-first-game-hint";
  // Whether the keyboard was on the board when a new one came in (a turn, a poll).
  let boardHadFocus = false;

  function setUp(board) {
    if (board.dataset.ready) return;
    board.dataset.ready = "1";
    const svg = board.querySelector(".w-svg");
    if (!svg) return;
    const view = panAndZoom(board, svg);
    const features = board.querySelector("#winter-features");
    if (features) lighting(board, svg, JSON.parse(features.textContent));
    const data = board.querySelector("#winter-draft");
    const draft = data ? drafting(board, svg, JSON.parse(data.textContent)) : null;
    keys(board, svg, draft, view);
  }

  // -- pan by drag, zoom by wheel, pinch, buttons and keys ------------------------------------

  function panAndZoom(board, svg) {
    const start = svg.getAttribute("viewBox").split(" ").map(Number);
    let box = start.slice();
    const show = () => svg.setAttribute("viewBox", box.join(" "));
    const zoom = (factor, cx, cy) => {
      const [x, y, w, h] = box;
      const nw = Math.min(Math.max(w * factor, 200), 12000);
      const nh = (h * nw) / w;
      cx = cx === undefined ? x + w / 2 : cx;
      cy = cy === undefined ? y + h / 2 : cy;
      box = [cx - ((cx - x) * nw) / w, cy - ((cy - y) * nh) / h, nw, nh];
      show();
    };
    const zoomBy = (how) => {
      if (how === "in") zoom(0.8);
      else if (how === "out") zoom(1.25);
      else { box = start.slice(); show(); }
    };
    board.querySelectorAll("[data-zoom]").forEach((button) => {
      button.addEventListener("click", () => zoomBy(button.dataset.zoom));
    });
    // + and - zoom, 0 shows the whole board, from the board or the page (not in a field).
    const ZOOM_KEYS = { "+": "in", "=": "in", "-": "out", "0": "fit" };
    const onZoomKey = (event) => {
      if (!board.isConnected) { document.removeEventListener("keydown", onZoomKey); return; }
      const how = ZOOM_KEYS[event.key];
      if (!how || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.target.closest("input, textarea, select, [contenteditable]")) return;
      event.preventDefault();
      zoomBy(how);
    };
    document.addEventListener("keydown", onZoomKey);
    const toBoard = (event) => {
      const point = svg.createSVGPoint();
      point.x = event.clientX;
      point.y = event.clientY;
      return point.matrixTransform(svg.getScreenCTM().inverse());
    };
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const at = toBoard(event);
      zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, at.x, at.y);
    }, { passive: false });
    let drag = null;
    // Two fingers on the board pinch: the view scales by how far apart they move, about
    // the point between them where they started.
    const fingers = new Map();
    let pinch = null;
    let quietUntil = 0;
    svg.addEventListener("click", (event) => {
      if (performance.now() < quietUntil) { event.preventDefault(); event.stopPropagation(); }
    }, { capture: true });
    const spread = () => {
      const [a, b] = [...fingers.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    };
    svg.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "touch") {
        fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
        if (fingers.size === 2) {
          const now = spread();
          const at = toBoard({ clientX: now.x, clientY: now.y });
          pinch = { d: Math.max(now.d, 1), at, box: box.slice() };
          drag = null;
          return;
        }
      }
      if (event.button !== 0 || pinch) return;
      drag = { x: event.clientX, y: event.clientY, box: box.slice(), moved: false };
    });
    svg.addEventListener("pointermove", (event) => {
      if (fingers.has(event.pointerId)) {
        fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      }
      if (pinch && fingers.size === 2) {
        const factor = pinch.d / Math.max(spread().d, 1);
        box = pinch.box.slice();
        zoom(factor, pinch.at.x, pinch.at.y);
        return;
      }
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      if (!drag.moved) svg.setPointerCapture(event.pointerId);
      drag.moved = true;
      const scale = box[2] / svg.clientWidth;
      box = [drag.box[0] - dx * scale, drag.box[1] - dy * scale, box[2], box[3]];
      show();
    });
    const end = (event) => {
      fingers.delete(event.pointerId);
      if (pinch) {
        // The pinch is over once a finger lifts; a tap just after it chooses no place.
        if (fingers.size < 2) pinch = null;
        quietUntil = performance.now() + 400;
        drag = null;
        return;
      }
      if (drag && drag.moved) {
        // A drag is no click on a place.
        svg.addEventListener("click", (e) => { e.preventDefault(); e.stopPropagation(); },
          { capture: true, once: true });
      }
      drag = null;
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    return {
      // Bring a point of the board into view (the keyboard may go where the view is not).
      reveal(x, y) {
        const [bx, by, w, h] = box;
        if (x >= bx && x <= bx + w && y >= by && y <= by + h) return;
        box = [x - w / 2, y - h / 2, w, h];
        show();
      },
    };
  }

  // -- table aids: pointing at a segment lights its whole feature (no request) ---------------

  function lighting(board, svg, data) {
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "w-light");
    layer.dataset.light = "";
    svg.append(layer);
    const info = board.querySelector("[data-feature-info]");
    const mark = (at, css) => {
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", at[1] * STEP + 3);
      rect.setAttribute("y", at[0] * STEP + 3);
      rect.setAttribute("width", STEP - 6);
      rect.setAttribute("height", STEP - 6);
      rect.setAttribute("class", css);
      layer.append(rect);
    };
    let shown = null;
    const show = (id) => {
      if (id === shown) return;
      shown = id;
      layer.replaceChildren();
      board.querySelectorAll(".w-seg--lit").forEach((n) => n.classList.remove("w-seg--lit"));
      if (id === null || id === undefined) { if (info) info.textContent = ""; return; }
      const feature = data.features[id];
      for (const city of feature.cities) {
        for (const at of data.features[city].tiles) mark(at, "w-lit-city");
      }
      for (const at of feature.tiles) mark(at, "w-lit");
      for (const [row, col, seg] of feature.followers) {
        const ring = document.createElementNS(SVG, "circle");
        const spots = feature.kind === "road" ? data.roadSpots : data.spots;
        const spot = spots[seg] || data.spots[seg] || [50, 50];
        ring.setAttribute("cx", col * STEP + spot[0]);
        ring.setAttribute("cy", row * STEP + spot[1]);
        ring.setAttribute("r", 13);
        ring.setAttribute("class", "w-lit-follower");
        layer.append(ring);
      }
      for (const [key, fid] of Object.entries(data.segments)) {
        if (fid !== id) continue;
        const node = board.querySelector(`.w-seg[data-seg="${key}"]`);
        if (node) node.classList.add("w-seg--lit");
      }
      if (info) info.textContent = feature.text;
      layer.dataset.feature = String(id);
    };
    const featureOf = (node) => {
      const seg = node && node.closest ? node.closest(".w-seg") : null;
      return seg ? data.segments[seg.dataset.seg] : null;
    };
    svg.addEventListener("pointerover", (event) => show(featureOf(event.target)));
    svg.addEventListener("pointerleave", () => show(null));
    svg.addEventListener("focusin", (event) => show(featureOf(event.target)));
    svg.addEventListener("focusout", () => show(null));
  }

  // -- a replay: ← and → step through the turns ------------------------------------------

  function replayKeys(root) {
    const page = root.querySelector("[data-replay]");
    if (!page) return;
    page.dataset.keys = "1";
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey
          || event.altKey) return;
      const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
      const link = rel && page.querySelector(`a[rel=${rel}]`);
      if (link) { event.preventDefault(); window.location.assign(link.href); }
    });
  }

  // -- the draft -------------------------------------------------------------------------

  function drafting(board, svg, data) {
    const moves = data.moves;
    const key = (at) => `${at[0]},${at[1]}`;
    const byPlace = new Map();
    for (const move of moves) {
      const k = key(move.at);
      if (!byPlace.has(k)) byPlace.set(k, []);
      byPlace.get(k).push(move);
    }
    const places = [...byPlace.keys()].map((k) => k.split(",").map(Number));
    const draft = { at: null, rotation: null, follower: null };
    if (data.draft && data.draft.at) Object.assign(draft, data.draft);
    const layer = svg.querySelector("[data-draft]");
    const form = board.querySelector("[data-commit-form]");
    const commit = board.querySelector("[data-testid=winter-commit]");
    const turnButton = board.querySelector("[data-action=turn]");
    const barTile = board.querySelector("[data-bar-tile]");
    const followersBox = board.querySelector("[data-followers]");
    const status = board.querySelector("[data-testid=winter-status]");
    const say = board.querySelector("[data-say]");

    const current = () => {
      if (!draft.at) return null;
      const here = byPlace.get(key(draft.at)) || [];
      return here.find((m) => m.rotation === draft.rotation) || here[0] || null;
    };
    const words = (move, name) => (move.words && move.words[name]) || name;

    function el(name, attrs) {
      const node = document.createElementNS(SVG, name);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      return node;
    }

    function draw() {
      // The server's ghost (a page drawn with a draft) gives way to this one.
      svg.querySelectorAll(".w-ghost").forEach((node) => node.remove());
      layer.replaceChildren();
      const move = current();
      svg.querySelectorAll(".w-place").forEach((a) => {
        a.classList.toggle("w-place--chosen", !!draft.at && a.dataset.at === key(draft.at));
      });
      if (move) {
        const [row, col] = move.at;
        layer.append(el("use", {
          href: `#w-drawn-${move.rotation}`, x: col * STEP, y: row * STEP,
          width: STEP, height: STEP, class: "w-ghost-use",
        }));
        for (const name of move.followers) {
          const [x, y] = data.spots[name];
          const spot = el("circle", {
            cx: col * STEP + x, cy: row * STEP + y, r: 9,
            class: "w-spot" + (draft.follower === name ? " w-spot--chosen" : ""),
            "data-spot": name,
          });
          const title = el("title", {});
          title.textContent = words(move, name);
          spot.append(title);
          layer.append(spot);
        }
      }
      form.elements.at.value = move ? key(move.at) : "";
      form.elements.rotation.value = move ? String(move.rotation) : "";
      form.elements.follower.value = draft.follower || "";
      commit.disabled = !move;
      if (barTile && move) barTile.setAttribute("href", `#w-drawn-${move.rotation}`);
      if (turnButton) {
        const here = move ? byPlace.get(key(move.at)) : [];
        if (turnButton.tagName === "A") turnButton.removeAttribute("href");
        turnButton.toggleAttribute("aria-disabled", !move || here.length < 2);
      }
      if (followersBox) {
        followersBox.replaceChildren();
        if (move && move.followers.length) {
          for (const name of ["", ...move.followers]) {
            const button = document.createElement("button");
            button.type = "button";
            button.className = "button small";
            button.dataset.follower = name;
            button.textContent = name ? words(move, name) : followersBox.dataset.none || "–";
            button.setAttribute("aria-pressed", String((draft.follower || "") === name));
            followersBox.append(button);
          }
        }
      }
      if (say && move) {
        // The polite live region speaks only when the words change.
        const follower = draft.follower ? move.stakes[draft.follower] : data.noFollower;
        const text = [data.places[key(move.at)], move.say, follower].join(" ");
        if (say.textContent !== text) say.textContent = text;
      }
    }

    function place(at) {
      const here = byPlace.get(key(at));
      if (!here) return;
      const keep = here.find((m) => m.rotation === draft.rotation);
      draft.at = at;
      draft.rotation = (keep || here[0]).rotation;
      draft.follower = null;
      draw();
    }

    function turn(step) {
      const move = current();
      if (!move) { if (places.length) place(places[0]); return; }
      const here = byPlace.get(key(move.at));
      const i = here.indexOf(move);
      draft.rotation = here[(i + step + here.length) % here.length].rotation;
      if (!current().followers.includes(draft.follower)) draft.follower = null;
      draw();
    }

    function cycleFollower() {
      const move = current();
      if (!move || !move.followers.length) return;
      const names = [null, ...move.followers];
      draft.follower = names[(names.indexOf(draft.follower) + 1) % names.length];
      draw();
    }

    function go(dr, dc) {
      if (!places.length) return;
      if (!draft.at) { place(places[0]); return; }
      const [r, c] = draft.at;
      let best = null;
      let bestCost = Infinity;
      for (const [pr, pc] of places) {
        const along = (pr - r) * dr + (pc - c) * dc;
        if (along <= 0) continue;
        const across = Math.abs((pr - r) * dc) + Math.abs((pc - c) * dr);
        const cost = along + 2 * across;
        if (cost < bestCost) { bestCost = cost; best = [pr, pc]; }
      }
      if (best) place(best);
    }

    function send() {
      if (!current()) return false;
      commit.disabled = false;
      form.requestSubmit(commit);
      return true;
    }

    svg.addEventListener("click", (event) => {
      const spot = event.target.closest("[data-spot]");
      if (spot) {
        event.preventDefault();
        draft.follower = draft.follower === spot.dataset.spot ? null : spot.dataset.spot;
        draw();
        return;
      }
      const link = event.target.closest(".w-place");
      if (link) {
        event.preventDefault();
        place(link.dataset.at.split(",").map(Number));
      }
    });
    if (turnButton) {
      turnButton.addEventListener("click", (event) => { event.preventDefault(); turn(1); });
    }
    if (followersBox) {
      followersBox.addEventListener("click", (event) => {
        const button = event.target.closest("[data-follower]");
        if (!button) return;
        event.preventDefault();
        draft.follower = button.dataset.follower || null;
        draw();
      });
    }
    form.addEventListener("submit", () => { commit.disabled = true; });
    if (status) status.dataset.js = "1";
    draw();
    return {
      hasPlaces: () => places.length > 0,
      chosen: () => (draft.at ? svg.querySelector(`.w-place[data-at="${key(draft.at)}"]`) : null),
      pick: (link) => place(link.dataset.at.split(",").map(Number)),
      go, turn, cycleFollower, send,
    };
  }

  // -- the keyboard: one tab stop on the board, the arrows inside (a roving tabindex) ----

  function keys(board, svg, draft, view) {
    const items = () => svg.querySelectorAll(".w-place, .w-seg");
    const centre = (node) => {
      if (node.classList.contains("w-seg")) {
        return [Number(node.getAttribute("cx")), Number(node.getAttribute("cy"))];
      }
      const [row, col] = node.dataset.at.split(",").map(Number);
      return [col * STEP + STEP / 2, row * STEP + STEP / 2];
    };
    let stop = null;
    const rove = (node, focus) => {
      if (!node) return;
      stop = node;
      items().forEach((n) => n.setAttribute("tabindex", n === node ? "0" : "-1"));
      if (focus) {
        view.reveal(...centre(node));
        node.focus({ preventScroll: true });
      }
    };
    const first = () => (draft && draft.chosen()) || svg.querySelector(".w-place")
      || svg.querySelector(".w-seg");
    // The board itself is no stop of its own: its one stop is the item it shows.
    svg.setAttribute("tabindex", "-1");
    rove(first(), false);

    // The segment nearest in the arrow's direction, straight ahead counting most.
    const nextSeg = (dr, dc) => {
      const segs = [...svg.querySelectorAll(".w-seg")];
      const from = stop ? centre(stop) : null;
      if (!from) return segs[0] || null;
      let best = null;
      let bestCost = Infinity;
      for (const seg of segs) {
        const [x, y] = centre(seg);
        const along = (y - from[1]) * dr + (x - from[0]) * dc;
        if (along <= 0) continue;
        const cost = along + 2 * (Math.abs((y - from[1]) * dc) + Math.abs((x - from[0]) * dr));
        if (cost < bestCost) { bestCost = cost; best = seg; }
      }
      return best;
    };

    svg.addEventListener("click", (event) => {
      const node = event.target.closest(".w-place, .w-seg");
      if (node) rove(node, false);
    });
    svg.addEventListener("focusin", (event) => {
      boardHadFocus = true;
      const node = event.target.closest(".w-place, .w-seg");
      if (node && node !== stop) rove(node, false);
    });
    svg.addEventListener("focusout", (event) => {
      if (event.relatedTarget && !svg.contains(event.relatedTarget)) boardHadFocus = false;
      else if (!event.relatedTarget) {
        // Focus left for nothing: the page was clicked, or this board is being replaced.
        setTimeout(() => {
          if (board.isConnected) boardHadFocus = svg.contains(document.activeElement);
        });
      }
    });

    const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const onKey = (event) => {
      if (!board.isConnected) { document.removeEventListener("keydown", onKey); return; }
      const target = event.target;
      if (target.closest("input, textarea, select, [contenteditable]") || event.ctrlKey
          || event.metaKey || event.altKey) return;
      const step = ARROWS[event.key];
      const inBoard = svg.contains(target);
      if (step) {
        if (event.shiftKey || !draft || !draft.hasPlaces()) {
          // The features are looked at from the board only: elsewhere the arrows scroll.
          if (!inBoard) return;
          event.preventDefault();
          rove(nextSeg(...step), true);
        } else {
          event.preventDefault();
          // The first arrow on a place the Tab key came to takes that place.
          if (!draft.chosen() && stop && stop.matches(".w-place") && svg.contains(target)) {
            draft.pick(stop);
          } else {
            draft.go(...step);
          }
          rove(draft.chosen(), true);
        }
        return;
      }
      if (!draft) return;
      if (event.key === "r" || event.key === "R") {
        event.preventDefault();
        draft.turn(event.shiftKey ? -1 : 1);
        rove(draft.chosen(), inBoard || target === document.body);
      } else if (event.key === "f" || event.key === "F") {
        event.preventDefault();
        draft.cycleFollower();
      } else if (event.key === "Enter" && (inBoard || !target.closest("a, button, summary"))) {
        if (draft.send()) event.preventDefault();
      }
    };
    document.addEventListener("keydown", onKey);
    if (boardHadFocus && (!document.activeElement || document.activeElement === document.body)) {
      rove(first(), true);
    }
  }

  // -- the first-game hint: hidden for good once dismissed --------------------------------

  function firstGameHint(root) {
    const box = root.querySelector("[data-first-game-hint]");
    if (!box) return;
    let dismissed = false;
    try { dismissed = window.localStorage.getItem(HINT_KEY) === "1"; } catch (e) { /* private */ }
    if (dismissed) { box.remove(); return; }
    const button = box.querySelector("[data-dismiss]");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      try { window.localStorage.setItem(HINT_KEY, "1"); } catch (e) { /* private */ }
      box.remove();
    });
  }

  function scan(root) {
    const board = root.id === "winter-board" ? root : root.querySelector("#winter-board");
    if (board) setUp(board);
  }

  document.addEventListener("DOMContentLoaded", () => {
    scan(document);
    replayKeys(document);
    firstGameHint(document);
  });
  document.addEventListener("htmx:load", (event) => scan(event.detail.elt));
})();
