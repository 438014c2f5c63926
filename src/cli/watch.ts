/**
 * `docsift watch DIR`: uploads each new PDF/PNG/JPG that lands in DIR once its size has settled, writes
 * `<file>.json` beside it when its result is final, and appends a line to DIR/docsift-summary.csv. The state file
 * DIR/.docsift-watch.json remembers what was sent, so a restart resumes waiting instead of uploading again.
 */
import { createHash } from "node:crypto";
import { type FSWatcher, watch } from "node:fs";
import { appendFile, readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Catalog, DocsiftApiError, DocsiftClient, UploadOptions } from "../client/index.js";
import { commandLineOrHelp, integerOption, UsageError } from "./args.js";
import * as remote from "./remote-client.js";
import { csvHeader, csvRow, failedOutcome, type Outcome } from "./remote-output.js";
import { loadState, STATE_FILE, stateSaver, type WatchState, writeFileAtomic } from "./remote-watch-state.js";

const HELP = `Usage: docsift watch DIR (--product ID | --field-set ID)... [options]

Watches DIR: each new PDF, PNG or JPG is uploaded once its size stops changing; when its result is FINALISED or
FAILED, <file>.json (e.g. invoice.pdf.json) is written beside it and a line is appended to DIR/docsift-summary.csv
(columns file, fileId, status, then each field's value). DIR/${STATE_FILE} remembers what was uploaded: after a
restart, files are not uploaded again and pending results are fetched. A file changed after its upload is uploaded
again. Events are printed to stdout as JSON lines. Ctrl-C (SIGINT) or SIGTERM stops cleanly.

Options:
${remote.UPLOAD_FLAGS_HELP}
  --interval MS                scan period (default 2000); file-system events trigger a scan sooner
  --stable MS                  a file must keep its size and mtime this long before upload (default 1000)
  --concurrency N              uploads in flight at once (default 2)
  -h, --help                   show this help

${remote.REMOTE_ENV_HELP}
`;

const SUMMARY_FILE = "docsift-summary.csv";
const DOCUMENT = /\.(pdf|png|jpe?g)$/i;

type Event = { event: string; file?: string; fileId?: string; status?: string; error?: unknown; [k: string]: unknown };

function emit(event: Event): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/** Field names of the selection in the service's catalogue order: the summary's columns. */
export function selectionFields(catalog: Catalog, options: UploadOptions): string[] {
  const setIds = new Set<string>(options.fieldSets ?? []);
  for (const id of options.products ?? []) {
    for (const s of catalog.products.find((p) => p.id === id)?.fieldSets ?? []) setIds.add(s);
  }
  return catalog.fieldSets.filter((s) => setIds.has(s.id)).flatMap((s) => s.fields.map((f) => f.name));
}

/** The summary's columns: its existing header (so a restart keeps them), or a new header written now. */
async function summaryColumns(path: string, fields: () => Promise<string[]>): Promise<string[]> {
  try {
    const header = (await readFile(path, "utf8")).split(/\r?\n/, 1)[0] ?? "";
    if (header.startsWith("file,fileId,status")) return header.split(",").slice(3);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const columns = await fields();
  await appendFile(path, csvHeader(columns));
  return columns;
}

/** Errors worth trying again later: the service unreachable, overloaded, or failing. */
/** The Idempotency-Key of one version (size, mtime) of one file in the watched folder. */
function watchUploadKey(dir: string, name: string, size: number, mtimeMs: number): string {
  const digest = createHash("sha256")
    .update([resolve(dir), name, size, mtimeMs].join("\u0000"))
    .digest("hex");
  return `watch-${digest.slice(0, 40)}`;
}

const isTransient = (err: DocsiftApiError): boolean => err.status === 0 || err.status === 429 || err.status >= 500;
const isAuthFailure = (err: DocsiftApiError): boolean => err.status === 401 || err.status === 403;

interface WatchConfig {
  dir: string;
  client: DocsiftClient;
  options: UploadOptions;
  intervalMs: number;
  stableMs: number;
  concurrency: number;
}

class Watcher {
  readonly #config: WatchConfig;
  readonly #state: WatchState;
  readonly #save: (state: WatchState) => Promise<void>;
  readonly #columns: string[];
  readonly #stop = new AbortController();
  /** Last size and mtime seen of files not yet uploaded, and since when they have been so. */
  readonly #candidates = new Map<string, { size: number; mtimeMs: number; since: number }>();
  readonly #queued: Array<{ name: string; size: number; mtimeMs: number }> = [];
  readonly #busy = new Set<string>();
  readonly #work = new Set<Promise<void>>();
  #uploading = 0;
  #scanning: Promise<void> | undefined;
  #fatal: DocsiftApiError | undefined;

  constructor(config: WatchConfig, state: WatchState, columns: string[]) {
    this.#config = config;
    this.#state = state;
    this.#save = stateSaver(join(config.dir, STATE_FILE));
    this.#columns = columns;
  }

  /** Scans until stopped; resolves once in-flight uploads are recorded. Rejects with an auth failure. */
  async run(): Promise<void> {
    const pending = Object.entries(this.#state.files).filter(([, e]) => e.status === "UPLOADED" && e.fileId);
    for (const [name, entry] of pending) this.#track(this.#awaitResult(name, entry.fileId as string));
    let soon: NodeJS.Timeout | undefined;
    let watcher: FSWatcher | undefined;
    try {
      // Events only hurry the next scan; the periodic scan alone is enough (fs.watch misses events on some mounts).
      watcher = watch(this.#config.dir, () => {
        soon ??= setTimeout(() => {
          soon = undefined;
          this.#scanOnce();
        }, 100);
      });
    } catch {
      watcher = undefined;
    }
    const timer = setInterval(() => this.#scanOnce(), this.#config.intervalMs);
    await this.#scanOnce();
    emit({
      event: "ready",
      dir: this.#config.dir,
      known: Object.keys(this.#state.files).length,
      resumed: pending.length,
    });
    const stopped = this.#stop.signal;
    if (!stopped.aborted) await new Promise((resolve) => stopped.addEventListener("abort", resolve, { once: true }));
    clearInterval(timer);
    clearTimeout(soon);
    watcher?.close();
    await this.#scanning;
    while (this.#work.size > 0) await Promise.allSettled([...this.#work]);
    await this.#save(this.#state);
    if (this.#fatal) throw this.#fatal;
  }

  stop(): void {
    this.#stop.abort();
  }

  #track(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((err: unknown) => emit({ event: "error", error: remote.asApiError(err).toJSON() }))
      .finally(() => this.#work.delete(tracked));
    this.#work.add(tracked);
  }

  #scanOnce(): Promise<void> {
    if (this.#stop.signal.aborted) return Promise.resolve();
    this.#scanning ??= this.#scan()
      .catch((err: unknown) => emit({ event: "error", error: remote.asApiError(err).toJSON() }))
      .finally(() => {
        this.#scanning = undefined;
      });
    return this.#scanning;
  }

  async #scan(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.#config.dir)) {
      if (!DOCUMENT.test(name) || name.startsWith(".") || this.#busy.has(name)) continue;
      const info = await stat(join(this.#config.dir, name)).catch(() => undefined);
      if (!info?.isFile()) continue;
      const known = this.#state.files[name];
      if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) continue;
      const seen = this.#candidates.get(name);
      if (!seen || seen.size !== info.size || seen.mtimeMs !== info.mtimeMs) {
        this.#candidates.set(name, { size: info.size, mtimeMs: info.mtimeMs, since: now });
        continue;
      }
      if (now - seen.since < this.#config.stableMs) continue;
      this.#candidates.delete(name);
      this.#busy.add(name);
      this.#queued.push({ name, size: info.size, mtimeMs: info.mtimeMs });
    }
    this.#pump();
  }

  #pump(): void {
    while (this.#uploading < this.#config.concurrency && this.#queued.length > 0 && !this.#stop.signal.aborted) {
      const next = this.#queued.shift() as { name: string; size: number; mtimeMs: number };
      this.#uploading++;
      this.#track(
        this.#upload(next).finally(() => {
          this.#uploading--;
          this.#pump();
        }),
      );
    }
    // Stopping: what was queued but not sent is simply picked up again at the next start.
    if (this.#stop.signal.aborted) for (const q of this.#queued.splice(0)) this.#busy.delete(q.name);
  }

  async #upload(file: { name: string; size: number; mtimeMs: number }): Promise<void> {
    const { name, size, mtimeMs } = file;
    try {
      // Not tied to the stop signal: an upload under way finishes, so its receipt is recorded and never repeated.
      // The key names this version of the file: a crash between the upload and the state save, or a retry after an
      // error, finds the first upload (the service remembers keys for 24 h) instead of storing the file twice.
      const idempotencyKey = watchUploadKey(this.#config.dir, name, size, mtimeMs);
      const receipt = await this.#config.client.upload(join(this.#config.dir, name), {
        ...this.#config.options,
        idempotencyKey,
      });
      const entry = {
        size,
        mtimeMs,
        fileId: receipt.fileId,
        uploadedAt: receipt.uploadedAt,
        status: "UPLOADED" as const,
      };
      this.#state.files[name] = entry;
      await this.#save(this.#state);
      emit({ event: "uploaded", file: name, fileId: receipt.fileId });
      this.#track(this.#awaitResult(name, receipt.fileId));
    } catch (err) {
      const error = remote.asApiError(err);
      this.#busy.delete(name);
      if (isAuthFailure(error)) return this.#fail(error);
      emit({ event: "error", file: name, error: error.toJSON() });
      // The service refused the file itself (type, size, pages): record that once, do not retry forever.
      if (!isTransient(error)) await this.#finish(name, { size, mtimeMs }, failedOutcome(error, { file: name }));
    }
  }

  async #awaitResult(name: string, fileId: string): Promise<void> {
    this.#busy.add(name);
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      try {
        const result = await this.#config.client.waitForResult(fileId, { signal });
        const entry = this.#state.files[name];
        await this.#finish(name, { size: entry?.size ?? 0, mtimeMs: entry?.mtimeMs ?? 0 }, { file: name, ...result });
        return;
      } catch (err) {
        if (signal.aborted) return;
        const error = remote.asApiError(err);
        if (isAuthFailure(error)) return this.#fail(error);
        if (!isTransient(error)) {
          const entry = this.#state.files[name];
          const outcome = failedOutcome(error, { file: name, fileId });
          await this.#finish(name, { size: entry?.size ?? 0, mtimeMs: entry?.mtimeMs ?? 0 }, outcome);
          return;
        }
        emit({ event: "error", file: name, fileId, error: error.toJSON() });
        await new Promise((r) => setTimeout(r, this.#config.intervalMs));
      }
    }
  }

  /** Writes `<name>.json`, appends the summary line, then marks the file done in the state. */
  async #finish(name: string, version: { size: number; mtimeMs: number }, outcome: Outcome): Promise<void> {
    const dir = this.#config.dir;
    await writeFileAtomic(join(dir, `${name}.json`), `${JSON.stringify(outcome, null, 2)}\n`);
    await appendFile(join(dir, SUMMARY_FILE), csvRow(outcome, this.#columns));
    const status = outcome.status === "FINALISED" ? "FINALISED" : "FAILED";
    this.#state.files[name] = { ...this.#state.files[name], ...version, status };
    await this.#save(this.#state);
    this.#busy.delete(name);
    emit({ event: "done", file: name, fileId: outcome.fileId, status: outcome.status });
  }

  #fail(error: DocsiftApiError): void {
    this.#fatal ??= error;
    this.stop();
  }
}

export function run(argv: string[]): Promise<number> {
  return remote.runRemote(HELP, async () => {
    const line = commandLineOrHelp(argv, HELP, {
      ...remote.UPLOAD_FLAG_OPTIONS,
      interval: { type: "string" },
      stable: { type: "string" },
      concurrency: { type: "string" },
    });
    if (line === null) return 0;
    const { values, positionals } = line;
    if (positionals.length !== 1) throw new UsageError("Name exactly one DIR to watch.");
    const dir = positionals[0] as string;
    if (!(await stat(dir).catch(() => undefined))?.isDirectory()) throw new UsageError(`${dir} is not a directory.`);
    const options = remote.uploadOptionsFrom(values);
    const client = remote.clientFromEnv();
    const config: WatchConfig = {
      dir,
      client,
      options,
      intervalMs: Math.max(50, integerOption("--interval", values.interval, 0) ?? 2000),
      stableMs: integerOption("--stable", values.stable, 0) ?? 1000,
      concurrency: integerOption("--concurrency", values.concurrency, 1) ?? 2,
    };
    const state = await loadState(join(dir, STATE_FILE));
    // Also checks the credentials and the address before anything is scanned.
    const columns = await summaryColumns(join(dir, SUMMARY_FILE), async () =>
      selectionFields(await client.catalog(), options),
    );
    await client.accessToken();
    const watcher = new Watcher(config, state, columns);
    const stop = (): void => watcher.stop();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      await watcher.run();
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
    emit({ event: "stopped" });
    return 0;
  });
}
