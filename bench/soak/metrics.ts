/**
 * Reads the few series the soak watches from the server's Prometheus text (GET /metrics). Pure.
 */

/** Sum of every sample of `name` (all label sets); undefined when the series is absent. */
export function metricSum(text: string, name: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    // `name 3` or `name{...} 3`, not `name_bucket...`.
    if (rest[0] !== " " && rest[0] !== "{") continue;
    const value = Number(rest.slice(rest.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}

/** Every sample of `name` by its label text, e.g. `{code="ocr_failed"}` -> 2. */
export function metricByLabels(text: string, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.lastIndexOf("}");
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (close > 0 && Number.isFinite(value)) out[line.slice(name.length, close + 1)] = value;
  }
  return out;
}
