/**
 * What the service knows of each input format without opening a file. Plain data with no parser behind it, so the
 * main thread (which names split children) reads it without loading pdf.js or sharp; the formats' readers are
 * their PageSources (page-source.ts).
 */
import type { FileFormat } from "../document/model.js";

export interface FormatFacts {
  /** File name extension, without the dot. */
  extension: string;
  /** One page per file: its only slice is the file itself, which keeps its name. */
  singlePage: boolean;
}

export const FORMATS: Readonly<Record<FileFormat, FormatFacts>> = {
  pdf: { extension: "pdf", singlePage: false },
  png: { extension: "png", singlePage: true },
  jpeg: { extension: "jpg", singlePage: true },
};
