import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocsiftError, type ErrorCode } from "../../src/domain/errors.js";
import { ingest, inspect, LIMITS, renderPage } from "../../src/ingest/index.js";
import { encryptPdf, makeBlankPdf, makeTextPdf, pngDeclaring, SAMPLE_LINES } from "../helpers/pdf-fixtures.js";

/** Each bad input must fail the cheap check (inspect) and the full one (ingest) with the same typed error. */
async function assertRefused(bytes: Uint8Array, code: ErrorCode): Promise<void> {
  for (const [name, run] of [
    ["inspect", () => inspect(bytes)],
    ["ingest", () => ingest(bytes)],
  ] as const) {
    await assert.rejects(run(), (err: unknown) => {
      assert.ok(err instanceof DocsiftError, `${name}: ${String(err)}`);
      assert.equal(err.code, code, `${name}: ${err.message}`);
      assert.ok(err.message.length > 0);
      return true;
    });
  }
}

describe("ingest: bad inputs get typed errors", () => {
  it("a text file named .pdf is unsupported", async () => {
    await assertRefused(new TextEncoder().encode("Invoice 42\nTotal 10.00\n"), "unsupported_type");
  });

  it("an empty file", async () => {
    await assertRefused(new Uint8Array(0), "empty_file");
  });

  it("a 21 MB file is too large", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES]);
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(bytes);
    assert.ok(big.byteLength > LIMITS.maxBytes);
    await assertRefused(big, "file_too_large");
  });

  it("17 pages are too many; 16 are fine", async () => {
    await assertRefused(await makeBlankPdf(LIMITS.maxPages + 1), "too_many_pages");
    assert.equal((await inspect(await makeBlankPdf(LIMITS.maxPages))).pageCount, LIMITS.maxPages);
  });

  it("a truncated PDF is corrupt", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES, SAMPLE_LINES]);
    for (const share of [0.9, 0.6, 0.3])
      await assertRefused(bytes.slice(0, Math.floor(bytes.length * share)), "corrupt_file");
  });

  it("a user-password PDF is encrypted; an owner-password-only PDF opens", async () => {
    const { bytes } = await makeTextPdf([SAMPLE_LINES]);
    await assertRefused(encryptPdf(bytes, "user-secret"), "encrypted_pdf");
    const ownerOnly = await ingest(encryptPdf(bytes, ""));
    assert.ok(ownerOnly.pages[0]!.words.some((w) => w.text === "INV-2024-0042"));
  });

  it("a PNG declaring 50,000 x 50,000 pixels is refused before decoding", async () => {
    const bomb = pngDeclaring(50_000, 50_000);
    await assertRefused(bomb, "image_too_large");
    await assert.rejects(renderPage(bomb, 1), { code: "image_too_large" });
  });

  it("a damaged image is corrupt", async () => {
    await assertRefused(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]), "corrupt_file");
    await assertRefused(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]), "corrupt_file");
  });
});
