/** The messages between the line recogniser's process (recogniser-child.ts) and its client (recogniser-process.ts). */
import type { DecodedChar } from "./ctc.js";

/** The model's input height (PP-OCRv3/v4 rec). */
export const INPUT_HEIGHT = 48;

/** A line image resized to INPUT_HEIGHT rows of `width` grey pixels. */
export interface LineRequest {
  id: number;
  width: number;
  pixels: Uint8Array;
}

/** The characters read off one LineRequest, or why it could not be read. */
export type LineReply = { id: number; chars: DecodedChar[]; steps: number } | { id: number; error: string };

/** Sent once: the model is loaded and requests may come, or it could not be loaded and the process ends. */
export type RecogniserStatus = { ready: true } | { failed: string };
