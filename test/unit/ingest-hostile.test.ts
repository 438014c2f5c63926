/**
 * Ingest's defences against hostile PDFs that need no OCR to check: the render size never exceeds its pixel and
 * side caps whatever the MediaBox, and decompression bombs in non-image streams are refused before pdf.js reads
 * them, while images (bounded by their declared size) and honest files pass.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deflateSync } from "node:zlib";
import fc from "fast-check";
import { DocsiftError } from "../../src/domain/errors.js";
import { inspect, LIMITS } from "../../src/ingest/index.js";
import { checkStreamExpansion, runLengthSize, streamFilters } from "../../src/ingest/pdf-streams.js";
import { renderSize } from "../../src/ingest/rasterise.js";
import { pdfWithContentBomb, pdfWithImageBomb, rawPdf } from "../helpers/hostile-files.js";
import { invoicePdf } from "../helpers/server.js";

describe("render size", () => {
  test("never exceeds 40 MP or 16,384 px a side, for any page size and dpi", () => {
    const points = fc.double({ min: 1e-3, max: 1e12, noNaN: true });
    fc.assert(
      fc.property(points, points, fc.integer({ min: 18, max: 600 }), (w, h, dpi) => {
        const size = renderSize(w, h, dpi);
        assert.ok(size.width >= 1 && size.height >= 1);
        assert.ok(size.width <= 16_384 && size.height <= 16_384, JSON.stringify(size));
        // Rounding may add under a pixel to each side: at most one row and one column past the cap.
        assert.ok(size.width * size.height <= 40_000_000 + size.width + size.height + 1, JSON.stringify(size));
      }),
      { seed: 7, numRuns: 2000 },
    );
  });

  test("an A4 page renders at the asked dpi", () => {
    assert.deepEqual(renderSize(595, 842, 72), { scale: 1, width: 595, height: 842 });
  });
});

describe("decompression bombs", () => {
  const refusedAsBomb = (err: unknown): boolean =>
    err instanceof DocsiftError && err.code === "file_too_large" && /decompression bomb/.test(err.message);

  test("a content stream inflating past the limit is refused, at upload too", async () => {
    const mb = LIMITS.maxExpandedBytes / 1024 / 1024 + 16;
    await assert.rejects(checkStreamExpansion(pdfWithContentBomb(mb)), refusedAsBomb);
    await assert.rejects(inspect(pdfWithContentBomb(mb)), refusedAsBomb);
  });

  test("chained Flate filters are counted through every stage", async () => {
    const inner = deflateSync(Buffer.alloc(LIMITS.maxExpandedBytes + 1024 * 1024));
    const twice = deflateSync(inner);
    assert.ok(twice.length < 64 * 1024, "the double bomb should be tiny on disk");
    const pdf = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
      Buffer.concat([
        Buffer.from(`<< /Filter [/FlateDecode /Fl] /Length ${twice.length} >>\nstream\n`, "latin1"),
        twice,
        Buffer.from("\nendstream", "latin1"),
      ]),
    ]);
    await assert.rejects(checkStreamExpansion(pdf), refusedAsBomb);
  });

  test("a Flate stream is found by its zlib header when its dictionary does not say so", async () => {
    const bomb = deflateSync(Buffer.alloc(LIMITS.maxExpandedBytes + 1024 * 1024));
    const pdf = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
      Buffer.concat([
        Buffer.from(`<< /Length ${bomb.length} /Junk (obj) >>\nstream\n`, "latin1"),
        bomb,
        Buffer.from("\nendstream", "latin1"),
      ]),
    ]);
    await assert.rejects(checkStreamExpansion(pdf), refusedAsBomb);
  });

  test("image streams are left to the pixel limit, and honest files pass", async () => {
    await checkStreamExpansion(pdfWithImageBomb(20_000, 20_000, LIMITS.maxExpandedBytes / 1024 / 1024 + 16));
    await checkStreamExpansion(await invoicePdf({ number: "A-1", date: "2024-05-01", total: "10.00", pages: 3 }));
  });

  test("filters and RunLength sizes are read from the raw stream", () => {
    assert.deepEqual(streamFilters("1 0 obj << /Length 5 /Filter [ /FlateDecode /DCTDecode ] >>"), [
      "FlateDecode",
      "DCTDecode",
    ]);
    assert.deepEqual(streamFilters("<< /Filter/Fl /Length 3 >>"), ["Fl"]);
    assert.deepEqual(streamFilters("<< /Length 3 >>"), []);
    // 129 -> 128 copies of the next byte; 2 -> the next 3 bytes literally; 128 ends the data.
    assert.equal(runLengthSize(new Uint8Array([129, 0x41, 2, 1, 2, 3, 128, 9, 9])), 128 + 3);
  });
});
