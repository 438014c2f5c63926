/**
 * PaddleOCR as a full engine (issue #16): on a generated page with known text and boxes, the PP-OCRv4 detector finds
 * the lines and the recogniser reads them, as well as tesseract reads the same page, each word's box where the page
 * prints it. Then the whole path: DOCSIFT_OCR_ENGINE=paddle through `ingest` and `docsift extract`. Real models, real
 * tesseract, real recogniser process.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Box } from "../../src/document/model.js";
import { createOcrEngine, ingest, type OcrEngine, type OcrResult } from "../../src/ingest/index.js";
import { createDefaultOcrEngine } from "../../src/ingest/ocr/factory.js";
import { ocrConfig } from "../../src/runtime/config.js";
import { type ExpectedWord, makeTextPdf, SAMPLE_LINES, scanAsJpeg, wordRecall } from "../helpers/pdf-fixtures.js";

/** A word's box is in place when its centre is within this share of the page of the printed word's. */
const CENTRE_TOLERANCE = 0.012;

const centre = (b: Box): [number, number] => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];

/** Every expected word read with the same text has its box where the page prints it; returns how many did. */
function wordsInPlace(expected: readonly ExpectedWord[], result: OcrResult): number {
  let placed = 0;
  for (const word of expected) {
    const [ex, ey] = centre(word.box);
    const read = result.words
      .filter((w) => w.text === word.text)
      .map((w) => centre(w.box))
      .sort((a, b) => Math.hypot(a[0] - ex, a[1] - ey) - Math.hypot(b[0] - ex, b[1] - ey))[0];
    if (!read) continue;
    assert.ok(
      Math.abs(read[0] - ex) < CENTRE_TOLERANCE && Math.abs(read[1] - ey) < CENTRE_TOLERANCE,
      `${word.text}: read at ${read.map((v) => v.toFixed(3))}, printed at ${[ex, ey].map((v) => v.toFixed(3))}`,
    );
    placed++;
  }
  return placed;
}

/** The docsift CLI run from source, as a user runs it. */
function docsift(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "../../src/cli/main.ts"), ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
}

describe("PaddleOCR engine: detection + recognition on a page with known text", () => {
  let expected: ExpectedWord[];
  let scan: Buffer;
  const engines: OcrEngine[] = [];

  before(async () => {
    const made = await makeTextPdf([SAMPLE_LINES]);
    expected = made.expected[0]!;
    scan = await scanAsJpeg(made.bytes);
  });
  after(() => Promise.all(engines.map((e) => e.close?.())));

  for (const kind of ["paddle", "tesseract-cli"] as const) {
    it(`${kind} reads the page's words, each box where it is printed`, async () => {
      const engine = createOcrEngine(kind);
      engines.push(engine);
      const result = await engine.recognise(scan);
      const texts = result.words.map((w) => w.text);
      const recall = wordRecall(
        expected.map((w) => w.text),
        texts,
      );
      assert.ok(recall >= 0.9, `${kind} recall ${recall.toFixed(2)}: ${texts.join(" ")}`);
      assert.ok(wordsInPlace(expected, result) >= 0.9 * expected.length);
      for (const w of result.words) assert.ok(w.confidence > 0 && w.confidence <= 1, JSON.stringify(w));
      // One line per line printed, in reading order: "Total Amount Due" before "Payment ...".
      const lineTexts = (result.lines ?? []).map((l) => l.map((i) => result.words[i]!.text).join(" "));
      const total = lineTexts.findIndex((l) => l.includes("Due"));
      const payment = lineTexts.findIndex((l) => l.startsWith("Payment"));
      assert.ok(total >= 0 && payment > total, JSON.stringify(lineTexts));
    });
  }

  it("DOCSIFT_OCR_ENGINE=paddle reads an uploaded image through ingest", async () => {
    const settings = ocrConfig({ DOCSIFT_OCR_ENGINE: "paddle", PATH: process.env.PATH ?? "" });
    assert.equal(settings.engine, "paddle");
    // tesseract and auto (tesseract measured best on every kind of page) leave the choice to the factory.
    for (const name of ["tesseract", "auto"]) assert.equal(ocrConfig({ DOCSIFT_OCR_ENGINE: name }).engine, undefined);
    const engine = createDefaultOcrEngine(settings);
    engines.push(engine);
    const document = await ingest(scan, { ocr: engine });
    const page = document.pages[0]!;
    assert.equal(page.source, "ocr");
    assert.equal(document.warnings, undefined, "PaddleOCR read the page itself (no fallback)");
    const recall = wordRecall(
      expected.map((w) => w.text),
      page.words.map((w) => w.text),
    );
    assert.ok(recall >= 0.9, `recall ${recall.toFixed(2)}`);
  });

  it("docsift ocr --engine paddle prints the words PaddleOCR read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "docsift-paddle-"));
    try {
      const file = join(dir, "scan.jpg");
      await writeFile(file, scan);
      const out = docsift(["ocr", file, "--engine", "paddle"]);
      assert.equal(out.status, 0, out.stderr);
      const doc = JSON.parse(out.stdout) as { pages: { source: string; words: { text: string }[] }[] };
      assert.equal(doc.pages[0]?.source, "ocr");
      assert.ok(
        doc.pages[0]?.words.some((w) => w.text.includes("INV-2024-0042")),
        doc.pages[0]?.words.map((w) => w.text).join(" "),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("docsift extract with DOCSIFT_OCR_ENGINE=paddle finds the invoice's fields", async () => {
    const dir = await mkdtemp(join(tmpdir(), "docsift-paddle-"));
    try {
      const file = join(dir, "scan.jpg");
      await writeFile(file, scan);
      const out = docsift(["extract", "--product", "invoices", "--format", "jsonl", file], {
        DOCSIFT_OCR_ENGINE: "paddle",
      });
      assert.equal(out.status, 0, out.stderr);
      const line = JSON.parse(out.stdout.trim()) as {
        status: string;
        results?: { fields: { name: string; value: unknown }[]; warnings?: unknown[] };
      };
      assert.equal(line.status, "FINALISED");
      assert.equal(line.results?.warnings, undefined);
      const value = (name: string) => line.results?.fields.find((f) => f.name === name)?.value;
      assert.equal(value("invoice.number"), "INV-2024-0042");
      assert.equal(value("invoice.total"), "1234.56");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
