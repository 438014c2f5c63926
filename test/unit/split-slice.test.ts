import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PDFDocument } from "pdf-lib";
import { ingest } from "../../src/ingest/index.js";
import { sliceFile } from "../../src/split/index.js";
import { scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { invoiceBundle, THREE_INVOICES } from "./split-invoices.js";

const words = (doc: Awaited<ReturnType<typeof ingest>>, page: number): string =>
  (doc.pages[page - 1]?.words ?? []).map((w) => w.text).join(" ");

describe("sliceFile", () => {
  it("makes a real PDF of the chosen pages, text layer intact", async () => {
    const bundle = await invoiceBundle(THREE_INVOICES);
    const child = await sliceFile(bundle, [4, 5, 6]);
    assert.equal(child.type, "pdf");
    assert.equal((await PDFDocument.load(child.bytes)).getPageCount(), 3);
    const doc = await ingest(child.bytes);
    assert.equal(doc.pages.length, 3);
    assert.match(words(doc, 1), /GX-5521-B/);
    assert.match(words(doc, 3), /Page 3 of 3/);
  });

  it("rejects pages outside the source", async () => {
    const bundle = await invoiceBundle(THREE_INVOICES.slice(1, 2));
    await assert.rejects(sliceFile(bundle, [2]), RangeError);
    await assert.rejects(sliceFile(bundle, []), RangeError);
  });

  it("returns an image upload itself as its only child", async () => {
    const jpeg = new Uint8Array(await scanAsJpeg(await invoiceBundle(THREE_INVOICES.slice(1, 2)), 1, 50));
    const child = await sliceFile(jpeg, [1]);
    assert.equal(child.type, "jpeg");
    assert.equal(child.bytes, jpeg);
    await assert.rejects(sliceFile(jpeg, [2]), RangeError);
  });
});
