/**
 * The messages between the recogniser's process (recogniser-child.ts) and its client (recogniser-process.ts): line
 * images to read (PP-OCRv4 rec), and page images to find text lines on (PP-OCRv4 det).
 */
import type { DecodedChar } from "./ctc.js";
import type { DetectedBox } from "./paddle-detect.js";

/** The model's input height (PP-OCRv3/v4 rec). */
export const INPUT_HEIGHT = 48;

/** One grey plane repeated as the three colour planes the line model expects, scaled from 0..255 to -1..1. */
export function recognitionInput(pixels: Uint8Array, width: number): Float32Array {
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

/** A line image resized to INPUT_HEIGHT rows of `width` grey pixels. */
export interface LineRequest {
  kind: "line";
  id: number;
  width: number;
  pixels: Uint8Array;
}

/** A page image of `width` x `height` grey pixels (sides multiples of 32: paddle-detect.ts detectionSize). */
export interface DetectRequest {
  kind: "detect";
  id: number;
  width: number;
  height: number;
  pixels: Uint8Array;
}

export type RecogniserRequest = LineRequest | DetectRequest;

/**
 * What the process answers a request with, or why it could not; `cpuMs` is the process's CPU time (user + system)
 * so far, which benchmarks read to cost the work done in it.
 */
export type LineReply =
  | { id: number; chars: DecodedChar[]; steps: number; cpuMs: number }
  | { id: number; error: string };
export type DetectReply = { id: number; boxes: DetectedBox[]; cpuMs: number } | { id: number; error: string };
export type RecogniserReply = LineReply | DetectReply;

/** Sent once: the model is loaded and requests may come, or it could not be loaded and the process ends. */
export type RecogniserStatus = { ready: true } | { failed: string };
