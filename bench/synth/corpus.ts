/** Which document sits at which index of a seeded corpus (shared by the corpus CLI and the split bench). */
import type { DocumentKind } from "./document.js";
import { Rng } from "./prng.js";

export interface CorpusEntry {
  index: number;
  seed: number;
  kind: DocumentKind;
}

/** Per-document seeds and kinds: document i is the same whatever --count is. */
export function corpusPlan(seed: number, count: number, invoiceShare: number): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (let index = 0; index < count; index++) {
    const docSeed = (Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
    const kind: DocumentKind = new Rng(docSeed ^ 0xabcdef).next() < invoiceShare ? "invoice" : "receipt";
    entries.push({ index, seed: docSeed, kind });
  }
  return entries;
}
