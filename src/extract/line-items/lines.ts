/**
 * Visual lines of a page (ingest's lines merged where they share a baseline) split into chunks: runs of words with
 * word spacing between them, so that the cells of a table row are separate chunks and a multi-word description one.
 * Distances are in page-height units (x ratios scaled by the page's aspect), so thresholds hold on any paper.
 */
import { median } from "../../document/median.js";
import type { Box, Page, Word } from "../../document/model.js";
import { marginGlyphs } from "../margin-glyphs.js";
import { foldWord } from "./fold.js";

export interface Chunk {
  words: Word[];
  text: string;
  /** foldWord() of each word. */
  folded: string[];
  box: Box;
}

export interface VisualLine {
  page: number;
  /** Index in the page's list of visual lines. */
  index: number;
  words: Word[];
  chunks: Chunk[];
  box: Box;
  /** Median word height (page-height ratio). */
  height: number;
}

export function boxOf(words: readonly { box: Box }[]): Box {
  let x0 = 1;
  let y0 = 1;
  let x1 = 0;
  let y1 = 0;
  for (const { box } of words) {
    x0 = Math.min(x0, box.x0);
    y0 = Math.min(y0, box.y0);
    x1 = Math.max(x1, box.x1);
    y1 = Math.max(y1, box.y1);
  }
  return { x0, y0, x1, y1 };
}

/** Width / height of the page; A4 portrait when the page's size is unknown. */
export function aspectOf(page: Page): number {
  return page.width > 0 && page.height > 0 ? page.width / page.height : Math.SQRT1_2;
}

/** Marks that carry no cell's meaning on their own (a currency sign, %, a minus or a bracket do). */
const SPECK = /^[<>|~»«^_`\\=*'"‘’“”¦]+$/;

const NUMBER_WORD = /^[-‐−–(+]?[€$£]?\d[\d.,'’]*%?[)-]?$/;
const THOUSANDS_TAIL = /^\d{3}(?:[.,]\d{1,2})?$/;

/**
 * Two numbers closer than a column gap ("60,00 10,00%") are two cells, unless the second groups the first's thousands
 * or is the year after a date's day ("September 20, 2021").
 */
function splitsNumbers(left: Word, right: Word): boolean {
  return (
    NUMBER_WORD.test(left.text) &&
    NUMBER_WORD.test(right.text) &&
    !(/^\d{1,3}$/.test(left.text) && THOUSANDS_TAIL.test(right.text)) &&
    !(/^\d{1,2},$/.test(left.text) && /^(?:19|20)\d{2}\b/.test(right.text))
  );
}

/**
 * The label of a bracketed figure, as a word: "(Sconto:", "(Netto):", and as OCR may read its brackets ("{Net}:",
 * "@escuento:"); a code in brackets ("(RE)") is none.
 */
const LABEL = String.raw`[({@]\p{L}[\p{L}.]*[)}]?:`;
const BRACKET_LABEL = new RegExp(`^${LABEL}$`, "u");
/** The figure after such a label: "48,63)", "694,03". */
const BRACKET_FIGURE = /^[-+]?\d[\d.,]*\)?$/;

/**
 * Whether two words stand in one labelled figure printed in brackets ("(Sconto:" "48,63)", "(Netto):" "694,03"),
 * however wide OCR reads the space between them: a label and its figure, never two column cells.
 */
function bracketedFigure(left: Word, right: Word): boolean {
  return BRACKET_LABEL.test(left.text) && BRACKET_FIGURE.test(right.text);
}

/**
 * A number run into the bracketed label after it: "25(Descuento:", "8,@escuento:" (a comma read in the space, the
 * bracket read as "@").
 */
const GLUED_LABEL = new RegExp(String.raw`^([-+]?\d+(?:[.,]\d+)?)[.,]?(${LABEL})$`, "u");

/**
 * A word holding a number and the bracketed label after it ("25(Descuento:", the space lost by OCR or a text layer)
 * as the two words printed, each with its share of the box by characters (and the word's id: both are its tokens).
 */
function splitGluedLabel(word: Word): Word[] {
  const m = GLUED_LABEL.exec(word.text);
  if (m === null) return [word];
  const number = m[1] ?? "";
  const at = word.box.x0 + ((word.box.x1 - word.box.x0) * number.length) / word.text.length;
  return [
    { ...word, text: number, box: { ...word.box, x1: at } },
    { ...word, text: m[2] ?? "", box: { ...word.box, x0: at } },
  ];
}

function chunksOf(words: readonly Word[], height: number, aspect: number): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Word[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    chunks.push({
      words: current,
      text: current.map((w) => w.text).join(" "),
      folded: current.map((w) => foldWord(w.text)),
      box: boxOf(current),
    });
    current = [];
  };
  for (const word of words) {
    const last = current[current.length - 1];
    // Word spacing is about a third of the text height; column gaps are wider than a text height.
    // A bracketed label and its figure stay one cell ("(Netto): 694,03"); a number before such a label ends its cell
    // ("8 (Sconto: 128,88)"): the label opens a detail beside it.
    const apart =
      last !== undefined &&
      (((word.box.x0 - last.box.x1) * aspect > height * 0.85 && !bracketedFigure(last, word)) ||
        splitsNumbers(last, word) ||
        (NUMBER_WORD.test(last.text) && BRACKET_LABEL.test(word.text)));
    if (apart) flush();
    current.push(word);
  }
  flush();
  return chunks;
}

/**
 * The page's skew as dy/dx in page ratios: of slopes within about 3.5 degrees, the one under which the words' vertical
 * centres bunch into the sharpest rows (sum of squared counts of bins a quarter of a word high). A scan turned by a
 * degree or two puts a table row's left and right cells on different lines, and ingest's lines may already mix rows.
 */
function skewOf(page: Page, height: number): number {
  const words = page.words;
  if (page.source === "text" || words.length < 8 || height <= 0) return 0;
  const aspect = aspectOf(page);
  const bin = height / 4;
  const score = (slope: number): number => {
    const counts = new Map<number, number>();
    for (const w of words) {
      const y = (w.box.y0 + w.box.y1) / 2 - slope * ((w.box.x0 + w.box.x1) / 2 - 0.5);
      const k = Math.round(y / bin);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    let sum = 0;
    for (const c of counts.values()) sum += c * c;
    return sum;
  };
  // dy (height ratio) per dx (width ratio) = tan(angle) * aspect; coarse steps of half a degree, then a tenth.
  const slopeOf = (degrees: number): number => Math.tan((degrees * Math.PI) / 180) * aspect;
  let bestDegrees = 0;
  let bestScore = -1;
  const search = (from: number, to: number, step: number): void => {
    for (let d = from; d <= to + 1e-9; d += step) {
      const s = score(slopeOf(d));
      if (s > bestScore || (s === bestScore && Math.abs(d) < Math.abs(bestDegrees))) {
        bestScore = s;
        bestDegrees = d;
      }
    }
  };
  search(-3.5, 3.5, 0.5);
  const coarse = bestDegrees;
  search(coarse - 0.4, coarse + 0.4, 0.1);
  const best = slopeOf(bestDegrees);
  return best;
}

/**
 * The page's visual lines, top to bottom, words left to right: words clustered by their vertical centre after the
 * page's skew is taken out. Words keep their ids; their boxes are the deskewed ones (`originalWords` maps back).
 */
export function visualLines(page: Page): VisualLine[] {
  const slope = skewOf(page, median(page.words.map((w) => w.box.y1 - w.box.y0)));
  const aspect = aspectOf(page);
  const margin = marginGlyphs(page.words);
  const words: Word[] = withoutEchoes(page.words.filter((w) => !margin.has(w.id)))
    // OCR reads rules, stains and stamps as words of very low confidence: they are no cell's text.
    .filter((w) => w.text.trim() !== "" && !(w.source === "ocr" && w.confidence < 0.35 && !/\d/.test(w.text)))
    // A speck OCR reads as marks no cell prints alone (">>", "|", "~"): glued to a figure it spoils the cell.
    .filter((w) => !(w.source === "ocr" && SPECK.test(w.text.trim())))
    // Text set vertically (a margin note up the page's edge) is no row's text: a word of three letters or more far
    // taller than wide.
    .filter((w) => w.text.length < 3 || w.box.y1 - w.box.y0 < (w.box.x1 - w.box.x0) * aspect * 1.5)
    .flatMap(splitGluedLabel)
    .map((w) => {
      if (slope === 0) return w;
      // Turned by an angle, rows slope by dy/dx = slope and columns lean by dx/dy = -slope / aspect².
      const shift = slope * ((w.box.x0 + w.box.x1) / 2 - 0.5);
      const lean = (slope * ((w.box.y0 + w.box.y1) / 2 - 0.5)) / (aspect * aspect);
      return {
        ...w,
        box: { x0: w.box.x0 + lean, x1: w.box.x1 + lean, y0: w.box.y0 - shift, y1: w.box.y1 - shift },
      };
    });
  const pageHeight = median(words.map((w) => w.box.y1 - w.box.y0));
  words.sort((a, b) => a.box.y0 + a.box.y1 - b.box.y0 - b.box.y1);
  const groups: { words: Word[]; centre: number }[] = [];
  for (const word of words) {
    const centre = (word.box.y0 + word.box.y1) / 2;
    const last = groups[groups.length - 1];
    if (last !== undefined && centre - last.centre < pageHeight * 0.5) {
      last.words.push(word);
      last.centre += (centre - last.centre) / last.words.length;
    } else groups.push({ words: [word], centre });
  }
  return groups.map(({ words: line }, index) => {
    line.sort((a, b) => a.box.x0 - b.box.x0);
    const height = median(line.map((w) => w.box.y1 - w.box.y0));
    const box = boxOf(line);
    const visual = { page: page.pageNum, index, words: line, chunks: [], box, height };
    // Word spacing is measured against the text's height, on a scan that of its whole line (gapUnit): OCR boxes hug
    // the ink, so that words a space apart read as wide apart as columns against their median height.
    return { ...visual, chunks: chunksOf(line, gapUnit(visual), aspect) };
  });
}

/**
 * The height that gaps ending a table are measured in: a text layer's line height; on a scan the line's whole box
 * (ascenders to descenders, up to half again its words' median), since OCR boxes hug the glyphs and the words' median
 * is nearer an x-height than the font's ascent to descent the text layer gives every word.
 */
export function gapUnit(line: VisualLine): number {
  if (line.words[0]?.source !== "ocr") return line.height;
  return Math.max(line.height, Math.min(line.box.y1 - line.box.y0, line.height * 1.5));
}

/**
 * The words without their echoes: OCR may read a line twice (a re-read of a doubtful line, a second pass over a
 * faint band) and a PDF may draw text twice (fake bold), putting two words on one spot. Of two words sharing half
 * the narrower one's width and half the lower one's height, on another baseline or with the same text, the wider
 * one stays.
 */
export function withoutEchoes(words: readonly Word[]): Word[] {
  const sorted = [...words].sort((a, b) => a.box.x0 - b.box.x0);
  const dropped = new Set<Word>();
  const width = (w: Word): number => Math.max(0, w.box.x1 - w.box.x0);
  const height = (w: Word): number => Math.max(0, w.box.y1 - w.box.y0);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i] as Word;
    if (dropped.has(a)) continue;
    for (let j = i + 1; j < sorted.length; j++) {
      const b = sorted[j] as Word;
      if (b.box.x0 >= a.box.x1) break;
      if (dropped.has(b)) continue;
      const w = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0);
      const h = Math.min(a.box.y1, b.box.y1) - Math.max(a.box.y0, b.box.y0);
      if (w < 0.5 * Math.min(width(a), width(b)) - 1e-9 || h < 0.5 * Math.min(height(a), height(b))) continue;
      // Two pieces of one number OCR cut with overlapping boxes ("2.983," "68") sit on one baseline: not an echo.
      const offset = Math.abs(a.box.y0 + a.box.y1 - b.box.y0 - b.box.y1) / 2;
      if (offset < 0.25 * Math.min(height(a), height(b)) && !sameText(a.text, b.text)) continue;
      // The fuller reading stays (an echo is often a fragment), unless it is a doubtful one beside a sure one.
      const [wide, narrow] = width(a) >= width(b) ? [a, b] : [b, a];
      const keep = wide.confidence < 0.5 && narrow.confidence >= 0.8 ? narrow : wide;
      const keepA = keep === a;
      dropped.add(keepA ? b : a);
      if (!keepA) break;
    }
  }
  return dropped.size === 0 ? [...words] : words.filter((w) => !dropped.has(w));
}

/** Whether two readings are of the same text: one contains the other, or they start alike ("Cloud-Hostin"). */
function sameText(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  const y = b.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
  if (x === "" || y === "") return false;
  if (x.includes(y) || y.includes(x)) return true;
  let common = 0;
  while (common < x.length && x[common] === y[common]) common++;
  return common >= 4;
}
