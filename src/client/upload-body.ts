/**
 * Turns what a caller has (a path, bytes, a stream) into a replayable body for the upload endpoints. A path becomes
 * a file-backed Blob (read from disk on each send, never held in memory); a stream is read once into memory, up to
 * the service's size limit, because a retry must be able to send it again.
 */
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import { DocsiftApiError } from "./errors.js";
import type { UploadOptions } from "./types.js";

/** A path, bytes, a Blob, or a stream of bytes (a Node Readable is one). */
export type UploadSource = string | Uint8Array | ArrayBuffer | Blob | AsyncIterable<Uint8Array>;

/** The service's upload limit: a stream longer than this is refused before anything is sent. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export interface PreparedFile {
  blob: Blob;
  fileName: string;
}

function streamPath(source: object): string | undefined {
  const path = (source as { path?: unknown }).path;
  if (typeof path === "string") return path;
  return Buffer.isBuffer(path) ? path.toString() : undefined;
}

async function readStream(source: AsyncIterable<Uint8Array>): Promise<Blob> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += bytes.byteLength;
    if (size > MAX_UPLOAD_BYTES) {
      throw new DocsiftApiError(
        413,
        "file_too_large",
        `The stream is larger than the ${MAX_UPLOAD_BYTES / 1048576} MiB limit.`,
      );
    }
    chunks.push(bytes);
  }
  return new Blob(chunks);
}

export async function prepareFile(source: UploadSource, fileName: string | undefined): Promise<PreparedFile> {
  if (typeof source === "string") {
    return { blob: await openAsBlob(source), fileName: fileName ?? basename(source) };
  }
  if (source instanceof Blob) return { blob: source, fileName: fileName ?? "document" };
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    return { blob: new Blob([source]), fileName: fileName ?? "document" };
  }
  const path = streamPath(source);
  return { blob: await readStream(source), fileName: fileName ?? (path ? basename(path) : "document") };
}

type ParamValue = string | readonly string[] | Record<string, unknown>;

/** The upload parameters that were given, by their service names (the same for both upload endpoints). */
export function uploadParams(options: UploadOptions): Array<[string, ParamValue]> {
  const params: Array<[string, ParamValue | undefined]> = [
    ["products", options.products],
    ["fieldSets", options.fieldSets],
    ["fieldSet", options.fieldSet],
    ["locale", options.locale],
    ["tags", options.tags],
    ["parentDocId", options.parentDocId],
    ["workflowId", options.workflowId],
    ["workflowOptions", options.workflowOptions],
    ["childWorkflowId", options.childWorkflowId],
    ["childWorkflowOptions", options.childWorkflowOptions],
  ];
  return params.filter((p): p is [string, ParamValue] => p[1] !== undefined);
}

export function multipartBody(file: PreparedFile, options: UploadOptions): FormData {
  const form = new FormData();
  // Parameters first: the service can refuse a bad form before the file streams. Lists go as repeated fields,
  // objects as their JSON text.
  for (const [name, value] of uploadParams(options)) {
    if (typeof value === "string") form.append(name, value);
    else if (Array.isArray(value)) for (const item of value) form.append(name, item);
    else form.append(name, JSON.stringify(value));
  }
  form.append("fileToUpload", file.blob, file.fileName);
  return form;
}

/** The body of POST /fileupload/json: the same parameters as JSON values. */
export function jsonUploadBody(base64: string, options: UploadOptions): string {
  const body = Object.fromEntries(uploadParams(options));
  return JSON.stringify({ fileToUpload: base64, fileName: options.fileName, ...body });
}
