import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Page } from "../../src/document/model.js";
import { boxAsUploaded } from "../../src/document/page-frame.js";
import type { ExtractedField } from "../../src/domain/result.js";
import { boxesAsUploaded } from "../../src/extract/boxes-as-uploaded.js";
import { extractResult } from "../../src/extract/index.js";
import { ingest } from "../../src/ingest/index.js";
import { DEFAULT_PAGE_TIMEOUT_MS } from "../../src/ingest/ocr/engine.js";
import { createDefaultOcrEngine } from "../../src/ingest/ocr/factory.js";
import { A4_200DPI, pointOnTurned, textPage, turned } from "../helpers/text-page.js";

const LINES = [
  "Rechnung Nr. 4711 vom 12. März 2025",
  "Lieferant: Müllermann GmbH, Lieferantenstraße 20, 50667 Köln",
  "Beschreibung der gelieferten Waren und Dienstleistungen",
  "Gesamtbetrag zahlbar innerhalb von 30 Tagen: 1.234,50 EUR",
  "Vielen Dank für Ihren Auftrag. Grüße aus Düsseldorf",
];
const WORDS = LINES.join(" ").split(" ");
/** Words whose boxes are compared between the upright page and the turned ones. */
const LANDMARKS = ["Rechnung", "Müllermann", "Lieferantenstraße", "Beschreibung", "Düsseldorf"];

function recall(page: Page): number {
  const read = new Set(page.words.map((w) => w.text));
  return WORDS.filter((w) => read.has(w)).length / WORDS.length;
}

/** The page's lines as text, in the page's reading order. */
const lineTexts = (page: Page): string[] => {
  const byId = new Map(page.words.map((w) => [w.id, w.text]));
  return page.lines.map((line) => line.wordIds.map((id) => byId.get(id)).join(" "));
};

/** Centre of a word's box: in the page's own frame, or (`asUploaded`) on the page as uploaded. */
const centre = (page: Page, text: string, asUploaded = false) => {
  const word = page.words.find((w) => w.text === text);
  assert.ok(word, `"${text}" is read: ${page.words.map((w) => w.text).join(" ")}`);
  const box = asUploaded ? boxAsUploaded(word.box, page) : word.box;
  return { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 };
};

const FIELDS = resolveFields({ products: ["invoices"], fieldSets: [] });

/** The fields found on a one-page document, by name, with their boxes on the page as uploaded (as results give them). */
function extracted(page: Page): Map<string, ExtractedField> {
  const document = { type: "png" as const, pages: [page] };
  const fields = boxesAsUploaded(document, extractResult(document, FIELDS).fields);
  return new Map(fields.filter((f) => f.value !== null).map((f) => [f.name, f]));
}

/** Pages uploaded turned by a quarter, a half and three quarters, and tilted ±3°, read upright by the default engine. */
describe("OCR: pages scanned sideways, upside down or skewed", () => {
  const engine = createDefaultOcrEngine({
    engine: "tesseract-cli",
    fallback: false,
    reread: false,
    pageTimeoutMs: DEFAULT_PAGE_TIMEOUT_MS,
    searchPath: "",
  });
  let upright: Buffer;
  let uprightPage: Page;

  before(async () => {
    upright = await textPage(LINES);
    uprightPage = (await ingest(upright, { ocr: engine })).pages[0]!;
  });

  after(async () => {
    await engine.close?.();
  });

  it("reads the upright page", () => {
    assert.ok(recall(uprightPage) >= 0.95, `recall ${recall(uprightPage)}`);
  });

  for (const degrees of [90, 180, 270, 3, -3]) {
    it(`reads a page turned ${degrees}° as the upright page, its boxes where they lie on the page as uploaded`, async () => {
      const upload = await turned(upright, degrees);
      const size = await sharp(upload).metadata();
      const turnedSize = { width: size.width!, height: size.height! };
      const page = (await ingest(upload, { ocr: engine })).pages[0]!;
      // The Document holds the page turned back by a quarter or half turn, which it records, with the upright page's
      // size; a skew of a few degrees stays in its boxes, on the page as uploaded.
      const skewed = Math.abs(degrees) < 45;
      assert.equal(page.rotation, skewed ? undefined : 360 - degrees);
      const frame = skewed ? turnedSize : A4_200DPI;
      assert.deepEqual({ width: page.width, height: page.height }, frame);
      assert.ok(recall(page) >= 0.95, `recall ${recall(page)}: ${page.words.map((w) => w.text).join(" ")}`);
      /** Where a point of the upright page (ratios) is printed on the page as uploaded, in pixels. */
      const printedAt = (p: { x: number; y: number }) =>
        pointOnTurned({ x: p.x * A4_200DPI.width, y: p.y * A4_200DPI.height }, degrees, A4_200DPI, turnedSize);
      const offBy = (got: { x: number; y: number }, expected: { x: number; y: number }) =>
        Math.hypot(got.x * turnedSize.width - expected.x, got.y * turnedSize.height - expected.y);
      for (const text of LANDMARKS) {
        const off = offBy(centre(page, text, true), printedAt(centre(uprightPage, text)));
        assert.ok(off < 12, `"${text}" lies ${off.toFixed(1)} px from where it is printed on the uploaded page`);
        if (frame === A4_200DPI) {
          // A quarter or half turn: upright, the word is where it is on the upright page.
          const [got, upright] = [centre(page, text), centre(uprightPage, text)];
          const drift = Math.hypot((got.x - upright.x) * frame.width, (got.y - upright.y) * frame.height);
          assert.ok(drift < 12, `"${text}" lies ${drift.toFixed(1)} px from its place on the upright page`);
        }
      }
      // Extraction reads the turned page as the upright one, and each field's box is where its value is printed
      // on the page as uploaded.
      const fields = extracted(page);
      const uprightFields = extracted(uprightPage);
      const values = (m: Map<string, ExtractedField>) =>
        [...m].map(([name, f]) => `${name}=${JSON.stringify(f.value)}`);
      assert.deepEqual(values(fields), values(uprightFields));
      assert.ok(uprightFields.size >= 4, `fields found upright: ${values(uprightFields).join(", ")}`);
      for (const [name, field] of fields) {
        const box = field.boundingBox;
        const uprightBox = uprightFields.get(name)?.boundingBox;
        if (!box || !uprightBox) continue;
        const middle = (b: typeof box) => ({
          x: (b.topLeft.x + b.bottomRight.x) / 2,
          y: (b.topLeft.y + b.bottomRight.y) / 2,
        });
        for (const v of [box.topLeft.x, box.topLeft.y, box.bottomRight.x, box.bottomRight.y])
          assert.ok(v >= 0 && v <= 1);
        const off = offBy(middle(box), printedAt(middle(uprightBox)));
        assert.ok(off < 12, `${name}'s box lies ${off.toFixed(1)} px from where its value is printed on the upload`);
      }
      // Lines and their order are those of the page read upright, not of the page as it lies.
      const lines = lineTexts(page);
      const first = lines.findIndex((l) => l.includes("Rechnung Nr. 4711 vom"));
      const last = lines.findIndex((l) => l.includes("Vielen Dank für Ihren"));
      assert.ok(first >= 0 && last > first, `lines in upright reading order: ${JSON.stringify(lines)}`);
      assert.ok(
        lines.some((l) => l.includes("Gesamtbetrag zahlbar innerhalb von 30 Tagen")),
        `a line reads left to right upright: ${JSON.stringify(lines)}`,
      );
    });
  }
});
