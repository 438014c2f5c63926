/**
 * Greedy CTC decoding of a line recogniser's output (PaddleOCR's PP-OCR rec models): per time step a softmax over an
 * alphabet whose class 0 is the CTC blank. Pure.
 */

/** One decoded character: its class's text, the time step it was read at, and that step's winning probability. */
export interface DecodedChar {
  text: string;
  step: number;
  prob: number;
}

/** A decoded character placed on the page: `x` is the centre of its time step, in image pixels. */
export interface PlacedChar {
  text: string;
  prob: number;
  x: number;
}

/**
 * PaddleOCR's alphabet for a dictionary file (one character a line): the blank first, the dictionary's characters,
 * then the space PaddleOCR appends when the model reads spaces (`use_space_char`).
 */
export function ctcAlphabet(dictionary: string): string[] {
  const chars = dictionary.split("\n");
  if (chars.at(-1) === "") chars.pop();
  return ["", ...chars, " "];
}

/** CJK punctuation with an ASCII twin (full-width forms U+FF01..FF5E are a fixed offset from theirs). */
const CJK_PUNCTUATION: Readonly<Record<string, string>> = { "，": ",", "。": ".", "：": ":", "（": "(", "）": ")" };

/**
 * Full-width forms and CJK punctuation as ASCII: the Chinese dictionary holds both, the model sometimes prefers the
 * wide one, and receipts print the ASCII one.
 */
export function toAscii(text: string): string {
  return text
    .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[，。：（）]/g, (c) => CJK_PUNCTUATION[c] ?? c);
}

/**
 * Greedy CTC: the most probable class at each of `steps` steps (`probs` is steps x alphabet.length, row-major); a
 * character is emitted where that class is not the blank and differs from the previous step's, so "aa" needs a
 * blank between its two a's. Texts are mapped to ASCII where they have a twin (toAscii).
 */
export function ctcGreedyDecode(probs: ArrayLike<number>, steps: number, alphabet: readonly string[]): DecodedChar[] {
  const classes = alphabet.length;
  const chars: DecodedChar[] = [];
  let previous = 0;
  for (let step = 0; step < steps; step++) {
    let best = 0;
    let bestProb = -1;
    for (let c = 0; c < classes; c++) {
      const p = probs[step * classes + c]!;
      if (p > bestProb) {
        bestProb = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) chars.push({ text: toAscii(alphabet[best] ?? ""), step, prob: bestProb });
    previous = best;
  }
  return chars;
}

/**
 * Where decoded characters sit in the image: the recogniser read a crop starting at `cropLeft` pixels, scaled by
 * `scale` to `inputWidth` pixels and cut into `steps` equal time steps; a character sits at its step's centre.
 */
export function placeChars(
  chars: readonly DecodedChar[],
  crop: { cropLeft: number; scale: number; inputWidth: number; steps: number },
): PlacedChar[] {
  const stepWidth = crop.inputWidth / crop.steps;
  return chars.map((c) => ({
    text: c.text,
    prob: c.prob,
    x: crop.cropLeft + ((c.step + 0.5) * stepWidth) / crop.scale,
  }));
}
