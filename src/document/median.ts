/** The median of `values` (the upper one of an even count; 0 for none): word heights, gaps and glyph sizes of a page. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}
