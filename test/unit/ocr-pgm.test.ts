import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { parsePgm, pgm } from "../../src/ingest/pgm.js";

describe("parsePgm", () => {
  it("reads back what pgm() writes", () => {
    const grey = Uint8Array.from({ length: 5 * 3 }, (_, i) => i * 17);
    const parsed = parsePgm(pgm(5, 3, grey));
    assert.ok(parsed);
    assert.deepEqual([parsed.width, parsed.height], [5, 3]);
    assert.deepEqual([...parsed.data], [...grey]);
  });

  it("reads a header with comments and other whitespace", () => {
    const bytes = Buffer.concat([Buffer.from("P5\n# made by hand\n2\t2 255\n", "latin1"), Buffer.from([1, 2, 3, 4])]);
    const parsed = parsePgm(bytes);
    assert.deepEqual(parsed && [parsed.width, parsed.height, [...parsed.data]], [2, 2, [1, 2, 3, 4]]);
  });

  it("returns null for what is not an 8-bit binary PGM", async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    assert.equal(parsePgm(png), null);
    assert.equal(parsePgm(Buffer.from("P2\n2 2\n255\n1 2 3 4\n", "latin1")), null);
    assert.equal(parsePgm(Buffer.concat([Buffer.from("P5\n1 1\n65535\n", "latin1"), Buffer.from([0, 0])])), null);
  });

  it("rejects a PGM shorter than its header says", () => {
    assert.throws(() => parsePgm(Buffer.from("P5\n4 4\n255\nabc", "latin1")), /3 pixel bytes, not 16/);
  });
});
