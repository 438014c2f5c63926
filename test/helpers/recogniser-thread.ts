/**
 * A worker thread that reads a line image with the PaddleOCR recogniser over and over, posting the pid of the
 * recogniser's process as it starts and a message after each line: the test terminates it in the middle of a read.
 */
import { parentPort } from "node:worker_threads";
import { onChildProcess } from "../../src/ingest/ocr/child-processes.js";
import { readLine } from "../../src/ingest/ocr/line-recogniser.js";

const width = 900;
const height = 64;
// A white strip with dark bars: enough ink for the model to spend its time on.
const data = Uint8Array.from({ length: width * height }, (_, i) => ((i % width) % 24 < 6 && i > 12 * width ? 20 : 245));
onChildProcess((pid, running) => parentPort?.postMessage({ pid, running }));
for (;;) {
  await readLine({ width, height, data }, { left: 0, top: 8, right: width, bottom: 56 });
  parentPort?.postMessage({ read: true });
}
