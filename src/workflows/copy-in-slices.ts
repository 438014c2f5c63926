/**
 * Copies of whole uploads (up to 20 MiB) made a slice at a time, yielding to the event loop between slices. One
 * 13 MB copy at once held the API's event loop for 20-25 ms (the fresh pages fault in as they are written), and an
 * upload made two back to back (gathering the form's chunks, then the inspection's own copy).
 */

/** Bytes copied per turn of the event loop: well under a millisecond on an idle core. */
const SLICE_BYTES = 1024 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** `parts` one after another in one new Buffer with its own ArrayBuffer (so it can be transferred). */
export async function concatInSlices(parts: readonly Uint8Array[]): Promise<Buffer<ArrayBuffer>> {
  const whole = Buffer.allocUnsafeSlow(parts.reduce((n, part) => n + part.byteLength, 0));
  let at = 0;
  let sinceYield = 0;
  for (const part of parts) {
    for (let from = 0; from < part.byteLength; ) {
      const take = Math.min(part.byteLength - from, SLICE_BYTES - sinceYield);
      whole.set(part.subarray(from, from + take), at);
      at += take;
      from += take;
      sinceYield += take;
      if (sinceYield === SLICE_BYTES) {
        sinceYield = 0;
        await nextTurn();
      }
    }
  }
  return whole;
}
