/**
 * An OCR engine that reads pages upright: each page image is measured (orientation.ts), turned and levelled when it
 * lies otherwise, read, and its words' boxes mapped back onto the image as given, so boxes stay in ratios of the page
 * as uploaded; the result's `rotation` says how it was turned, and ingest builds the page upright from both
 * (page-builder.ts). An upright, level page goes to the engine untouched.
 *
 * Up and down are the measure's weak point (upper-case print has no ascenders to tell by, and then it leaves the page
 * as it is), and a skew measured on a photo can be wrong: a page it turned, or levelled and then read poorly, is read
 * as uploaded too, and, when neither reading is confident, turned by a further half turn; the fullest reading is
 * kept, so a wrong correction costs more readings rather than the page.
 */
import sharp from "sharp";
import { type GreyImage, parsePgm, pgm } from "../pgm.js";
import type { OcrEngine, OcrResult } from "./engine.js";
import { boxBeforeRotation, correction, measureOrientation, type PageOrientation } from "./orientation.js";

/** Skew below this is left to the engine (tesseract reads a line tilted this little as well as a level one). */
const MIN_SKEW = 0.5;
/**
 * A page the measure levelled whose reading has a mean word confidence below this is read as uploaded too; a page it
 * turned always is. When the better reading is still below this, the page may have been turned the wrong way round:
 * it is read once more turned by a further half turn. Pages the measure
 * left upright are not second-guessed: a poor receipt photo (mean confidence 0.4-0.6 on some) would pay a second
 * reading for nothing.
 */
const CONFIDENT_READING = 0.6;

/** The page turned `degrees` clockwise about its centre on white paper, grown to hold all of it. */
async function rotated(image: GreyImage, degrees: number): Promise<GreyImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .rotate(degrees, { background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`Expected grey pixels, got ${info.channels} channels.`);
  return { width: info.width, height: info.height, data };
}

/** `result`, read on the image turned `degrees`, with its boxes on the image as given and its size. */
function mappedBack(result: OcrResult, degrees: number, original: GreyImage): OcrResult {
  const words = result.words.map((w) => ({ ...w, box: boxBeforeRotation(w.box, degrees, original, result) }));
  return { ...result, width: original.width, height: original.height, words, rotation: degrees };
}

const meanConfidence = (result: OcrResult): number =>
  result.words.length === 0 ? 0 : result.words.reduce((sum, w) => sum + w.confidence, 0) / result.words.length;
/**
 * How much a reading holds: the characters of its confidently read words. A page read sideways gives many short,
 * doubtful fragments whose confidences can add up to as much as the upright reading's; their characters do not.
 */
const weight = (result: OcrResult): number =>
  result.words.reduce((sum, w) => sum + (w.confidence >= CONFIDENT_READING ? w.text.length : 0), 0);

/**
 * `engine` reading every page upright. Only ingest's grey PGM pages are measured; other images (PNG, JPEG given to
 * `docsift ocr`) are read as they are.
 */
export function withUprightPages(engine: OcrEngine): OcrEngine {
  const recognise = async (image: Buffer, signal?: AbortSignal): Promise<OcrResult> => {
    const grey = parsePgm(image);
    if (!grey) return engine.recognise(image, signal);
    const orientation = measureOrientation(grey);
    const readAs = async ({ turn, skew }: PageOrientation): Promise<OcrResult> => {
      const degrees = correction({ turn, skew: Math.abs(skew) < MIN_SKEW ? 0 : skew });
      if (degrees === 0) return engine.recognise(image, signal);
      const upright = await rotated(grey, degrees);
      signal?.throwIfAborted();
      const read = await engine.recognise(pgm(upright.width, upright.height, upright.data), signal);
      return mappedBack(read, degrees, grey);
    };
    const first = await readAs(orientation);
    const levelled = Math.abs(orientation.skew) >= MIN_SKEW;
    if (orientation.turn === 0 && (!levelled || meanConfidence(first) >= CONFIDENT_READING)) return first;
    // The measure may be wrong that the page lies otherwise at all (a receipt photo read sideways loses every field,
    // one levelled by a skew it does not have merges its lines): the page as uploaded competes, and the fuller
    // reading is kept.
    const fuller = (a: OcrResult, b: OcrResult): OcrResult => (weight(b) > weight(a) ? b : a);
    const kept = fuller(first, await readAs({ turn: 0, skew: 0 }));
    const halfTurn = ((orientation.turn + 180) % 360) as PageOrientation["turn"];
    if (halfTurn === 0 || meanConfidence(kept) >= CONFIDENT_READING) return kept;
    return fuller(kept, await readAs({ ...orientation, turn: halfTurn }));
  };
  return {
    name: engine.name,
    recognise,
    async close() {
      await engine.close?.();
    },
  };
}
