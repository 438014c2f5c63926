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
 * and whitespace-only words (tesseract emits them for noise) are dropped, from their lines too; digit/letter
 * confusions inside clearly-letter or clearly-number words are repaired (confusions.ts).
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
  const words: RawWord[] = pixelWords.map((p) => ({
    text: repairConfusions(p.text),
    box: { x0: p.left / width, y0: p.top / height, x1: (p.left + p.w) / width, y1: (p.top + p.h) / height },
    confidence: Math.min(1, Math.max(0, p.conf / 100)),
  }));
  return { width, height, words, lines: [...lines.values()] };
}
