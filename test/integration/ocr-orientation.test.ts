import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { Page } from "../../src/document/model.js";
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

const centre = (page: Page, text: string) => {
  const word = page.words.find((w) => w.text === text);
  assert.ok(word, `"${text}" is read: ${page.words.map((w) => w.text).join(" ")}`);
  return { x: (word.box.x0 + word.box.x1) / 2, y: (word.box.y0 + word.box.y1) / 2 };
};

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
    it(`reads a page turned ${degrees}° and puts its words where they lie on the page as uploaded`, async () => {
      const upload = await turned(upright, degrees);
      const size = await sharp(upload).metadata();
      const turnedSize = { width: size.width!, height: size.height! };
      const page = (await ingest(upload, { ocr: engine })).pages[0]!;
      assert.equal(page.width, turnedSize.width);
      assert.equal(page.height, turnedSize.height);
      assert.ok(recall(page) >= 0.95, `recall ${recall(page)}: ${page.words.map((w) => w.text).join(" ")}`);
      for (const text of LANDMARKS) {
        const before = centre(uprightPage, text);
        const expected = pointOnTurned(
          { x: before.x * A4_200DPI.width, y: before.y * A4_200DPI.height },
          degrees,
          A4_200DPI,
          turnedSize,
        );
        const got = centre(page, text);
        const off = Math.hypot(got.x * turnedSize.width - expected.x, got.y * turnedSize.height - expected.y);
        assert.ok(off < 12, `"${text}" lies ${off.toFixed(1)} px from where it is printed on the uploaded page`);
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
