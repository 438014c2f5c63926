import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sniffType } from "../../src/ingest/index.js";

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...Buffer.from(p, "latin1")] : p)));

describe("sniffType", () => {
  it("recognises PDF, PNG and JPEG by their signatures", () => {
    assert.equal(sniffType(bytes("%PDF-1.7\n")), "pdf");
    assert.equal(sniffType(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), "png");
    assert.equal(sniffType(bytes([0xff, 0xd8, 0xff, 0xe1, 0, 0])), "jpeg");
  });

  it("accepts a PDF header after junk within the first KiB, not later", () => {
    assert.equal(sniffType(bytes("\r\n\u00ef\u00bb\u00bf junk ", "%PDF-1.4")), "pdf");
    assert.throws(() => sniffType(bytes(" ".repeat(2000), "%PDF-1.4")), { code: "unsupported_type" });
  });

  it("ignores what the file claims to be: text, HTML, ZIP are unsupported", () => {
    for (const content of ["Invoice.pdf", "<html>%PDF</html>", "PK\u0003\u0004", "%PD"])
      assert.throws(() => sniffType(bytes(content)), { code: "unsupported_type" }, content);
  });

  it("refuses an empty file with its own code", () => {
    assert.throws(() => sniffType(new Uint8Array()), { code: "empty_file" });
  });
});
