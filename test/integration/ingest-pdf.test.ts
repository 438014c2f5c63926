import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import sharp from "sharp";
import type { Document } from "../../src/document/model.js";
import { ingest, inspect, renderPage } from "../../src/ingest/index.js";
import { withPdf } from "../../src/ingest/pdf-open.js";
import { textLayerWords } from "../../src/ingest/pdf-pages.js";
import {
  A4,
  drawLines,
  makeImagePdf,
  makeTextPdf,
  SAMPLE_LINES,
  scanAsJpeg,
  withBrokenPage,
} from "../helpers/pdf-fixtures.js";

const INVOICES = "/work/shared/data/invoices-dev";
const TOLERANCE = 0.01;

function allWordIds(doc: Document): number[] {
  return doc.pages.flatMap((p) => p.words.map((w) => w.id));
}

describe("ingest: born-digital PDF text layer", () => {
  it("reads exact words with boxes within 1 % of the page of where they were drawn", async () => {
    const { bytes, expected } = await makeTextPdf([SAMPLE_LINES]);
    const doc = await ingest(bytes);
    assert.equal(doc.type, "pdf");
    const page = doc.pages[0]!;
    assert.equal(page.source, "text");
    assert.ok(Math.abs(page.width - A4.width) < 0.01 && Math.abs(page.height - A4.height) < 0.01);
    const want = expected[0]!;
    assert.deepEqual(
      [...page.words.map((w) => w.text)].sort(),
      want.map((w) => w.text).sort(),
      "the text layer gives exactly the drawn words",
    );
    const unmatched = [...page.words];
    for (const w of want) {
      const i = unmatched.findIndex(
        (got) =>
          got.text === w.text &&
          Math.abs(got.box.x0 - w.box.x0) < TOLERANCE &&
          Math.abs(got.box.x1 - w.box.x1) < TOLERANCE &&
          Math.abs(got.box.y0 - w.box.y0) < TOLERANCE &&
          Math.abs(got.box.y1 - w.box.y1) < TOLERANCE,
      );
      assert.ok(i >= 0, `"${w.text}" drawn at ${JSON.stringify(w.box)}; got ${JSON.stringify(page.words)}`);
      unmatched.splice(i, 1);
    }
    assert.ok(page.words.every((w) => w.source === "text" && w.confidence === 1));
  });

  it("groups words into visual rows in reading order, even across a wide gap", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES]);
    const page = (await ingest(bytes)).pages[0]!;
    const byId = new Map(page.words.map((w) => [w.id, w.text]));
    const lines = page.lines.map((l) => l.wordIds.map((id) => byId.get(id)).join(" "));
    assert.deepEqual(lines, [
      "ACME Supplies Limited",
      "Invoice Number INV-2024-0042",
      "Invoice Date 15 March 2024",
      "Customer Northwind Traders",
      "Description Amount",
      "Office chairs 840.00",
      "Standing desk 394.56",
      "Total Amount Due 1234.56 EUR",
      "Payment within thirty days to our bank account",
    ]);
    assert.deepEqual(
      page.lines.flatMap((l) => l.wordIds),
      page.words.map((w) => w.id),
      "words are listed in reading order",
    );
  });

  it("numbers words uniquely across pages and reports each page", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES, SAMPLE_LINES.slice(0, 3)]);
    const seen: number[] = [];
    const doc = await ingest(bytes, { onPage: (p) => seen.push(p.pageNum) });
    assert.deepEqual(
      doc.pages.map((p) => p.pageNum),
      [1, 2],
    );
    assert.deepEqual(seen.sort(), [1, 2]);
    const ids = allWordIds(doc);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.every(Number.isInteger));
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc, "the Document is plain JSON");
    assert.deepEqual(await inspect(bytes), { type: "pdf", pageCount: 2 });
  });

  it("applies page rotation: a /Rotate 90 page gives upright ratios on a landscape page", async () => {
    const { PDFDocument, degrees } = await import("pdf-lib");
    const { bytes } = await makeTextPdf([[{ text: "Rotated heading", x: 60, y: 780, size: 16 }]]);
    const pdf = await PDFDocument.load(bytes);
    pdf.getPage(0).setRotation(degrees(90));
    const page = (await ingest(await pdf.save())).pages[0]!;
    assert.ok(page.width > page.height, "rotated page is landscape");
    const word = page.words.find((w) => w.text === "Rotated")!;
    // Rotating 90 degrees clockwise moves the top-left text to the top-right, running downwards.
    assert.ok(word.box.x0 > 0.8 && word.box.y1 - word.box.y0 > word.box.x1 - word.box.x0, JSON.stringify(word.box));
  });

  it("treats a few words stamped on a page-sized image as a scan, but keeps a full text layer over an image", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES]);
    const scanned = await makeImagePdf([await scanAsJpeg(bytes, 1, 72)]);
    const stamped = await drawLines(scanned, [{ text: "Page 1 of 1", x: 60, y: 20, size: 9 }]);
    assert.equal(await withPdf(stamped, (doc) => textLayerWords(doc, 1)), undefined, "stamped scan goes to OCR");
    const overlaid = await drawLines(scanned, SAMPLE_LINES);
    const layer = await withPdf(overlaid, (doc) => textLayerWords(doc, 1));
    assert.ok(
      layer?.words.some((w) => w.text === "INV-2024-0042"),
      "a real text layer over a background image is kept",
    );
    const plain = await withPdf(
      await makeTextPdf([[{ text: "Page 1 of 1", x: 60, y: 20, size: 9 }]]).then((m) => m.bytes),
      (doc) => textLayerWords(doc, 1),
    );
    assert.equal(plain?.words.length, 4, "a sparse page without images keeps its text layer");
  });

  it("renders any page as a PNG at the requested dpi", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES, []]);
    const png = await renderPage(bytes, 2, { dpi: 72 });
    const meta = await sharp(png).metadata();
    assert.equal(meta.format, "png");
    assert.equal(meta.width, Math.round(A4.width));
    assert.equal(meta.height, Math.round(A4.height));
    await assert.rejects(renderPage(bytes, 3), { code: "not_found" });
  });

  it("reads every dev invoice from its text layer with sensible words", async () => {
    const files = readdirSync(INVOICES).filter((f) => f.endsWith(".pdf"));
    assert.ok(files.length > 0);
    for (const file of files) {
      const doc = await ingest(new Uint8Array(readFileSync(join(INVOICES, file))));
      const words = doc.pages.flatMap((p) => p.words);
      assert.ok(
        doc.pages.every((p) => p.source === "text"),
        `${file}: every page from the text layer`,
      );
      assert.ok(words.length > 30, `${file}: ${words.length} words`);
      const wordy = words.filter((w) => /[\p{L}\p{N}]/u.test(w.text)).length;
      assert.ok(wordy / words.length > 0.8, `${file}: mostly letters/digits`);
      assert.ok(
        words.every((w) => w.box.x0 <= w.box.x1 && w.box.y0 < w.box.y1 && w.box.x1 <= 1 && w.box.y1 <= 1),
        `${file}: boxes inside the page`,
      );
      assert.ok(
        words.some((w) => /^-?\d[\d.,]*[.,]\d{2}$/.test(w.text)),
        `${file}: has an amount as one word`,
      );
    }
  });
});

describe("ingest: a page that cannot be read", () => {
  it("is kept without words and named in a page_unreadable warning; the other pages are read", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES, SAMPLE_LINES.slice(0, 3), SAMPLE_LINES]);
    const broken = await withBrokenPage(bytes, 3);
    assert.deepEqual(await inspect(broken), { type: "pdf", pageCount: 3 }, "accepted at upload");
    const seen: number[] = [];
    const doc = await ingest(broken, { onPage: (p) => seen.push(p.pageNum) });
    assert.deepEqual(
      doc.pages.map((p) => [p.pageNum, p.words.length > 0]),
      [
        [1, true],
        [2, true],
        [3, false],
      ],
    );
    assert.ok(doc.pages[1]!.words.some((w) => w.text === "INV-2024-0042"));
    assert.deepEqual(seen.sort(), [1, 2], "progress is reported for the pages read");
    assert.equal(doc.warnings?.length, 1);
    assert.equal(doc.warnings[0]!.code, "page_unreadable");
    assert.equal(doc.warnings[0]!.page, 3);
    assert.match(doc.warnings[0]!.message, /^Page 3 could not be read/);
    assert.equal((await ingest(bytes)).warnings, undefined, "no warnings when every page reads");
    await assert.rejects(renderPage(broken, 3), { code: "corrupt_file" });
  });

  it("fails the file as corrupt when pdf.js cannot open it past a broken first page", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES, SAMPLE_LINES]);
    const broken = await withBrokenPage(bytes, 1);
    await assert.rejects(inspect(broken), { code: "corrupt_file" });
    await assert.rejects(ingest(broken), { code: "corrupt_file" });
  });
});
