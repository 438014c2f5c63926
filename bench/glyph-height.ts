/**
 * The typical height of the glyphs in a grey image, from its connected components: the letter-scale OCR variants of
 * bench/ocr-variants.ts (crop-gN) scale each page by it rather than by its width. Pure.
 */

/** Otsu's threshold of a grey image: the level that best splits ink from paper. */
export function otsuThreshold(grey: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const v of grey) histogram[v] = (histogram[v] ?? 0) + 1;
  const total = grey.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * (histogram[v] ?? 0);
  let sumBelow = 0;
  let weightBelow = 0;
  let best = 0;
  let threshold = 127;
  for (let v = 0; v < 256; v++) {
    weightBelow += histogram[v] ?? 0;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += v * (histogram[v] ?? 0);
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const between = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  return threshold;
}

function find(parent: Int32Array, i: number): number {
  let root = i;
  while (parent[root] !== root) root = parent[root] ?? root;
  let node = i;
  while (parent[node] !== root) {
    const next = parent[node] ?? root;
    parent[node] = root;
    node = next;
  }
  return root;
}

/** Bounding boxes (as heights and widths) of the 4-connected ink components of a binary image. */
function componentSizes(ink: Uint8Array, width: number, height: number): { heights: number[]; widths: number[] } {
  const labels = new Int32Array(width * height).fill(-1);
  const parent: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!ink[i]) continue;
      const left = x > 0 ? (labels[i - 1] ?? -1) : -1;
      const up = y > 0 ? (labels[i - width] ?? -1) : -1;
      if (left < 0 && up < 0) {
        labels[i] = parent.length;
        parent.push(parent.length);
      } else if (left >= 0 && up >= 0) {
        labels[i] = left;
        if (left !== up) union(parent, left, up);
      } else {
        labels[i] = left >= 0 ? left : up;
      }
    }
  }
  const roots = Int32Array.from(parent);
  const minY = new Map<number, number>();
  const maxY = new Map<number, number>();
  const minX = new Map<number, number>();
  const maxX = new Map<number, number>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const label = labels[y * width + x] ?? -1;
      if (label < 0) continue;
      const r = find(roots, label);
      if (!minY.has(r)) {
        minY.set(r, y);
        minX.set(r, x);
        maxX.set(r, x);
      }
      maxY.set(r, y);
      if (x < (minX.get(r) ?? x)) minX.set(r, x);
      if (x > (maxX.get(r) ?? x)) maxX.set(r, x);
    }
  }
  const heights: number[] = [];
  const widths: number[] = [];
  for (const [r, top] of minY) {
    heights.push((maxY.get(r) ?? top) - top + 1);
    widths.push((maxX.get(r) ?? 0) - (minX.get(r) ?? 0) + 1);
  }
  return { heights, widths };
}

function union(parent: number[], a: number, b: number): void {
  let ra = a;
  while (parent[ra] !== ra) ra = parent[ra] ?? ra;
  let rb = b;
  while (parent[rb] !== rb) rb = parent[rb] ?? rb;
  if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
}

/**
 * Median height in pixels of the glyph-like components of a grey image (one byte per pixel), or null when there are
 * too few to say. Components that cannot be letters are left out: specks (under 4 px), rules and boxes (wider than
 * four times their height, or taller than a tenth of the page).
 */
export function glyphHeight(grey: Uint8Array, width: number, height: number): number | null {
  const threshold = otsuThreshold(grey);
  const ink = new Uint8Array(grey.length);
  for (let i = 0; i < grey.length; i++) ink[i] = (grey[i] ?? 255) <= threshold ? 1 : 0;
  const { heights, widths } = componentSizes(ink, width, height);
  const glyphs: number[] = [];
  const tallest = Math.max(8, height / 10);
  heights.forEach((h, i) => {
    const w = widths[i] ?? 0;
    if (h >= 4 && h <= tallest && w <= 4 * h) glyphs.push(h);
  });
  if (glyphs.length < 20) return null;
  glyphs.sort((a, b) => a - b);
  return glyphs[Math.floor(glyphs.length / 2)] ?? null;
}
