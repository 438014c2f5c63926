import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMarker } from "../../src/split/markers.js";
import type { PageLine } from "../../src/split/page-text.js";

const at = (text: string, y0: number): PageLine => ({ text, y0, y1: y0 + 0.012, x0: 0.7, x1: 0.9 });

describe("findMarker", () => {
  it("reads labelled markers in several languages", () => {
    assert.deepEqual(findMarker([at("Page 1 of 3", 0.95)]), { page: 1, of: 3, labelled: true });
    assert.deepEqual(findMarker([at("Seite 2 von 2", 0.95)]), { page: 2, of: 2, labelled: true });
    assert.deepEqual(findMarker([at("Página 1 de 2", 0.03)]), { page: 1, of: 2, labelled: true });
    assert.deepEqual(findMarker([at("Pág. 2/3", 0.95)]), { page: 2, of: 3, labelled: true });
    assert.deepEqual(findMarker([at("Page 2 sur 4", 0.95)]), { page: 2, of: 4, labelled: true });
    assert.deepEqual(findMarker([at("Blatt 2", 0.04)]), { page: 2, of: null, labelled: true });
  });

  it("reads a bare 1 / 2 only in the margins", () => {
    assert.deepEqual(findMarker([at("1 / 2", 0.96)]), { page: 1, of: 2, labelled: false });
    assert.deepEqual(findMarker([at("2/2", 0.02)]), { page: 2, of: 2, labelled: false });
    assert.equal(findMarker([at("1 / 2", 0.5)]), null);
  });

  it("does not take dates, impossible counts or body references for markers", () => {
    assert.equal(findMarker([at("03/12/2024", 0.03)]), null);
    assert.equal(findMarker([at("12 / 3", 0.96)]), null);
    assert.equal(findMarker([at("Page 4 of 3", 0.96)]), null);
    assert.equal(findMarker([at("see page 2 for terms", 0.5)]), null);
  });
});
