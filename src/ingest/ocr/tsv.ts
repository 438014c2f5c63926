import { DocsiftError } from "../../domain/errors.js";
import type { RawWord } from "../page-builder.js";
import { repairConfusions } from "./confusions.js";
import type { OcrResult } from "./engine.js";

/** TSV level of a page row (carries the image size) and of a word row. */
const PAGE_LEVEL = "1";
const WORD_LEVEL = "5";

/**
 * Parses tesseract's TSV (`level page block par line word left top width height conf text`), which both engines
 * produce, into words with ratio boxes and tesseract's lines (words sharing page/block/paragraph/line numbers). Empty
 * and whitespace-only words (tesseract emits them for noise) are dropped, from their lines too, and so are dots and
 * ticks read inside another word's box (`glyphMarks`); a capital read apart from the rest of its word is joined to it
 * (`splitCapitals`); digit/letter confusions inside clearly-letter or clearly-number words are repaired
 * (confusions.ts).
 */
export function parseTesseractTsv(tsv: string): OcrResult {
  let width = 0;
  let height = 0;
  const pixelWords: { text: string; left: number; top: number; w: number; h: number; conf: number }[] = [];
  const lines = new Map<string, number[]>();
  for (const line of tsv.split("\n")) {
    const cols = line.split("\t");
    if (cols.length < 12) continue;
    const [level, , , , , , left, top, w, h, conf] = cols.slice(0, 11).map((c) => c.trim());
    const text = cols.slice(11).join("\t").replace(/\r$/, "").trim();
    if (level === PAGE_LEVEL) {
      width = Number(w);
      height = Number(h);
    } else if (level === WORD_LEVEL && text !== "") {
      const lineKey = cols.slice(1, 5).join("\t");
      const members = lines.get(lineKey) ?? [];
      members.push(pixelWords.length);
      lines.set(lineKey, members);
      pixelWords.push({ text, left: Number(left), top: Number(top), w: Number(w), h: Number(h), conf: Number(conf) });
    }
  }
  if (!(width > 0 && height > 0)) throw new DocsiftError("ocr_failed", "OCR returned no page.");
  const read: RawWord[] = pixelWords.map((p) => ({
    text: repairConfusions(p.text),
    box: { x0: p.left / width, y0: p.top / height, x1: (p.left + p.w) / width, y1: (p.top + p.h) / height },
    confidence: Math.min(1, Math.max(0, p.conf / 100)),
  }));
  const dropped = glyphMarks(read);
  for (const [first, rest] of splitCapitals(pixelWords, [...lines.values()])) {
    const a = read[first]!;
    const b = read[rest]!;
    read[first] = {
      text: a.text + b.text,
      box: { x0: a.box.x0, y0: Math.min(a.box.y0, b.box.y0), x1: b.box.x1, y1: Math.max(a.box.y1, b.box.y1) },
      confidence: Math.min(a.confidence, b.confidence),
    };
    dropped.add(rest);
  }
  if (dropped.size === 0) return { width, height, words: read, lines: [...lines.values()] };
  const words: RawWord[] = [];
  const kept = new Map<number, number>();
  for (const [i, w] of read.entries()) {
    if (dropped.has(i)) continue;
    kept.set(i, words.length);
    words.push(w);
  }
  const keptLines = [...lines.values()]
    .map((members) => members.flatMap((i) => kept.get(i) ?? []))
    .filter((members) => members.length > 0);
  return { width, height, words, lines: keptLines };
}

/**
 * A capital OCR set apart from the rest of its word ("S oftwarelizenz", "T otal", "J ansen"): a single capital
 * that is no word of its own (A, I and the Dutch U are) followed on its line, closer than a wide space, by a word
 * that goes on in lower case.
 */
const LONE_CAPITAL = /^[B-HJ-TV-Z]$/;
const LOWER_CASE_REST = /^\p{Ll}{2,}/u;
/**
 * Wider than this share of the capital's height, the gap is a space the page prints: the splits seen on the dev scans
 * leave 0.05-0.5 of it, noise read beside a word lies further off.
 */
const MAX_SPLIT_GAP = 0.5;

/** Pairs [capital, rest] of word indices, per tesseract line (boxes in pixels). */
function splitCapitals(
  words: readonly { text: string; left: number; w: number; h: number }[],
  lines: readonly number[][],
): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (const members of lines) {
    for (let k = 0; k + 1 < members.length; k++) {
      const a = words[members[k]!]!;
      const b = words[members[k + 1]!]!;
      if (!LONE_CAPITAL.test(a.text) || !LOWER_CASE_REST.test(b.text)) continue;
      if (b.left - (a.left + a.w) > MAX_SPLIT_GAP * a.h) continue;
      pairs.push([members[k]!, members[k + 1]!]);
      k++;
    }
  }
  return pairs;
}

/** A dot or tick alone: an i's dot, an accent or a speck, when OCR reads it apart from its letters. */
const MARK = /^[.,'`\u2018\u2019\u00b4\u00a8\u00b7]+$/u;
const ONLY_MARKS = /^[\p{P}\p{S}]+$/u;

/**
 * Indices of the dots and ticks read as words of their own inside another word's box: the dot of an i or j in large
 * bold type, read as a "." word on a line above ("Plumbing" gave "." and then a name ". Pty. Ltd."). A full stop or
 * comma beside a word lies outside its box, and stays.
 */
function glyphMarks(words: readonly RawWord[]): Set<number> {
  const marks = new Set<number>();
  for (const [i, w] of words.entries()) {
    if (!MARK.test(w.text)) continue;
    const cx = (w.box.x0 + w.box.x1) / 2;
    const cy = (w.box.y0 + w.box.y1) / 2;
    const inside = words.some(
      (o) =>
        o !== w && !ONLY_MARKS.test(o.text) && o.box.x0 <= cx && cx <= o.box.x1 && o.box.y0 <= cy && cy <= o.box.y1,
    );
    if (inside) marks.add(i);
  }
  return marks;
}
