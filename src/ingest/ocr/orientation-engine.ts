/**
 * An OCR engine that reads pages upright: each page image is measured (orientation.ts), turned and levelled when it
 * lies otherwise, read, and its words' boxes mapped back onto the image as given, so boxes stay in ratios of the page
 * as uploaded; the result's `rotation` says how it was turned, and ingest builds the page upright from both
 * (page-builder.ts). An upright, level page goes to the engine untouched.
 *
 * Up and down are the measure's weak point (upper-case print has no ascenders to tell by, and then it leaves the page
 * as it is), and a skew measured on a photo can be wrong: a page it turned or levelled and then read poorly is read as
 * uploaded too, and, when neither reading is confident, turned by a further half turn; the fullest reading is kept,
 * so a wrong correction costs more readings rather than the page. A page whose up and down the measure told weakly
 * (boxed forms in capitals and italics) and that reads poorly is read turned a half turn too. Only the kept reading
 * is re-read (`refine`).
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
 * left upright are not second-guessed unless it was doubtful of up and down (DOUBTFUL_READING): a poor receipt photo
 * (mean confidence 0.4-0.6 on some) would pay a second reading for nothing.
 */
const CONFIDENT_READING = 0.6;
/**
 * A page the measure left upright but doubtful of up and down (PageOrientation.doubtful: boxed forms in capitals or
 * italics) whose reading has a mean word confidence below this is read turned by a half turn too, and the fuller
 * reading is kept. Lower than CONFIDENT_READING: pages read upside down or sideways read at 0.33-0.47 (tesseract
 * --psm 6, 13 development pages: einvoices-dev's boxed forms, synthetic invoices and receipts), such pages upright
 * at 0.84-0.85, while receipt photos, half of them doubtful, read upright at 0.59-0.87 but for two of the 30 of
 * receipts-dev (0.38, 0.50): a poor photo pays the second reading only below this.
 */
const DOUBTFUL_READING = 0.5;

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
 * ingest's engine takes office pages' rules and pictures out: picture-removal.ts, officePageForOcr).
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
      // Decoded once, for however many refining steps ask for it (the line re-reader, the header lines).
      let decoded: Promise<GreyImage> | undefined;
      return refine ? refine(read, () => (decoded ??= greyPixels(image)), signal) : read;
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
 *
 * A page the measure left as uploaded but was doubtful of up and down (boxed forms in capitals and italics) and that
 * reads poorly (below DOUBTFUL_READING) competes with the page turned a half turn; a page it turned or levelled
 * reaches the half turn as above. A confident reading stays the only one.
 */
async function keptReading(
  orientation: PageOrientation,
  readAs: (orientation: PageOrientation) => Promise<Reading>,
): Promise<Reading> {
  const fuller = (a: Reading, b: Reading): Reading => (weight(b.result) > weight(a.result) ? b : a);
  const confident = (reading: Reading, level = CONFIDENT_READING): boolean => meanConfidence(reading.result) >= level;
  const uploaded: PageOrientation = { turn: 0, skew: 0 };
  const halfTurn: PageOrientation = {
    ...orientation,
    turn: ((orientation.turn + 180) % 360) as PageOrientation["turn"],
  };
  if (orientation.turn === 180) {
    const asUploaded = await readAs(uploaded);
    if (confident(asUploaded)) return asUploaded;
    return fuller(asUploaded, await readAs(orientation));
  }
  const first = await readAs(orientation);
  if (first.degrees === 0 && orientation.doubtful && !confident(first, DOUBTFUL_READING))
    return fuller(first, await readAs(halfTurn));
  if (first.degrees === 0 || confident(first)) return first;
  const kept = fuller(first, await readAs(uploaded));
  if (halfTurn.turn === 0 || confident(kept)) return kept;
  return fuller(kept, await readAs(halfTurn));
}
