import assert from "node:assert/strict";
import { test } from "node:test";
import { concatInSlices } from "../../src/workflows/copy-in-slices.js";

test("concatInSlices joins the parts in order into a buffer of its own, transferable", async () => {
  const parts = [Buffer.from("abc"), new Uint8Array(3 * 1024 * 1024 + 7).fill(9), Buffer.alloc(0), Buffer.from("z")];
  const whole = await concatInSlices(parts);
  assert.deepEqual(whole, Buffer.concat(parts));
  assert.equal(whole.byteOffset, 0);
  assert.equal(whole.buffer.byteLength, whole.byteLength);
  assert.equal((await concatInSlices([])).byteLength, 0);
});

test("concatInSlices lets the event loop turn while it copies a large upload", async () => {
  let copied = false;
  let turnedMeanwhile = false;
  const copying = concatInSlices([new Uint8Array(4 * 1024 * 1024)]).then(() => {
    copied = true;
  });
  setImmediate(() => {
    turnedMeanwhile = !copied;
  });
  await copying;
  assert.equal(turnedMeanwhile, true);
});
