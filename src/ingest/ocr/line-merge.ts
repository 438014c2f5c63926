/**
 * Puts a line recogniser's re-reading of one OCR line back into the OCR engine's words, keeping the engine's word
 * boxes: characters go to the word they sit on, and each doubtful word takes the surer of the two readings.
 * Pure; positions are image pixels.
 */
import { repairConfusions } from "./confusions.js";
import type { PlacedChar } from "./ctc.js";

/**
 * A page is re-read only when its words' mean confidence is below this: re-reading pays where tesseract struggles
 * (receipt photos: median page mean 0.77 on the dev receipts) and costs where it reads well, since the recogniser
 * drops doubled and accented letters of small Latin print that tesseract gets right (synthetic scans: median 0.92;
 * their F1 fell 0.914 -> 0.889 with every page re-read, 0.912 with this gate, the receipts' F1 unchanged).
 */
const PAGE_REREAD_BELOW = 0.88;
/**
 * A word read at this confidence or more keeps the engine's reading: on the dev receipts and synthetic scans 0.93
 * read best of 0.90-0.98 (and better than re-reading every word).
 */
const KEEP_FROM = 0.93;
/**
 * A word keeps the engine's reading when the engine was surer than the re-reading by more than this (confidence of
 * the engine's word against the least sure of the re-read characters): each reader misreads where the other does
 * not, and the surer one wins. Measured on the dev receipts: 0.1 and 0.3 both read worse than 0.2.
 */
const KEEP_MARGIN = 0.2;
/**
 * A line is read in segments, cut where two of its words stand farther apart than this many line heights: the label
 * and the amount at either end of a receipt line are read apart, as a text detector would box them, which read better
 * than whole lines on the dev receipts (F1 0.796 -> 0.804) and spares the recogniser the blank between them.
 */
const SEGMENT_GAP = 1.5;
/**
 * A character farther than this many line heights from every word is dropped: what the recogniser reads in the
 * crop's padding beyond the words is noise or the neighbouring column, not part of the line tesseract read.
 */
const NEAREST_WORD_LIMIT = 1.5;

/**
 * Latin letters with accents: PP-OCRv4's Chinese-and-English recogniser writes them without ("réseau" -> "reseau",
 * "Köln" -> "Koln"), even those in its dictionary, so a word the engine read with one keeps the engine's reading.
 */
const ACCENTED_LATIN = /[\u00C0-\u024F]/;

/** An engine word of the line: its horizontal span in pixels, text and confidence (0..1). */
export interface LineWord {
  left: number;
  right: number;
  text: string;
  confidence: number;
}

/** A word of the merged line: which engine word it comes from, and its new span when that word was split. */
export interface MergedWord {
  word: number;
  text: string;
  confidence: number;
  split?: { left: number; right: number };
}

/**
 * Whether a line (or segment) with these words is worth re-reading: one of them could take the re-reading, i.e. is
 * read below KEEP_FROM and has no accented letter (mergeLine keeps every other word as the engine read it, so reading
 * a line without such a word costs the recogniser's time and changes nothing). Tesseract's misreads on receipt photos
 * sit on such lines; clean lines cost nothing extra. (Segments with a word below 0.95 were re-read before: the same
 * output for 5 % more recogniser input, 478 000 columns against 455 000 on the first 40 dev receipts.)
 */
export function shouldReread(words: readonly { confidence: number; text?: string }[]): boolean {
  return words.some((w) => w.confidence < KEEP_FROM && !ACCENTED_LATIN.test(w.text ?? ""));
}

/** Whether a page with these words is worth re-reading at all (PAGE_REREAD_BELOW). */
export function pageWorthRereading(words: readonly { confidence: number }[]): boolean {
  if (words.length === 0) return false;
  return words.reduce((sum, w) => sum + w.confidence, 0) / words.length < PAGE_REREAD_BELOW;
}

/**
 * The line's new words from its engine words (left to right) and the recogniser's characters (left to right) on a
 * line `lineHeight` pixels tall. A word that took the re-reading is split where the recogniser read a space between
 * two of its characters: tesseract glues words ("SHAHALAM") that the recogniser separates.
 */
export function mergeLine(words: readonly LineWord[], chars: readonly PlacedChar[], lineHeight: number): MergedWord[] {
  const assigned = words.map((): number[] => []);
  chars.forEach((c, i) => {
    if (c.text === " ") return;
    const w = wordAt(words, c.x, lineHeight);
    if (w !== undefined) assigned[w]!.push(i);
  });
  return words.flatMap((word, w): MergedWord[] => {
    const mine = assigned[w]!;
    const kept = { word: w, text: word.text, confidence: word.confidence };
    if (mine.length === 0 || word.confidence >= KEEP_FROM || ACCENTED_LATIN.test(word.text)) return [kept];
    if (word.confidence > Math.min(...mine.map((i) => chars[i]!.prob)) + KEEP_MARGIN) return [kept];
    const parts = splitAtSpaces(mine, chars);
    const reread = (part: readonly number[]) => ({
      word: w,
      text: repairConfusions(part.map((i) => chars[i]!.text).join("")),
      confidence: Math.min(...part.map((i) => chars[i]!.prob)),
    });
    if (parts.length === 1) return [reread(parts[0]!)];
    const clamp = (x: number) => Math.min(word.right, Math.max(word.left, x));
    // Each cut sits midway between the last character before the space and the first one after it.
    const cuts = parts.slice(1).map((part, k) => clamp((chars[parts[k]!.at(-1)!]!.x + chars[part[0]!]!.x) / 2));
    const edges = [word.left, ...cuts, word.right];
    return parts.map((part, k) => ({ ...reread(part), split: { left: edges[k]!, right: edges[k + 1]! } }));
  });
}

/**
 * A line's words (left to right) cut into segments wherever the gap between two neighbours exceeds SEGMENT_GAP line
 * heights; each segment is a list of indices into `words`.
 */
export function segmentsOf(words: readonly LineWord[], lineHeight: number): number[][] {
  const segments: number[][] = [];
  words.forEach((word, w) => {
    const previous = w > 0 ? words[w - 1] : undefined;
    if (!previous || word.left - previous.right > SEGMENT_GAP * lineHeight) segments.push([]);
    segments.at(-1)!.push(w);
  });
  return segments;
}

/** The word whose span holds `x`, else the nearest one closer than NEAREST_WORD_LIMIT line heights (first on ties). */
function wordAt(words: readonly LineWord[], x: number, lineHeight: number): number | undefined {
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  words.forEach((word, w) => {
    const distance = x < word.left ? word.left - x : x > word.right ? x - word.right : 0;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = w;
    }
  });
  return bestDistance < NEAREST_WORD_LIMIT * lineHeight ? best : undefined;
}

/** A word's characters (indices into `chars`, ascending) cut wherever a space char lies between two of them. */
function splitAtSpaces(mine: readonly number[], chars: readonly PlacedChar[]): number[][] {
  const parts: number[][] = [[mine[0]!]];
  for (let k = 1; k < mine.length; k++) {
    const spaced = chars.slice(mine[k - 1]! + 1, mine[k]).some((c) => c.text === " ");
    if (spaced) parts.push([]);
    parts.at(-1)!.push(mine[k]!);
  }
  return parts;
}
