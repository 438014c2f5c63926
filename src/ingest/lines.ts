import type { Box } from "../document/model.js";

/**
 * Groups word boxes into visual rows. Extraction reads "label left of value on the same line", so a row must stay
 * one line even across a wide gap (columns of a table, a label far from its amount), and rows must not merge even
 * when tightly leaded. Membership is decided by vertical overlap with the row's core band (the mean top and bottom
 * of its words), not by exact baselines, so OCR jitter and mixed font sizes on one row still group.
 */

/** Two boxes share a row when their vertical overlap covers this share of the shorter one. */
const MIN_OVERLAP = 0.5;
/** A word this many times taller or shorter than a row's band (a rotated margin note, a big logo) starts its own row. */
const MAX_HEIGHT_RATIO = 3;

interface Row {
  members: number[];
  top: number;
  bottom: number;
}

function verticalOverlap(a0: number, a1: number, b0: number, b1: number): number {
  return Math.min(a1, b1) - Math.max(a0, b0);
}

function collidesHorizontally(row: Row, boxes: readonly Box[], box: Box): boolean {
  return row.members.some((m) => {
    const other = boxes[m]!;
    const overlap = Math.min(other.x1, box.x1) - Math.max(other.x0, box.x0);
    return overlap > 0.5 * Math.min(other.x1 - other.x0, box.x1 - box.x0);
  });
}

function bestRow(rows: readonly Row[], boxes: readonly Box[], box: Box): Row | undefined {
  const height = Math.max(box.y1 - box.y0, 1e-9);
  let best: Row | undefined;
  let bestScore = 0;
  for (const row of rows) {
    const rowHeight = Math.max(row.bottom - row.top, 1e-9);
    if (height / rowHeight > MAX_HEIGHT_RATIO || rowHeight / height > MAX_HEIGHT_RATIO) continue;
    const score = verticalOverlap(row.top, row.bottom, box.y0, box.y1) / Math.min(height, rowHeight);
    if (score >= MIN_OVERLAP && score > bestScore && !collidesHorizontally(row, boxes, box)) {
      best = row;
      bestScore = score;
    }
  }
  return best;
}

/** Returns rows of indices into `boxes`: rows top to bottom, each row's words left to right. */
export function groupLines(boxes: readonly Box[]): number[][] {
  const order = boxes.map((_, i) => i).sort((a, b) => centreY(boxes[a]!) - centreY(boxes[b]!));
  const rows: Row[] = [];
  for (const i of order) {
    const box = boxes[i]!;
    const row = bestRow(rows, boxes, box);
    if (!row) {
      rows.push({ members: [i], top: box.y0, bottom: box.y1 });
      continue;
    }
    const n = row.members.push(i);
    row.top += (box.y0 - row.top) / n;
    row.bottom += (box.y1 - row.bottom) / n;
  }
  return rows
    .sort((a, b) => a.top + a.bottom - (b.top + b.bottom))
    .map((row) => row.members.sort((a, b) => boxes[a]!.x0 - boxes[b]!.x0));
}

function centreY(box: Box): number {
  return (box.y0 + box.y1) / 2;
}

export function unionBox(boxes: readonly Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}
