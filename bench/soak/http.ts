/**
 * One timed HTTP call of the soak: the time runs until the whole body is read, and the status decides the outcome
 * (the statuses the caller counts as success, those it provoked on purpose, anything else an error). Calls cut
 * short by the soak's own abort (Ctrl-C) are not counted.
 */
import type { Recorder } from "./stats.js";

export interface CallSpec {
  kind: string;
  path: string;
  method?: "GET" | "POST";
  /** Bearer token; null sends none. Default: the client's current token. */
  token?: string | null;
  body?: RequestInit["body"];
  headers?: Record<string, string>;
  /** Statuses that are a success (default 200). */
  ok?: readonly number[];
  /** 4xx statuses the soak asked for on purpose. */
  expected?: readonly number[];
  /** Read the body as bytes rather than JSON. */
  binary?: boolean;
}

export interface CallResult {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  bytes: Uint8Array;
}

export class SoakClient {
  token = "";

  constructor(
    readonly url: string,
    private readonly rec: Recorder,
    private readonly signal: AbortSignal,
  ) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** The response, or undefined when the request failed outright (recorded as an error) or was aborted. */
  async call(spec: CallSpec): Promise<CallResult | undefined> {
    const headers = new Headers(spec.headers);
    const token = spec.token === undefined ? this.token : spec.token;
    if (token !== null) headers.set("authorization", `Bearer ${token}`);
    const started = performance.now();
    let status: number;
    let result: CallResult;
    try {
      const res = await fetch(`${this.url}${spec.path}`, {
        method: spec.method ?? "GET",
        headers,
        body: spec.body,
        signal: this.signal,
      });
      status = res.status;
      const bytes = new Uint8Array(await res.arrayBuffer());
      result = { status, headers: res.headers, json: spec.binary ? {} : parseJson(bytes), bytes };
    } catch (err) {
      if (this.signal.aborted) return undefined;
      const message =
        err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ""}` : String(err);
      this.rec.record(spec.kind, "error", performance.now() - started, `${spec.path}: ${message}`);
      return undefined;
    }
    const ms = performance.now() - started;
    if ((spec.ok ?? [200]).includes(status)) this.rec.record(spec.kind, "ok", ms);
    else if (spec.expected?.includes(status)) this.rec.record(spec.kind, "expected-4xx", ms);
    else {
      const body = spec.binary ? `${result.bytes.byteLength} bytes` : JSON.stringify(result.json);
      this.rec.record(spec.kind, "error", ms, `${spec.method ?? "GET"} ${spec.path} -> ${status} ${body}`);
    }
    return result;
  }
}

function parseJson(bytes: Uint8Array): Record<string, unknown> {
  const text = new TextDecoder().decode(bytes);
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    return { unparsed: text.slice(0, 200) };
  }
}
