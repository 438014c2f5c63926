/**
 * Client of the recogniser's process (recogniser-child.ts), which reads lines and finds them on pages: forked on
 * first use, one per thread, and reported
 * as an OCR child (child-processes.ts) so a processing pool that cuts a task kills it with the task's other
 * processes. A process that ends (killed with a cut task, crashed) fails what it was reading and is forked again for
 * the next line; one that cannot load its model, or ends before it has, stays failed (a missing file does not appear
 * by retrying each page).
 */
import { type ChildProcess, fork } from "node:child_process";
import { Socket } from "node:net";
import { trackChild } from "./child-processes.js";
import type { DecodedChar } from "./ctc.js";
import type { DetectedBox } from "./paddle-detect.js";
import type {
  DetectRequest,
  LineRequest,
  RecogniserReply,
  RecogniserRequest,
  RecogniserStatus,
} from "./recogniser-protocol.js";

/**
 * Under tsx (tests, `npm run docsift`) the module is a .ts file (whose URL, imported in a pool thread, carries tsx's
 * query): the child then loads tsx itself, as the pool's threads do.
 */
const FROM_SOURCE = new URL(import.meta.url).pathname.endsWith(".ts");
const CHILD_URL = new URL(`./recogniser-child.${FROM_SOURCE ? "ts" : "js"}`, import.meta.url);

/** A request waiting for its reply (successful replies only reach `resolve`). */
interface Pending {
  resolve(reply: Exclude<RecogniserReply, { error: string }>): void;
  reject(err: Error): void;
}

interface Running {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
}

let running: Running | undefined;
let loadFailure: Error | undefined;
let nextId = 0;
/** The process's CPU time as its latest reply gave it (ms; a new process starts again from 0). */
let lastCpuMs = 0;

function start(): Running {
  const execArgv = FROM_SOURCE ? ["--import", "tsx"] : [];
  const child = fork(CHILD_URL, [], {
    execArgv,
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  trackChild(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const pending = new Map<number, Pending>();
  const self: Running = { child, pending, ready: Promise.resolve() };
  let loaded = false;
  self.ready = new Promise<void>((resolve, reject) => {
    child.on("message", (message: RecogniserReply | RecogniserStatus) => {
      if ("ready" in message) {
        loaded = true;
        if (pending.size === 0) child.channel?.unref();
        return resolve();
      }
      if ("failed" in message) {
        loadFailure = new Error(`The line recogniser could not load its model: ${message.failed}`);
        return reject(loadFailure);
      }
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (pending.size === 0) child.channel?.unref();
      if ("error" in message) return waiting?.reject(new Error(message.error));
      lastCpuMs = message.cpuMs;
      waiting?.resolve(message);
    });
    child.once("exit", (code, signal) => {
      if (running === self) running = undefined;
      const why = new Error(
        `The line recogniser's process ended (${signal ?? `exit ${code}`})${stderr ? `: ${stderr.trim()}` : ""}.`,
      );
      // A process that ends before its model is loaded would end the same way on every page.
      if (!loaded) loadFailure ??= why;
      reject(loadFailure ?? why);
      for (const waiting of pending.values()) waiting.reject(why);
      pending.clear();
    });
    child.once("error", (err) => reject(err));
  });
  // An idle recogniser keeps neither its thread nor the process alive: its channel is held only while it loads or
  // reads.
  child.unref();
  if (child.stderr instanceof Socket) child.stderr.unref();
  return self;
}

/** Sends `request` (its id given here) to the process, started if need be, and waits for its reply. */
async function ask(request: Omit<LineRequest, "id"> | Omit<DetectRequest, "id">) {
  if (loadFailure) throw loadFailure;
  running ??= start();
  const { child, ready, pending } = running;
  await ready;
  const id = nextId++;
  return new Promise<Exclude<RecogniserReply, { error: string }>>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.channel?.ref();
    child.send({ ...request, id } as RecogniserRequest, (err) => {
      if (!err) return;
      pending.delete(id);
      reject(err);
    });
  });
}

/** The characters the model reads in a line image (INPUT_HEIGHT rows of `width` grey pixels), by CTC time step. */
export async function recogniseLine(
  pixels: Uint8Array,
  width: number,
): Promise<{ chars: DecodedChar[]; steps: number }> {
  const reply = await ask({ kind: "line", width, pixels });
  if (!("chars" in reply)) throw new Error("The recogniser answered a line with something else.");
  return reply;
}

/** The text lines the detector finds on a page image (`width` x `height` grey pixels, sides multiples of 32). */
export async function detectLines(pixels: Uint8Array, width: number, height: number): Promise<DetectedBox[]> {
  const reply = await ask({ kind: "detect", width, height, pixels });
  if (!("boxes" in reply)) throw new Error("The recogniser answered a page with something else.");
  return reply.boxes;
}

/**
 * CPU time (ms) the recogniser's process had used at its latest reply: benchmarks cost the work done there by
 * the difference across a page read alone.
 */
export function recogniserCpuMs(): number {
  return lastCpuMs;
}
