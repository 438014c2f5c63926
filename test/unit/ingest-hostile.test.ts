/**
 * Ingest's defences against hostile PDFs that need no OCR to check: the render size never exceeds its pixel and
 * side caps whatever the MediaBox, and decompression bombs in any stream are refused before pdf.js reads them,
 * whatever the stream's dictionary claims and through every filter chain, while honest files and DCT images
 * within the pixel limit pass.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deflateRawSync, deflateSync } from "node:zlib";
import fc from "fast-check";
import { DocsiftError } from "../../src/domain/errors.js";
import { inspect, LIMITS } from "../../src/ingest/index.js";
import { asciiHex, type Decoder, ascii85 as decodeAscii85, lzw, runLength } from "../../src/ingest/pdf-decoders.js";
import { checkStreamExpansion, declaredChains, sniffedChain } from "../../src/ingest/pdf-streams.js";
import { renderSize } from "../../src/ingest/rasterise.js";
import {
  ascii85,
  type ContentBombKind,
  jpegDeclaring,
  lzwZeros,
  mutate,
  mutationArbitrary,
  pdfWithCatalogInObjectStream,
  pdfWithContentBomb,
  pdfWithHiddenContentBomb,
  pdfWithHugeObjectStream,
  pdfWithImageBomb,
  rawPdf,
  runLengthSpaces,
  streamBombFamily,
} from "../helpers/hostile-files.js";
import { makeTextPdf, SAMPLE_LINES, scanAsJpeg } from "../helpers/pdf-fixtures.js";
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

const refusedAsBomb = (err: unknown): boolean =>
  err instanceof DocsiftError && err.code === "file_too_large" && /decompression bomb/.test(err.message);

/** Just past the limit, so the tests stay quick while a miss would still let a bomb through. */
const PAST_LIMIT_MB = LIMITS.maxExpandedBytes / 1024 / 1024 + 16;

function streamPdf(dict: string, data: Buffer): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
    Buffer.concat([
      Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, "latin1"),
      data,
      Buffer.from("\nendstream", "latin1"),
    ]),
  ]);
}

describe("decompression bombs", () => {
  test("a content stream inflating past the limit is refused, at upload too", async () => {
    await assert.rejects(checkStreamExpansion(pdfWithContentBomb(PAST_LIMIT_MB)), refusedAsBomb);
    await assert.rejects(inspect(pdfWithContentBomb(PAST_LIMIT_MB)), refusedAsBomb);
  });

  test("chained Flate filters are counted through every stage", async () => {
    const inner = deflateSync(Buffer.alloc(LIMITS.maxExpandedBytes + 1024 * 1024));
    const twice = deflateSync(inner);
    assert.ok(twice.length < 64 * 1024, "the double bomb should be tiny on disk");
    await assert.rejects(checkStreamExpansion(streamPdf("/Filter [/FlateDecode /Fl]", twice)), refusedAsBomb);
  });

  test("a Flate stream is found by its zlib header when its dictionary does not say so", async () => {
    const bomb = deflateSync(Buffer.alloc(LIMITS.maxExpandedBytes + 1024 * 1024));
    await assert.rejects(checkStreamExpansion(streamPdf("/Junk (obj)", bomb)), refusedAsBomb);
  });

  test("an object stream holding the Catalog counts although its dictionary says /Subtype /Image", async () => {
    const pdf = await pdfWithCatalogInObjectStream(PAST_LIMIT_MB, "/Subtype /Image");
    await assert.rejects(checkStreamExpansion(pdf), refusedAsBomb);
  });

  const kinds: ContentBombKind[] = [
    "flate-subtype-image",
    "hex-flate",
    "a85-flate",
    "lzw",
    "runlength",
    "hex-flate-obj-in-dict",
    "hex-flate-escaped-key",
    "hex-flate-indirect-filter",
  ];
  for (const kind of kinds) {
    test(`a content bomb behind ${kind} is refused`, async () => {
      await assert.rejects(checkStreamExpansion(await pdfWithHiddenContentBomb(kind, PAST_LIMIT_MB)), refusedAsBomb);
    });
  }

  test("a bomb is found by its data when the dictionary is unreadable to the scan", async () => {
    // A fake stream inside a string cuts the dictionary the scan sees; the data still shows hex, then zlib.
    const hex = Buffer.from(`${deflateSync(Buffer.alloc(PAST_LIMIT_MB * 1024 * 1024)).toString("hex")}>`);
    const dict = "/Filter [/AHx /Fl] /Note (stream\nendstream)";
    await assert.rejects(checkStreamExpansion(streamPdf(dict, hex)), refusedAsBomb);
  });

  test("the word endstream inside the data does not cut what a correct /Length says", async () => {
    // A zlib stream whose first block stores the bytes "endstream" literally, then the deflated bomb.
    const stored = Buffer.from([0x78, 0x9c, 0x00, 9, 0, 0xf6, 0xff, ...Buffer.from("endstream")]);
    const data = Buffer.concat([stored, deflateRawSync(Buffer.alloc(PAST_LIMIT_MB * 1024 * 1024))]);
    await assert.rejects(checkStreamExpansion(streamPdf("/Filter /FlateDecode", data)), refusedAsBomb);
  });

  test("a Flate image counts, a DCT image within the pixel limit does not, one declaring past it does", async () => {
    await assert.rejects(checkStreamExpansion(pdfWithImageBomb(20_000, 20_000, PAST_LIMIT_MB)), refusedAsBomb);
    const jpeg = await scanAsJpeg((await makeTextPdf([SAMPLE_LINES])).bytes, 1, 100);
    await checkStreamExpansion(
      streamPdf("/Type /XObject /Subtype /Image /Width 100000 /Height 100000 /Filter /DCTDecode", jpeg),
    );
    await assert.rejects(
      checkStreamExpansion(
        streamPdf("/Subtype /Image /Width 10 /Height 10 /Filter /DCTDecode", jpegDeclaring(60_000, 60_000)),
      ),
      refusedAsBomb,
    );
  });

  test("object streams declaring millions of objects are refused before pdf.js parses them", async () => {
    await assert.rejects(checkStreamExpansion(pdfWithHugeObjectStream(LIMITS.maxPackedObjects + 1)), (err: unknown) => {
      return err instanceof DocsiftError && err.code === "file_too_large" && /object streams/.test(err.message);
    });
    await checkStreamExpansion(pdfWithHugeObjectStream(1000));
  });

  test("honest files pass", async () => {
    await checkStreamExpansion(await invoicePdf({ number: "A-1", date: "2024-05-01", total: "10.00", pages: 3 }));
    await checkStreamExpansion((await makeTextPdf([SAMPLE_LINES])).bytes);
    const content = Buffer.from("BT /F1 12 Tf 60 760 Td (Total 12.50) Tj ET");
    await checkStreamExpansion(streamPdf("/Filter /ASCIIHexDecode", Buffer.from(`${content.toString("hex")}>`)));
  });

  test("every family file is refused within seconds", async () => {
    for (const file of await streamBombFamily()) {
      const started = performance.now();
      await assert.rejects(checkStreamExpansion(file.bytes), refusedAsBomb, file.name);
      assert.ok(performance.now() - started < 10_000, `${file.name} took ${performance.now() - started} ms`);
    }
  });
});

describe("filter chains", () => {
  test("are read through escapes, abbreviations, strings holding obj, and references", () => {
    assert.deepEqual(declaredChains("1 0 obj << /Length 5 /Filter [ /FlateDecode /DCTDecode ] >>"), [
      ["FlateDecode", "DCTDecode"],
    ]);
    assert.deepEqual(declaredChains("<< /Filter/Fl /Note (obj) /Length 3 >>"), [["FlateDecode"]]);
    assert.deepEqual(declaredChains("<< /Fil#74er [/AHx/LZW] >>"), [["ASCIIHexDecode", "LZWDecode"]]);
    assert.deepEqual(declaredChains("<< /Length 3 >>"), []);
    assert.deepEqual(declaredChains("7 0 obj [/A85 /Fl] endobj 8 0 obj << /Filter 7 0 R >>"), [
      ["ASCII85Decode", "FlateDecode"],
    ]);
  });

  test("are read from the data when it shows hex, ASCII85 or zlib, stage after stage", async () => {
    const flate = deflateSync(Buffer.from("BT (x) Tj ET"));
    assert.deepEqual(await sniffedChain(flate), ["FlateDecode"]);
    assert.deepEqual(await sniffedChain(Buffer.from(`${flate.toString("hex")}>`)), ["ASCIIHexDecode", "FlateDecode"]);
    assert.deepEqual(await sniffedChain(Buffer.from(ascii85(deflateSync(flate)))), [
      "ASCII85Decode",
      "FlateDecode",
      "FlateDecode",
    ]);
    // Plain content looks like ASCII85 text, but nothing pdf.js would inflate follows it.
    assert.deepEqual(await sniffedChain(Buffer.from("q 595 0 0 842 0 0 cm /Im Do Q")), []);
  });
});

async function decodeAll(decoder: Decoder, data: Uint8Array): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  async function* once(): AsyncIterable<Uint8Array> {
    yield data;
  }
  for await (const chunk of decoder(once())) parts.push(chunk);
  return Buffer.concat(parts);
}

describe("stream decoders", () => {
  test("decode what PDF's encoders make", async () => {
    const text = Buffer.from("Invoice INV-77 Total 12.50 EUR\n\0\0\0\0 end");
    assert.deepEqual(await decodeAll(asciiHex, Buffer.from(`${text.toString("hex")}\n>`)), text);
    assert.deepEqual(await decodeAll(asciiHex, Buffer.from("4 1 4>")), Buffer.from("A@"));
    assert.deepEqual(await decodeAll(decodeAscii85, Buffer.from(ascii85(text))), text);
    assert.deepEqual(await decodeAll(runLength, runLengthSpaces(1000)), Buffer.alloc(1024, 0x20));
    // 129 -> 128 copies of the next byte; 2 -> the next 3 bytes literally; 128 ends the data.
    assert.equal((await decodeAll(runLength, new Uint8Array([129, 0x41, 2, 1, 2, 3, 128, 9, 9]))).length, 128 + 3);
    const zeros = await decodeAll(lzw(1), lzwZeros(5_000_000));
    assert.ok(zeros.length >= 5_000_000 && zeros.every((b) => b === 0), String(zeros.length));
  });

  test("end on any input without throwing, and stop when the reader stops", async () => {
    const decoders: Decoder[] = [asciiHex, decodeAscii85, runLength, lzw(0), lzw(1)];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), fc.integer({ min: 0, max: 4 }), async (data, which) => {
        await decodeAll(decoders[which] ?? asciiHex, data);
      }),
      { seed: 22, numRuns: 500 },
    );
    let read = 0;
    for await (const chunk of lzw(1)(
      (async function* () {
        yield lzwZeros(1024 * 1024 * 1024);
      })(),
    )) {
      read += chunk.length;
      if (read > 8 * 1024 * 1024) break;
    }
    assert.ok(read < 64 * 1024 * 1024, String(read));
  });
});

describe("stream scan fuzz", () => {
  test("mutations of the bomb family end refused or accepted by the scan, never otherwise, within seconds", async () => {
    const seeds = await Promise.all([
      pdfWithCatalogInObjectStream(PAST_LIMIT_MB, "/Subtype /Image"),
      pdfWithHiddenContentBomb("hex-flate", PAST_LIMIT_MB),
      pdfWithHiddenContentBomb("a85-flate", PAST_LIMIT_MB),
      pdfWithHiddenContentBomb("lzw", PAST_LIMIT_MB),
      pdfWithHiddenContentBomb("runlength", PAST_LIMIT_MB),
    ]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: seeds.length - 1 }), mutationArbitrary(), async (index, m) => {
        const started = performance.now();
        await checkStreamExpansion(mutate(seeds[index] ?? new Uint8Array(1), m)).catch((err: unknown) => {
          assert.ok(refusedAsBomb(err), String(err));
        });
        assert.ok(performance.now() - started < 10_000);
      }),
      { seed: 2222, numRuns: 40 },
    );
  });
});
