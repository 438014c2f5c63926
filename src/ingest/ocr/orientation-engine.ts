/**
 * An OCR engine that reads pages upright: each page image is measured (orientation.ts), turned and levelled when it
 * lies otherwise, read, and its words' boxes mapped back onto the image as given, so boxes stay in ratios of the page
 * as uploaded; the result's `rotation` says how it was turned, and ingest builds the page upright from both
 * (page-builder.ts). An upright, level page goes to the engine untouched.
 *
 * Up and down are the measure's weak point (upper-case print has no ascenders to tell by, and then it leaves the page
 * as it is), and a skew measured on a photo can be wrong: a page it turned or levelled and then read poorly is read as
 * uploaded too, and, when neither reading is confident, turned by a further half turn; the fullest reading is kept,
 * so a wrong correction costs more readings rather than the page. Only the kept reading is re-read (`refine`).
 */
import sharp from "sharp";
import { type GreyImage, parsePgm, pgm } from "../pgm.js";
import type { OcrEngine, OcrResult } from "./engine.js";
import { boxBeforeRotation, correction, measureOrientation, type PageOrientation } from "./orientation.js";
import { greyPixels, type ReadingRefinement } from "./rereading.js";

/** Skew below this is left to the engine (tesseract reads a line tilted this little as well as a level one). */
const MIN_SKEW = 0.5;
/**
 * A page the measure turned or levelled whose reading has a mean word confidence below this is read as uploaded too.
 * When the better reading is still below this, the page may have been turned the wrong way round: it is read once
 * more turned by a further half turn. Pages the measure
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

/** A reading and the grey image it was read on (the page as given, or turned and levelled `degrees`). */
interface Reading {
  result: OcrResult;
  degrees: number;
  grey: GreyImage;
}

/**
 * `engine` reading every page upright. Only ingest's grey PGM pages are measured; other images (PNG, JPEG given to
 * `docsift ocr`) are read as they are. `refine` (the line re-reader) is applied to the one reading kept, on the image
 * it was read from, before its boxes are mapped back: a reading that loses to another is never refined. `prepare`
 * cleans each upright, levelled page before it is read, and the re-reader crops the cleaned page (default: none;
 * ingest's engine takes office pages' rules out: rule-removal.ts, officePageWithoutRules).
 */
export function withUprightPages(
  engine: OcrEngine,
  refine?: ReadingRefinement,
  prepare: (page: GreyImage) => GreyImage = (page) => page,
): OcrEngine {
  const recognise = async (image: Buffer, signal?: AbortSignal): Promise<OcrResult> => {
    const grey = parsePgm(image);
    if (!grey) {
      const read = await engine.recognise(image, signal);
      return refine ? refine(read, () => greyPixels(image), signal) : read;
    }
    const orientation = measureOrientation(grey);
    const readAs = async ({ turn, skew }: PageOrientation): Promise<Reading> => {
      const degrees = correction({ turn, skew: Math.abs(skew) < MIN_SKEW ? 0 : skew });
      const upright = degrees === 0 ? grey : await rotated(grey, degrees);
      signal?.throwIfAborted();
      const page = prepare(upright);
      const bytes = page === grey ? image : pgm(page.width, page.height, page.data);
      return { result: await engine.recognise(bytes, signal), degrees, grey: page };
    };
    const kept = await keptReading(orientation, readAs);
    const result = refine ? await refine(kept.result, async () => kept.grey, signal) : kept.result;
    return kept.degrees === 0 ? result : mappedBack(result, kept.degrees, grey);
  };
  return {
    name: engine.name,
    recognise,
    async close() {
      await engine.close?.();
    },
  };
}

/**
 * The reading kept of a page measured as lying `orientation`: the reading as measured when the measure left the page
 * upright and level, or levelled it and the reading is confident, or turned it and the reading is confident (a page
 * read the wrong way up or sideways reads with mean confidence 0.14-0.40 on the dev receipts the measure turned
 * wrongly, the same pages upright 0.35-0.87). Otherwise the measure may be wrong that the page lies otherwise at all
 * (a receipt photo read sideways loses every field, one levelled by a skew it does not have merges its lines): the
 * page as uploaded competes, and the fuller reading is kept; when that is still not confident, the page turned by a
 * further half turn competes too. A half turn alone is the measure's weakest call (15 of the 370 receipt photos of
 * receipts-dev and receipts-train measured upside down, none of them was): the page as uploaded is read first, and
 * the half turn only when that reading is not confident (the same readings compete; 4 of the 5 dev photos measured
 * upside down are then read once instead of twice).
 */
async function keptReading(
  orientation: PageOrientation,
  readAs: (orientation: PageOrientation) => Promise<Reading>,
): Promise<Reading> {
  const fuller = (a: Reading, b: Reading): Reading => (weight(b.result) > weight(a.result) ? b : a);
  if (orientation.turn === 180) {
    const uploaded = await readAs({ turn: 0, skew: 0 });
    if (meanConfidence(uploaded.result) >= CONFIDENT_READING) return uploaded;
    return fuller(uploaded, await readAs(orientation));
  }
  const first = await readAs(orientation);
  if (first.degrees === 0 || meanConfidence(first.result) >= CONFIDENT_READING) return first;
  const kept = fuller(first, await readAs({ turn: 0, skew: 0 }));
  const halfTurn = ((orientation.turn + 180) % 360) as PageOrientation["turn"];
  if (halfTurn === 0 || meanConfidence(kept.result) >= CONFIDENT_READING) return kept;
  return fuller(kept, await readAs({ ...orientation, turn: halfTurn }));
}
