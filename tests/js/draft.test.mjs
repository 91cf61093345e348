// The drafting lookups of static/js/board/draft.mjs, on a round's data shaped as
// games.boardview.drafting_json writes it (docs/formats.md, section 5): one card placed
// at 0,0 with a worker on it, a slot at 0,1, and one placement of the new card there.
// Run by scripts/test: node --test tests/js/
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  draftAnnouncement,
  draftFromParams,
  draftOutcome,
  draftParams,
  escapeHtml,
  fill,
  movesOf,
  scoreRows,
} from "../../static/js/board/draft.mjs";

const FIELD = [["field", 0], ["field", 0], ["field", 0], ["field", 1]];

function round() {
  return {
    n: 3,
    supply: 2,
    grid: [["0,0", "0,1"]],
    cells: { "0,0": FIELD },
    where: { "0,0": "top left", "0,1": "top right" },
    workers: ["0,0"],
    score: [4, [["0,0", "farmer on a field of 4 zones", 4, 1, "0,0 0,1 1,0 1,1"]]],
    card: { 0: [["forest", 0], ["forest", 0], ["forest", 0], ["lake", 0]], 90: [["forest", 0], ["forest", 0], ["lake", 0], ["forest", 0]] },
    descriptions: ["farmer on a field of 4 zones", "woodcutter in a forest of 3 zones", "fisher at a lake of 1 zone"],
    placements: {
      "0,1@0": {
        // Row 0: field field forest forest; row 1: field field forest lake.
        grid: [0, 0, 4, "00110012"],
        regions: [[0, 4], [1, 3], [2, 1]],
        keep: [4],
        place: [["0,2", 7], ["1,3", 5]],
        // The worker on 0,0 may go to any zone of the forest (scoring it), or to the
        // lake, where it does not count.
        move: { "0,0": [[1, null, 1, 3], [2, "1,3", 0, 0]] },
      },
    },
  };
}

const WORDS = {
  turned: "Card turned %(degrees)s degrees.",
  choose_slot: "Choose a slot.",
  placed: "Card placed %(position)s.",
  worker_goes: "A worker goes to the %(terrain)s.",
  worker_moves: "A worker moves to the %(terrain)s.",
  choose_target: "Choose where the worker goes.",
  terrain: { field: "field", forest: "forest", lake: "lake" },
};

const draft = (fields) => ({ rot: 0, at: null, place: null, from: null, to: null, ...fields });
const fromQuery = (query) => draftFromParams(round(), new URLSearchParams(query));

test("a draft's address is written in the server's order and spelling", () => {
  assert.equal(draftParams(draft({ rot: 90, at: "0,1", place: "0,2" }), 3), "rot=90&at=0%2C1&place=0%2C2&n=3");
  assert.equal(draftParams(draft({ at: "0,1", from: "0,0", to: "1,3" }), null), "at=0%2C1&from=0%2C0&to=1%2C3");
  assert.equal(draftParams(draft({}), 3), "n=3");
});

test("every draft the data holds is read back from its own address", () => {
  for (const fields of [{}, { rot: 90 }, { at: "0,1" }, { at: "0,1", place: "1,3" }, { at: "0,1", from: "0,0" }, { at: "0,1", from: "0,0", to: "0,3" }]) {
    assert.deepEqual(fromQuery(draftParams(draft(fields), 3)), draft(fields));
  }
});

test("a draft the data does not hold is left to the server", () => {
  assert.equal(fromQuery("rot=45"), null);
  assert.equal(fromQuery("at=0%2C1&rot=90"), null, "no such placement");
  assert.equal(fromQuery("at=5%2C5"), null, "no such slot");
  assert.equal(fromQuery("at=0%2C1&place=0%2C0"), null, "no worker may be placed there");
  assert.equal(fromQuery("at=0%2C1&from=1%2C1"), null, "no worker to move there");
  assert.equal(fromQuery("at=0%2C1&from=0%2C0&to=1%2C0"), null, "not a zone it may move to");
});

test("a worker's moves cover its target regions' zones, in reading order", () => {
  const placement = round().placements["0,1@0"];
  assert.deepEqual(movesOf(placement, "0,0"), [
    { zone: "0,2", ending: [3] },
    { zone: "0,3", ending: [3] },
    { zone: "1,2", ending: [3] },
    { zone: "1,3", ending: [0, "1,3"] },
  ]);
  assert.deepEqual(movesOf(placement, "1,1"), []);
});

test("a worker placed shows as selected, and the score counts it", () => {
  const data = round();
  const outcome = draftOutcome(data, draft({ at: "0,1", place: "0,2" }));
  assert.deepEqual(outcome.workers, ["0,0", "0,2"]);
  assert.deepEqual(outcome.links.get("0,2"), [draft({ at: "0,1" }), "selected"]);
  assert.deepEqual(outcome.links.get("1,3"), [draft({ at: "0,1", place: "1,3" }), "place"]);
  const [total, rows] = scoreRows(data, outcome);
  assert.equal(total, 7);
  assert.deepEqual(rows.map((row) => row.slice(0, 4)), [
    ["0,0", "farmer on a field of 4 zones", 4, 1],
    ["0,2", "woodcutter in a forest of 3 zones", 3, 1],
  ]);
});

test("a worker chosen to move offers its targets, and its own zone to undo", () => {
  const outcome = draftOutcome(round(), draft({ at: "0,1", from: "0,0" }));
  assert.deepEqual([...outcome.links.keys()].sort(), ["0,0", "0,2", "0,3", "1,2", "1,3"]);
  assert.equal(outcome.links.get("0,0")[1], "selected");
  assert.deepEqual(outcome.links.get("1,3"), [draft({ at: "0,1", from: "0,0", to: "1,3" }), "target"]);
});

test("a worker moved where it does not count scores nothing, and says so", () => {
  const data = round();
  const [total, rows] = scoreRows(data, draftOutcome(data, draft({ at: "0,1", from: "0,0", to: "1,3" })));
  assert.equal(total, 0);
  assert.deepEqual(rows, [["1,3", "fisher at a lake of 1 zone", 0, 0, "1,3"]]);
});

test("before the card is placed the score is the round's own", () => {
  const data = round();
  assert.deepEqual(scoreRows(data, draftOutcome(data, draft({ rot: 90 }))), data.score);
});

test("the live region hears the draft so far", () => {
  const data = round();
  assert.equal(draftAnnouncement(data, WORDS, draft({ rot: 90 })), "Card turned 90 degrees. Choose a slot.");
  assert.equal(
    draftAnnouncement(data, WORDS, draft({ at: "0,1", place: "1,3" })),
    "Card placed top right. A worker goes to the lake.",
  );
  assert.equal(
    draftAnnouncement(data, WORDS, draft({ at: "0,1", from: "0,0", to: "0,2" })),
    "Card placed top right. A worker moves to the forest.",
  );
  assert.equal(draftAnnouncement(data, WORDS, draft({ at: "0,1", from: "0,0" })), "Card placed top right. Choose where the worker goes.");
});

test("words are filled in and markup is escaped", () => {
  assert.equal(fill("Total: %(total)d, %(where)s", { total: 7, where: "top" }), "Total: 7, top");
  assert.equal(escapeHtml(`<a href="x">Tom's & co</a>`), "&lt;a href=&quot;x&quot;&gt;Tom&#x27;s &amp; co&lt;/a&gt;");
});
