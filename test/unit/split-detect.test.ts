import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ingest } from "../../src/ingest/index.js";
import { detectDocuments } from "../../src/split/index.js";
import { invoiceBundle, THREE_INVOICES } from "./split-invoices.js";

const pagesOf = async (bytes: Uint8Array): Promise<number[][]> =>
  detectDocuments(await ingest(bytes)).map((s) => s.pages);

describe("detectDocuments", () => {
  it("splits three invoices of 2, 1 and 3 pages", async () => {
    const segments = detectDocuments(await ingest(await invoiceBundle(THREE_INVOICES)));
    assert.deepEqual(
      segments.map((s) => s.pages),
      [[1, 2], [3], [4, 5, 6]],
    );
    for (const s of segments) assert.ok(s.confidence > 0.5 && s.confidence <= 1, `confidence ${s.confidence}`);
  });

  it("splits them without any page markers", async () => {
    const bare = THREE_INVOICES.map((spec) => ({ ...spec, markers: false }));
    assert.deepEqual(await pagesOf(await invoiceBundle(bare)), [[1, 2], [3], [4, 5, 6]]);
  });

  it("keeps a single multi-page document whole", async () => {
    const [, , third] = THREE_INVOICES;
    assert.ok(third);
    assert.deepEqual(await pagesOf(await invoiceBundle([third])), [[1, 2, 3]]);
    assert.deepEqual(await pagesOf(await invoiceBundle([{ ...third, markers: false }])), [[1, 2, 3]]);
  });

  it("drops a blank separator page", async () => {
    const [first, second] = THREE_INVOICES;
    assert.ok(first && second);
    // first (2 pages), blank page 3, second (page 4)
    assert.deepEqual(await pagesOf(await invoiceBundle([first, second], [0])), [[1, 2], [4]]);
  });
});
