/**
 * Every setting of a docsift process, parsed once from the environment (and the command-line flags that mirror some
 * variables) into a typed Config. This file owns every variable's name, default and meaning: adding an option means
 * adding it here (and to README "Configuration"); modules below take the parsed values, never the environment.
 *
 * A bad value is a ConfigError naming the variable (or flag) and the value, raised before anything starts: a typo
 * must neither start a process on a default nor surface later as a failed file.
 */
import { availableParallelism } from "node:os";
import { DEFAULT_MAX_QUEUE } from "../api/queue-bound.js";
import { parseRateLimit, type RateLimit } from "../api/rate-limit.js";
import { DEFAULT_RATE_LIMITS, type RateClass, type RateLimitSettings } from "../api/rate-limit-hook.js";
import { MAX_ATTEMPTS } from "../domain/attempts.js";
import { DEFAULT_PAGE_TIMEOUT_MS, type OcrEngineKind } from "../ingest/ocr/engine.js";
import type { OcrSettings } from "../ingest/ocr/factory.js";
import type { PgQueueTuning } from "../queue/pg-queue.js";
import type { S3Settings } from "../store/blob-s3.js";
import { DEFAULT_PAGE_IMAGE_SETTINGS, type PageImageSettings } from "../workflows/page-images.js";
import { DEFAULT_ORPHAN_GRACE_S } from "../workflows/sweep-orphans.js";
import type { TaskLimits } from "../workflows/threads/processing-tasks.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../workflows/webhooks.js";

/** The environment as read: names to values, unset ones absent. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A bad setting, named with its value; the CLI answers it as a usage mistake (exit 2). */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export interface StorageConfig {
  /** Data directory (--data, DOCSIFT_DATA; default ./data): SQLite store, blobs, page cache. */
  dataDir: string;
  /** postgres://... (--database-url, DATABASE_URL): store, queue and completion signals in PostgreSQL. */
  databaseUrl: string | undefined;
  /** s3://bucket/prefix (--blob-url, BLOB_URL): blobs in S3; only with a database URL. */
  blobUrl: string | undefined;
  /** S3 client settings, used with an s3:// blob URL. */
  s3: S3Settings;
}

export interface HttpConfig {
  /** Interface to bind (--host, HOST; default 127.0.0.1). */
  host: string;
  /** Port (--port, PORT; default 8080; 0 picks a free one). */
  port: number;
  /** Default and cap of a blocking result wait, ms (DOCSIFT_RESULT_WAIT_MS; default 120000). */
  resultWaitMs: number;
  /** `id:secret` of a client that must exist (DOCSIFT_BOOTSTRAP_CLIENT). */
  bootstrapClient: string | undefined;
  /** DOCSIFT_RATE_LIMIT, DOCSIFT_UPLOAD_RATE_LIMIT, DOCSIFT_TOKEN_RATE_LIMIT; default DEFAULT_RATE_LIMITS. */
  rateLimits: RateLimitSettings;
  /** Files waiting or running past which uploads get 503 (DOCSIFT_MAX_QUEUE; 0 = no bound). */
  maxQueue: number;
  /** Whose X-Forwarded-For to believe (DOCSIFT_TRUST_PROXY): any proxy (true) or these addresses/CIDRs. */
  trustProxy: boolean | string | undefined;
}

export interface JobsConfig {
  /** false: API only (`serve --no-worker`), jobs run in `docsift worker` processes. */
  run: boolean;
  /** Processing threads = jobs at once (--workers, DOCSIFT_WORKERS; default the core count). */
  threads: number;
  /** A job's time and heap limit (DOCSIFT_JOB_TIMEOUT_MS, DOCSIFT_JOB_MEMORY_MB). */
  limits: TaskLimits;
  /** An upload check's time and heap limit (DOCSIFT_INSPECT_TIMEOUT_MS, DOCSIFT_INSPECT_MEMORY_MB). */
  inspectLimits: TaskLimits;
  /** Files older than this many days are deleted in the background (DOCSIFT_RETENTION_DAYS); undefined: never. */
  retentionDays: number | undefined;
  /** Crash leftovers in the blob store older than this are removed, ms (DOCSIFT_ORPHAN_GRACE_S). */
  orphanGraceMs: number;
  /** pg-boss settings of the PostgreSQL queue (PGBOSS_SCHEMA, DOCSIFT_JOB_*, DOCSIFT_QUEUE_*). */
  queue: PgQueueTuning;
}

/** Everything `docsift serve` and `docsift worker` run on. */
export interface Config {
  storage: StorageConfig;
  http: HttpConfig;
  jobs: JobsConfig;
  /** Page image renders (DOCSIFT_RENDER_THREADS, DOCSIFT_RENDER_QUEUE, DOCSIFT_PAGE_CACHE_MB). */
  pageImages: PageImageSettings;
  /** OCR of scanned pages (DOCSIFT_OCR_ENGINE, DOCSIFT_OCR_FALLBACK, DOCSIFT_OCR_REREAD, DOCSIFT_OCR_TIMEOUT_MS). */
  ocr: OcrSettings;
  /** pino level (LOG_LEVEL; default info). */
  logLevel: LogLevel;
  /**
   * Webhook deliveries: DOCSIFT_WEBHOOK_ALLOW_HTTP=1 (http URLs), DOCSIFT_WEBHOOK_ALLOW_PRIVATE=1 (loopback and
   * private targets), DOCSIFT_WEBHOOK_RETRY_BASE_MS (first retry delay, default 5000), DOCSIFT_WEBHOOK_RETRY_HOURS
   * (retry window, default 24).
   */
  webhooks: WebhookSettings;
}

/** The flags of `serve` and `worker` that mirror a variable; a flag given wins over its variable. */
export interface ConfigFlags {
  port?: string;
  host?: string;
  workers?: string;
  data?: string;
  "database-url"?: string;
  "blob-url"?: string;
  /** `serve --no-worker`. */
  "no-worker"?: boolean;
}

/** Where the remote CLI commands (upload, result, files, watch) find the service. */
export interface RemoteConfig {
  /** DOCSIFT_URL; default http://127.0.0.1:8080. */
  baseUrl: string;
  /** DOCSIFT_API_KEY=id:secret, or DOCSIFT_CLIENT_ID and DOCSIFT_CLIENT_SECRET. */
  clientId: string;
  clientSecret: string;
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_DATA_DIR = "./data";
export const DEFAULT_RESULT_WAIT_MS = 120_000;
export const DEFAULT_REMOTE_URL = "http://127.0.0.1:8080";
/**
 * Sixteen OCR pages take well under a minute: a job past five hangs, and would hang again. The dev corpora and
 * bench:hostile run within the heap, while a page of millions of operators does not.
 */
export const DEFAULT_JOB_LIMITS: TaskLimits = { taskTimeoutMs: 5 * 60_000, maxHeapMb: 1024 };
/**
 * An honest 20 MB PDF is inspected in well under a second, so a file still being parsed after 20 s is a parser
 * attack; inspection reads the object structure, never a page's content, hence the small heap.
 */
export const DEFAULT_INSPECT_LIMITS: TaskLimits = { taskTimeoutMs: 20_000, maxHeapMb: 256 };
export const DEFAULT_PG_QUEUE_TUNING: PgQueueTuning = {
  schema: undefined,
  expireInSeconds: 900,
  maintenanceIntervalSeconds: 30,
  pollingIntervalSeconds: 2,
  // Beyond the runner's own attempts, so store outages (where the handler throws) are retried too.
  retryLimit: MAX_ATTEMPTS + 3,
  retryDelaySeconds: 2,
};

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const RATE_LIMIT_VARIABLES: Record<RateClass, string> = {
  requests: "DOCSIFT_RATE_LIMIT",
  uploads: "DOCSIFT_UPLOAD_RATE_LIMIT",
  token: "DOCSIFT_TOKEN_RATE_LIMIT",
};

/** A value with the name a message about it uses: the flag when the flag gave it, else the variable. */
interface Setting {
  name: string;
  raw: string | undefined;
}

function variable(env: Env, name: string): Setting {
  return { name, raw: env[name] };
}

function flagOr(flag: string, value: string | undefined, env: Env, name: string): Setting {
  return value === undefined ? variable(env, name) : { name: flag, raw: value };
}

function bad(setting: Setting, expected: string): ConfigError {
  return new ConfigError(`${setting.name} must be ${expected}, not "${setting.raw}"`);
}

/** Unset and empty are the same: the default. */
function given(setting: Setting): string | undefined {
  const raw = setting.raw?.trim();
  return raw === undefined || raw === "" ? undefined : raw;
}

function integer(setting: Setting, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = given(setting);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw bad(setting, max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`);
  }
  return n;
}

function positive(setting: Setting, fallback: number): number {
  const raw = given(setting);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!(Number.isFinite(n) && n > 0)) throw bad(setting, "a positive number");
  return n;
}

function choice<const T extends string>(setting: Setting, choices: readonly T[]): T | undefined {
  const raw = given(setting);
  if (raw === undefined) return undefined;
  const found = choices.find((c) => c === raw);
  if (found === undefined) throw bad(setting, choices.join(" or "));
  return found;
}

/** A string setting; empty counts as unset. */
function text(setting: Setting): string | undefined {
  return setting.raw || undefined;
}

/** The storage settings: every command that opens storage (serve, worker, migrate, clients, keys). */
export function storageConfig(flags: ConfigFlags = {}, env: Env = process.env): StorageConfig {
  const endpoint = env.S3_ENDPOINT || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const pathStyle = choice(variable(env, "S3_FORCE_PATH_STYLE"), ["true", "false"]);
  return {
    dataDir: text(flagOr("--data", flags.data, env, "DOCSIFT_DATA")) ?? DEFAULT_DATA_DIR,
    databaseUrl: text(flagOr("--database-url", flags["database-url"], env, "DATABASE_URL")),
    blobUrl: text(flagOr("--blob-url", flags["blob-url"], env, "BLOB_URL")),
    s3: {
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
      endpoint,
      // A custom endpoint (MinIO, Ceph...) usually serves buckets as paths, not host names.
      forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === "true",
    },
  };
}

function rateLimits(env: Env): RateLimitSettings {
  const read = (budget: RateClass): RateLimit | undefined => {
    const setting = variable(env, RATE_LIMIT_VARIABLES[budget]);
    const raw = given(setting);
    if (raw === undefined) return DEFAULT_RATE_LIMITS[budget];
    try {
      return parseRateLimit(setting.name, raw);
    } catch (err) {
      throw new ConfigError(err instanceof Error ? err.message : String(err));
    }
  };
  return { requests: read("requests"), uploads: read("uploads"), token: read("token") };
}

function maxQueue(env: Env): number {
  const setting = variable(env, "DOCSIFT_MAX_QUEUE");
  if (given(setting)?.toLowerCase() === "off") return 0;
  return integer(setting, DEFAULT_MAX_QUEUE, 0);
}

/** `true` trusts any proxy; otherwise a comma list of addresses or CIDRs; unset or `false`: none. */
function trustProxy(env: Env): boolean | string | undefined {
  const raw = given(variable(env, "DOCSIFT_TRUST_PROXY"));
  if (raw === undefined || raw === "false") return undefined;
  return raw === "true" ? true : raw;
}

/** Days, fractions allowed; unset, `0` or `off` keeps files forever. */
function retentionDays(env: Env): number | undefined {
  const setting = variable(env, "DOCSIFT_RETENTION_DAYS");
  const raw = given(setting)?.toLowerCase();
  if (raw === undefined || raw === "off" || raw === "0") return undefined;
  const days = Number(raw);
  if (!(Number.isFinite(days) && days > 0)) throw bad(setting, "a positive number of days or off");
  return days;
}

function queueTuning(env: Env): PgQueueTuning {
  const d = DEFAULT_PG_QUEUE_TUNING;
  const int = (name: string, fallback: number): number => integer(variable(env, name), fallback, 1);
  return {
    schema: text(variable(env, "PGBOSS_SCHEMA")),
    expireInSeconds: int("DOCSIFT_JOB_EXPIRE_SECONDS", d.expireInSeconds),
    maintenanceIntervalSeconds: int("DOCSIFT_QUEUE_MAINTENANCE_SECONDS", d.maintenanceIntervalSeconds),
    pollingIntervalSeconds: int("DOCSIFT_QUEUE_POLL_SECONDS", d.pollingIntervalSeconds),
    retryLimit: int("DOCSIFT_JOB_RETRIES", d.retryLimit),
    retryDelaySeconds: int("DOCSIFT_JOB_RETRY_DELAY_SECONDS", d.retryDelaySeconds),
  };
}

function limits(env: Env, timeout: string, memory: string, defaults: TaskLimits): TaskLimits {
  return {
    taskTimeoutMs: positive(variable(env, timeout), defaults.taskTimeoutMs),
    maxHeapMb: positive(variable(env, memory), defaults.maxHeapMb),
  };
}

function pageImages(env: Env): PageImageSettings {
  const d = DEFAULT_PAGE_IMAGE_SETTINGS;
  return {
    threads: integer(variable(env, "DOCSIFT_RENDER_THREADS"), d.threads, 1),
    maxQueued: integer(variable(env, "DOCSIFT_RENDER_QUEUE"), d.maxQueued, 0),
    cacheMb: integer(variable(env, "DOCSIFT_PAGE_CACHE_MB"), d.cacheMb, 0),
  };
}

/**
 * The OCR settings. DOCSIFT_OCR_ENGINE unset, `tesseract` or `auto` leaves the choice to the factory: the tesseract
 * CLI when it is in a PATH directory, else tesseract.js (`auto` is what measured best on every kind of page: see
 * the README); `tesseract-cli`, `tesseract-js` or `paddle` name one. The CLI falls back to tesseract.js page by page,
 * and PaddleOCR to tesseract, unless DOCSIFT_OCR_FALLBACK=none; doubtful lines of tesseract's are re-read by the line
 * recogniser unless DOCSIFT_OCR_REREAD=off.
 */
export function ocrConfig(env: Env = process.env): OcrSettings {
  const engines = ["tesseract-cli", "tesseract-js", "paddle", "tesseract", "auto"] as const;
  const engine = choice(variable(env, "DOCSIFT_OCR_ENGINE"), engines);
  return {
    engine: engine === "tesseract" || engine === "auto" ? undefined : (engine satisfies OcrEngineKind | undefined),
    fallback: choice(variable(env, "DOCSIFT_OCR_FALLBACK"), ["tesseract-js", "none"]) !== "none",
    reread: choice(variable(env, "DOCSIFT_OCR_REREAD"), ["doubtful", "off"]) !== "off",
    pageTimeoutMs: positive(variable(env, "DOCSIFT_OCR_TIMEOUT_MS"), DEFAULT_PAGE_TIMEOUT_MS),
    searchPath: env.PATH ?? "",
  };
}

/** The settings only the environment gives: no flag mirrors them, and ServiceConfig has no field for them. */
function environmentOnly(env: Env): Pick<Config, "pageImages" | "ocr" | "webhooks"> & {
  jobs: Pick<JobsConfig, "limits" | "inspectLimits" | "orphanGraceMs" | "queue">;
} {
  return {
    jobs: {
      limits: limits(env, "DOCSIFT_JOB_TIMEOUT_MS", "DOCSIFT_JOB_MEMORY_MB", DEFAULT_JOB_LIMITS),
      inspectLimits: limits(env, "DOCSIFT_INSPECT_TIMEOUT_MS", "DOCSIFT_INSPECT_MEMORY_MB", DEFAULT_INSPECT_LIMITS),
      orphanGraceMs: positive(variable(env, "DOCSIFT_ORPHAN_GRACE_S"), DEFAULT_ORPHAN_GRACE_S) * 1000,
      queue: queueTuning(env),
    },
    pageImages: pageImages(env),
    ocr: ocrConfig(env),
    webhooks: webhookSettings(env),
  };
}

/** `1` or `true` turns a switch on; unset, empty, `0` or `false` leaves it off. */
function switchOn(setting: Setting): boolean {
  const raw = given(setting);
  if (raw === undefined || raw === "0" || raw === "false") return false;
  if (raw === "1" || raw === "true") return true;
  throw bad(setting, "1 or 0");
}

function webhookSettings(env: Env): WebhookSettings {
  const defaults = DEFAULT_WEBHOOK_SETTINGS;
  return {
    allowHttp: switchOn(variable(env, "DOCSIFT_WEBHOOK_ALLOW_HTTP")),
    allowPrivate: switchOn(variable(env, "DOCSIFT_WEBHOOK_ALLOW_PRIVATE")),
    retryBaseMs: integer(variable(env, "DOCSIFT_WEBHOOK_RETRY_BASE_MS"), defaults.retryBaseMs, 1),
    retryHours: positive(variable(env, "DOCSIFT_WEBHOOK_RETRY_HOURS"), defaults.retryHours),
  };
}

function logLevel(setting: Setting): LogLevel {
  return choice(setting, LOG_LEVELS) ?? "info";
}

/** The whole Config of `serve` or `worker`: flags first, then the environment, then the defaults. */
export function loadConfig(flags: ConfigFlags = {}, env: Env = process.env): Config {
  const only = environmentOnly(env);
  return {
    storage: storageConfig(flags, env),
    http: {
      host: text(flagOr("--host", flags.host, env, "HOST")) ?? DEFAULT_HOST,
      port: integer(flagOr("--port", flags.port, env, "PORT"), DEFAULT_PORT, 0, 65535),
      resultWaitMs: integer(variable(env, "DOCSIFT_RESULT_WAIT_MS"), DEFAULT_RESULT_WAIT_MS, 0),
      bootstrapClient: text(variable(env, "DOCSIFT_BOOTSTRAP_CLIENT")),
      rateLimits: rateLimits(env),
      maxQueue: maxQueue(env),
      trustProxy: trustProxy(env),
    },
    jobs: {
      ...only.jobs,
      run: flags["no-worker"] !== true,
      threads: integer(flagOr("--workers", flags.workers, env, "DOCSIFT_WORKERS"), availableParallelism(), 1),
      retentionDays: retentionDays(env),
    },
    pageImages: only.pageImages,
    ocr: only.ocr,
    webhooks: only.webhooks,
    logLevel: logLevel(variable(env, "LOG_LEVEL")),
  };
}

/**
 * What the library's `startService` takes (test servers, benchmarks, embedding docsift in another Node process).
 * A field left out takes its default, not its variable: a caller says what it wants, whatever the environment holds.
 * The settings it has no field for (job limits, page images, OCR, queue tuning, S3) still come from the environment.
 */
export interface ServiceConfig {
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Processing threads; default: the machine's available parallelism. */
  workers?: number;
  /** Default and cap of a blocking result wait, ms; default DEFAULT_RESULT_WAIT_MS. */
  resultWaitMs?: number;
  /** `id:secret` of the bootstrap client. */
  bootstrapClient?: string;
  /** pino level (fatal .. trace, or silent); default info. */
  logLevel?: string;
  /** postgres://...: store and queue in PostgreSQL instead of the data directory. */
  databaseUrl?: string;
  /** s3://bucket/prefix: blobs in S3; only with databaseUrl. */
  blobUrl?: string;
  /** false: API only; jobs run in `docsift worker` processes. Needs databaseUrl. */
  runJobs?: boolean;
  /** Rate limits per client and, for tokens, per address; default DEFAULT_RATE_LIMITS. */
  rateLimits?: RateLimitSettings;
  /** Files waiting or running past which uploads get 503; 0 = no bound; default DEFAULT_MAX_QUEUE. */
  maxQueue?: number;
  /** Whose X-Forwarded-For to believe for client addresses; default none. */
  trustProxy?: boolean | string;
  /** Files older than this many days are deleted in the background; default DOCSIFT_RETENTION_DAYS, else never. */
  retentionDays?: number;
}

export function fromServiceConfig(service: ServiceConfig, env: Env = process.env): Config {
  const only = environmentOnly(env);
  return {
    storage: {
      dataDir: service.dataDir,
      databaseUrl: service.databaseUrl,
      blobUrl: service.blobUrl,
      s3: storageConfig({}, env).s3,
    },
    http: {
      host: service.host,
      port: service.port,
      resultWaitMs: service.resultWaitMs ?? DEFAULT_RESULT_WAIT_MS,
      bootstrapClient: service.bootstrapClient,
      rateLimits: service.rateLimits ?? DEFAULT_RATE_LIMITS,
      maxQueue: service.maxQueue ?? DEFAULT_MAX_QUEUE,
      trustProxy: service.trustProxy,
    },
    jobs: {
      ...only.jobs,
      run: service.runJobs !== false,
      threads: service.workers ?? availableParallelism(),
      retentionDays: service.retentionDays ?? retentionDays(env),
    },
    pageImages: only.pageImages,
    ocr: only.ocr,
    webhooks: only.webhooks,
    logLevel: logLevel({ name: "logLevel", raw: service.logLevel }),
  };
}

/** The remote commands' service and credentials. */
export function remoteConfig(env: Env = process.env): RemoteConfig {
  const baseUrl = env.DOCSIFT_URL || DEFAULT_REMOTE_URL;
  let clientId = env.DOCSIFT_CLIENT_ID;
  let clientSecret = env.DOCSIFT_CLIENT_SECRET;
  const apiKey = env.DOCSIFT_API_KEY;
  if (apiKey) {
    const sep = apiKey.indexOf(":");
    if (sep <= 0) throw new ConfigError("DOCSIFT_API_KEY must be client_id:client_secret.");
    clientId = apiKey.slice(0, sep);
    clientSecret = apiKey.slice(sep + 1);
  }
  if (!clientId || !clientSecret) {
    throw new ConfigError("Set DOCSIFT_API_KEY=id:secret (or DOCSIFT_CLIENT_ID and DOCSIFT_CLIENT_SECRET).");
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`DOCSIFT_URL is not a URL: "${baseUrl}".`);
  }
  return { baseUrl, clientId, clientSecret };
}
