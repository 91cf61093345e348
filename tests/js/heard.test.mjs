// The versions a page's stream tells of (static/js/heard.mjs), as both games' boards hear
// them to know when the board they show is behind. Run by scripts/test: node --test tests/js/
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { streamHearing } from "../../static/js/heard.mjs";

// A page as far as the module looks at it: the element the stream is opened on (htmx
// tells of the opening there) and whether the game's board is inside it.
class Page extends EventTarget {
  constructor(holds) {
    super();
    this.holds = holds;
  }

  querySelector(selector) {
    return this.holds.includes(selector) ? {} : null;
  }
}

let page;

beforeEach(() => {
  globalThis.Element = Page;
  page = new Page(["#winter-board"]);
  globalThis.document = page;
});

function opened(on) {
  const source = new EventTarget();
  on.dispatchEvent(new CustomEvent("htmx:sseOpen", { detail: { source } }));
  return source;
}

function tell(source, data) {
  source.dispatchEvent(new MessageEvent("game", { data }));
}

test("the newest version the game's stream told of is heard, never an older one", () => {
  const stream = streamHearing("#winter-board");
  assert.equal(stream.latest(), 0);
  const source = opened(page);
  tell(source, JSON.stringify({ version: 7 }));
  tell(source, JSON.stringify({ version: 5 })); // late: the page keeps the newest
  assert.equal(stream.latest(), 7);
  // A stream opened again (after a drop) is heard as well.
  tell(opened(page), JSON.stringify({ version: 9 }));
  assert.equal(stream.latest(), 9);
});

test("what is not a version changes nothing", () => {
  const stream = streamHearing("#winter-board");
  const source = opened(page);
  tell(source, JSON.stringify({ version: 4 }));
  for (const data of ["", "{}", "not json", JSON.stringify({ version: "x" }), "null"]) {
    tell(source, data);
  }
  assert.equal(stream.latest(), 4);
});

test("a stream opened on a page without the game's board is not heard", () => {
  const stream = streamHearing("#live-table");
  tell(opened(page), JSON.stringify({ version: 3 }));
  assert.equal(stream.latest(), 0);
  // Events heard some other way (htmx's own sseMessage) count too.
  stream.hear(JSON.stringify({ version: 2 }));
  assert.equal(stream.latest(), 2);
});
