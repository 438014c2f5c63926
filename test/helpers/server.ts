/**
 * Real servers for the service tests: a temporary data dir, a random port, a bootstrap admin client, and small
 * helpers for tokens, uploads and generated PDFs. Everything goes over real HTTP.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import pg from "pg";
import type { RateLimitSettings } from "../../src/api/rate-limit-hook.js";
import { type CreateClientOptions, type CreatedClient, createClient } from "../../src/auth/clients.js";
import { type RunningService, startService } from "../../src/runtime/process.js";
import { createTestSchema, type TestSchema } from "./pg-schema.js";

export interface TestServer {
  url: string;
  dataDir: string;
  service: RunningService;
  admin: { clientId: string; clientSecret: string };
  /** A token of the admin client (all scopes unless narrowed). */
  token(scope?: string): Promise<string>;
  newClient(options: CreateClientOptions): Promise<CreatedClient>;
  /** Which store this server runs on. */
  backend: TestBackend;
  /** Blobs currently stored (files under the data dir, or rows of the PostgreSQL blob table). */
  blobCount(): Promise<number>;
  /** Stops the service; keeps the data dir (and PostgreSQL schema) when `keepData` (restart tests). */
  stop(keepData?: boolean): Promise<void>;
}

/** `sqlite` (embedded) or `postgres` (a fresh schema on the machine's server). */
export type TestBackend = "sqlite" | "postgres";

/** DOCSIFT_TEST_BACKEND picks the backend of every test server that does not name one (the suite runs per backend). */
export function defaultTestBackend(): TestBackend {
  return process.env.DOCSIFT_TEST_BACKEND === "postgres" ? "postgres" : "sqlite";
}

export interface TestServerOptions {
  workers?: number;
  resultWaitMs?: number;
  dataDir?: string;
  backend?: TestBackend;
  /** Reuse this PostgreSQL schema (a restart); default: a fresh one. */
  schema?: TestSchema;
  /** s3://bucket/prefix: blobs in S3 (postgres backend only; S3 settings from the environment). */
  blobUrl?: string;
  /** Rate limits; default: the service's defaults. */
  rateLimits?: RateLimitSettings;
  /** Upload bound (files waiting or running); default: the service's default. */
  maxQueue?: number;
  /** false: API only, no job ever runs (postgres backend only, like `serve --no-worker`). */
  runJobs?: boolean;
  /** Delete files older than this many days in the background; default never. */
  retentionDays?: number;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "docsift-svc-")));
  const admin = { clientId: "test-admin", clientSecret: randomBytes(18).toString("base64url") };
  const backend = options.backend ?? defaultTestBackend();
  const schema = backend === "postgres" ? (options.schema ?? (await createTestSchema())) : undefined;
  const service = await startService({
    databaseUrl: schema?.url,
    blobUrl: options.blobUrl,
    dataDir,
    host: "127.0.0.1",
    port: 0,
    workers: options.workers ?? 2,
    resultWaitMs: options.resultWaitMs,
    bootstrapClient: `${admin.clientId}:${admin.clientSecret}`,
    logLevel: "silent",
    rateLimits: options.rateLimits,
    maxQueue: options.maxQueue,
    runJobs: options.runJobs,
    retentionDays: options.retentionDays,
  }).catch(async (err: unknown) => {
    // A server that never started leaves no schema behind (a reused one belongs to the caller).
    if (!options.schema) await schema?.drop();
    throw err;
  });
  return {
    url: service.url,
    dataDir,
    service,
    admin,
    token: (scope) => getToken(service.url, admin.clientId, admin.clientSecret, scope),
    newClient: (opts) => createClient(service.store, opts),
    backend,
    blobCount: () => (schema ? countRows(schema.url, "blobs") : countBlobFiles(join(dataDir, "blobs"))),
    async stop(keepData = false) {
      await service.stop();
      if (keepData) return;
      await rm(dataDir, { recursive: true, force: true });
      await schema?.drop();
    },
  };
}

async function countBlobFiles(root: string): Promise<number> {
  const dirs = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const d of dirs) n += (await readdir(join(root, d))).length;
  return n;
}

async function countRows(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

export async function getToken(url: string, clientId: string, secret: string, scope?: string): Promise<string> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (scope) form.set("scope", scope);
  const res = await fetch(`${url}/oauth2/token`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}` },
    body: form,
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token)
    throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export async function requestJson<T = Record<string, unknown>>(
  url: string,
  init: RequestInit & { token?: string } = {},
): Promise<JsonResponse<T>> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : {}) as T };
}

/** Form fields; an array becomes a repeated field. The file goes last unless `fileFirst`. */
export type FormFields = Record<string, string | string[]>;

export function uploadForm(
  bytes: Uint8Array,
  fields: FormFields,
  options: { fileFirst?: boolean; fileName?: string } = {},
) {
  const form = new FormData();
  const addFile = (): void => form.append("fileToUpload", new Blob([bytes]), options.fileName ?? "document.pdf");
  if (options.fileFirst) addFile();
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
  }
  if (!options.fileFirst) addFile();
  return form;
}

export function upload(server: { url: string }, token: string, form: FormData): Promise<JsonResponse> {
  return requestJson(`${server.url}/fileupload/`, { method: "POST", body: form, token });
}

export interface InvoiceSpec {
  number: string;
  date: string;
  total: string;
  pages?: number;
}

/** A born-digital invoice (text layer, no OCR needed): fast to ingest, with values a reader can find. */
export async function invoicePdf(spec: InvoiceSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages = spec.pages ?? 1;
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    const text = (s: string, x: number, y: number, f = font, size = 11): void =>
      page.drawText(s, { x, y, size, font: f });
    text("Acme Supplies Ltd", 50, 790, bold, 16);
    text("12 High Street, London EC1A 1BB", 50, 772);
    text("INVOICE", 420, 790, bold, 18);
    text(`Invoice number: ${spec.number}`, 350, 740);
    text(`Invoice date: ${spec.date}`, 350, 724);
    text("Bill to: Contoso GmbH, Hauptstrasse 5, 10115 Berlin", 50, 690);
    text("Description", 50, 640, bold);
    text("Amount", 480, 640, bold);
    text("Consulting services", 50, 620);
    text(spec.total, 480, 620);
    if (p === pages) {
      text("Total", 400, 560, bold);
      text(spec.total, 480, 560, bold);
    }
    text(`Page ${p} of ${pages}`, 270, 40);
  }
  return doc.save();
}
