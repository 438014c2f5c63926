/**
 * What the soak's clients do, one function per flow: upload a document (multipart or JSON) and wait for its result
 * (one blocking GET, or polls with timeout=0), then maybe fetch a page image and the result again; split a bundle
 * and fetch every child; validate with a condition every document breaks, which a reviewer loop resolves; and
 * probes that must fail (bad token, unknown fileId, a file that is not a document) or are cheap (catalog).
 * Every file that got a receipt goes into the ledger, to check at the end that none was lost.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { PoolDocument } from "./documents.js";
import type { SoakClient } from "./http.js";
import type { Recorder } from "./stats.js";

export interface Ledger {
  /** fileId -> what was uploaded (split children: the bundle and their index). */
  received: Map<string, string>;
  finalised: Set<string>;
  failed: Set<string>;
  /** How many of `received` are split children (the server created them, not an upload). */
  children: number;
}

export interface FlowContext {
  client: SoakClient;
  rec: Recorder;
  /** Upload to FINALISED, by document class. */
  e2e: Recorder;
  ledger: Ledger;
  pollMs: number;
  /** performance.now() after which a flow stops waiting for its file (the end of the drain). */
  giveUpAt: number;
}

export type FetchMode = "blocking" | "poll";

interface Field {
  name: string;
  value: unknown;
  reviewed?: boolean;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47];
const DONE = new Set(["FINALISED", "FAILED"]);

const SPLIT_FORM = {
  fieldSet: "invoice",
  workflowId: "split",
  childWorkflowId: "prediction",
  workflowOptions: JSON.stringify({
    prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
  }),
};

/** No real invoice totals between 0 and 0.01, so every validate upload opens a review task. */
const VALIDATE_FORM = {
  fieldSet: "invoice",
  workflowId: "validate",
  workflowOptions: JSON.stringify({
    prediction: {
      fieldset: "invoice",
      conditions: [{ type: "field-value-range", field: "invoice.total", min: 0, max: 0.01 }],
      createTask: { submit: true, priority: 50 },
    },
  }),
};

function form(doc: PoolDocument, fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("fileToUpload", new Blob([doc.bytes]), doc.fileName);
  return body;
}

function fieldsOf(result: Record<string, unknown>): Field[] {
  const results = result.results;
  if (typeof results !== "object" || results === null) return [];
  const fields = (results as { fields?: unknown }).fields;
  return Array.isArray(fields) ? (fields as Field[]) : [];
}

/** The fileId of a 200 receipt, recorded in the ledger; undefined (already counted as an error) otherwise. */
async function uploadFile(
  ctx: FlowContext,
  kind: string,
  label: string,
  body: NonNullable<RequestInit["body"]>,
  path = "/fileupload/",
  headers?: Record<string, string>,
): Promise<string | undefined> {
  const res = await ctx.client.call({ kind, path, method: "POST", body, headers });
  if (res?.status !== 200) return undefined;
  const fileId = res.json.fileId;
  if (typeof fileId !== "string" || res.json.status !== "RECEIVED") {
    ctx.rec.fileError("bad-receipt", `${label}: ${JSON.stringify(res.json)}`);
    return undefined;
  }
  ctx.ledger.received.set(fileId, label);
  return fileId;
}

/** Waits for the file to finish; the FINALISED result, or undefined (FAILED, counted; or given up). */
async function awaitResult(
  ctx: FlowContext,
  fileId: string,
  label: string,
  mode: FetchMode,
): Promise<Record<string, unknown> | undefined> {
  while (!ctx.client.aborted && performance.now() < ctx.giveUpAt) {
    const res =
      mode === "blocking"
        ? await ctx.client.call({ kind: "result-blocking", path: `/result/final/${fileId}` })
        : await ctx.client.call({ kind: "result-poll", path: `/result/final/${fileId}?timeout=0` });
    if (res?.status === 200 && DONE.has(String(res.json.status))) {
      if (res.json.status === "FAILED") {
        ctx.ledger.failed.add(fileId);
        ctx.rec.fileError("failed-file", `${label} ${fileId}: ${JSON.stringify(res.json.error)}`);
        return undefined;
      }
      ctx.ledger.finalised.add(fileId);
      if (fieldsOf(res.json).length === 0) ctx.rec.fileError("empty-result", `${label} ${fileId}`);
      return res.json;
    }
    // A blocking wait that ended without the file done, or an error: ask again after a pause.
    if (mode === "poll" || res?.status !== 200) await sleep(ctx.pollMs);
  }
  return undefined;
}

/** After a result: page 1 as PNG (rendered by the processing pool), and the result once more (the cached path). */
async function afterResult(ctx: FlowContext, fileId: string, label: string, image: boolean): Promise<void> {
  if (image) {
    const png = await ctx.client.call({ kind: "page-image", path: `/result/image/${fileId}?page=1`, binary: true });
    if (png?.status === 200 && !PNG_MAGIC.every((b, i) => png.bytes[i] === b)) {
      ctx.rec.fileError("bad-image", `${label} ${fileId}: ${png.headers.get("content-type")}`);
    }
  }
  const again = await ctx.client.call({ kind: "result-repeat", path: `/result/final/${fileId}` });
  if (again?.status === 200 && again.json.status !== "FINALISED") {
    ctx.rec.fileError("result-changed", `${label} ${fileId}: ${JSON.stringify(again.json)}`);
  }
}

export interface DocumentFlowOptions {
  json: boolean;
  mode: FetchMode;
  image: boolean;
  /** e2e class: "digital" or "scan". */
  klass: string;
}

export async function documentFlow(ctx: FlowContext, doc: PoolDocument, o: DocumentFlowOptions): Promise<void> {
  const started = performance.now();
  const fileId = o.json
    ? await uploadFile(
        ctx,
        "upload-json",
        doc.label,
        JSON.stringify({
          fileToUpload: Buffer.from(doc.bytes).toString("base64"),
          fileName: doc.fileName,
          products: [doc.product],
        }),
        "/fileupload/json",
        { "content-type": "application/json" },
      )
    : await uploadFile(ctx, "upload-multipart", doc.label, form(doc, { products: doc.product }));
  if (!fileId) return;
  const result = await awaitResult(ctx, fileId, doc.label, o.mode);
  if (!result) return;
  ctx.e2e.record(o.klass, "ok", performance.now() - started);
  await afterResult(ctx, fileId, doc.label, o.image);
}

interface ChildRef {
  file_id?: unknown;
}

export async function splitFlow(ctx: FlowContext, bundle: PoolDocument): Promise<void> {
  const started = performance.now();
  const fileId = await uploadFile(ctx, "upload-split", bundle.label, form(bundle, SPLIT_FORM));
  if (!fileId) return;
  const parent = await awaitResult(ctx, fileId, bundle.label, "blocking");
  if (!parent) return;
  const children = fieldsOf(parent).find((f) => f.name === "components.children")?.value;
  if (!Array.isArray(children) || children.length === 0) {
    ctx.rec.fileError("bad-split", `${bundle.label} ${fileId}: ${JSON.stringify(parent)}`);
    return;
  }
  const ids = (children as ChildRef[]).map((c) => String(c.file_id));
  ids.forEach((id, i) => {
    ctx.ledger.received.set(id, `${bundle.label}#${i + 1}`);
  });
  ctx.ledger.children += ids.length;
  const finals = await Promise.all(ids.map((id, i) => awaitResult(ctx, id, `${bundle.label}#${i + 1}`, "blocking")));
  if (finals.every((r) => r !== undefined)) ctx.e2e.record("split", "ok", performance.now() - started);
}

export async function validateFlow(ctx: FlowContext, doc: PoolDocument): Promise<void> {
  const started = performance.now();
  const fileId = await uploadFile(ctx, "upload-validate", doc.label, form(doc, VALIDATE_FORM));
  if (!fileId) return;
  // Blocks at most 30 s while the task is open, then answers IN PROGRESS: awaitResult asks again.
  const result = await awaitResult(ctx, fileId, doc.label, "blocking");
  if (!result) return;
  if (!fieldsOf(result).some((f) => f.reviewed === true)) {
    ctx.rec.fileError("review-not-applied", `${doc.label} ${fileId}: ${JSON.stringify(result)}`);
  }
  ctx.e2e.record("validate", "ok", performance.now() - started);
}

/** A reviewer working the queue: every open task is resolved with one correction, until `stop` aborts. */
export async function reviewLoop(ctx: FlowContext, intervalMs: number, stop: AbortSignal): Promise<void> {
  while (!stop.aborted && !ctx.client.aborted) {
    const page = await ctx.client.call({ kind: "tasks-list", path: "/validate/tasks?status=open&limit=50" });
    const tasks = Array.isArray(page?.json.tasks) ? (page.json.tasks as { id?: unknown }[]) : [];
    for (const task of tasks) {
      await ctx.client.call({
        kind: "task-resolve",
        path: `/validate/tasks/${String(task.id)}/resolve`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fields: [{ name: "invoice.total", value: "0.01" }] }),
      });
    }
    await sleep(intervalMs, undefined, { signal: stop }).catch(() => undefined);
  }
}

export const PROBES = ["catalog", "bad-token", "unknown-file", "bad-upload"] as const;
export type Probe = (typeof PROBES)[number];

/** One cheap request: the catalog, or a 4xx the soak provokes on purpose (anything else is an error). */
export async function probe(ctx: FlowContext, which: Probe): Promise<void> {
  const c = ctx.client;
  if (which === "catalog") await c.call({ kind: "catalog", path: "/catalog" });
  else if (which === "bad-token") {
    await c.call({
      kind: "bad-token",
      path: `/result/final/${randomUUID()}`,
      token: "not-a-token",
      ok: [],
      expected: [401],
    });
  } else if (which === "unknown-file") {
    await c.call({ kind: "unknown-file", path: `/result/final/${randomUUID()}?timeout=0`, ok: [], expected: [404] });
  } else {
    const text: PoolDocument = {
      label: "text",
      bytes: new TextEncoder().encode("not a document\n"),
      fileName: "notes.pdf",
      product: "invoices",
    };
    const body = form(text, { products: "invoices" });
    await c.call({ kind: "bad-upload", path: "/fileupload/", method: "POST", body, ok: [], expected: [415] });
  }
}

/** A fresh token, as a client does before the old one expires. */
export async function refreshToken(ctx: FlowContext, admin: { id: string; secret: string }): Promise<boolean> {
  const res = await ctx.client.call({
    kind: "token",
    path: "/oauth2/token",
    method: "POST",
    token: null,
    headers: { authorization: `Basic ${Buffer.from(`${admin.id}:${admin.secret}`).toString("base64")}` },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  const token = res?.json.access_token;
  if (typeof token !== "string") return false;
  ctx.client.token = token;
  return true;
}

export interface Reconciled {
  finalised: number;
  failed: number;
  /** Received but neither FINALISED nor FAILED after the drain: lost or stuck. */
  unfinished: string[];
}

/** Asks for every file that got a receipt once more (timeout=0): what the server says now is the final count. */
export async function reconcile(ctx: FlowContext): Promise<Reconciled> {
  const out: Reconciled = { finalised: 0, failed: 0, unfinished: [] };
  for (const [fileId, label] of ctx.ledger.received) {
    const res = await ctx.client.call({ kind: "reconcile", path: `/result/final/${fileId}?timeout=0` });
    const status = res?.json.status;
    if (status === "FINALISED") out.finalised++;
    else if (status === "FAILED") {
      out.failed++;
      // A FAILED a flow already saw is counted once, there.
      if (!ctx.ledger.failed.has(fileId)) ctx.rec.fileError("failed-file", `${label} ${fileId}: found at the end`);
    } else {
      out.unfinished.push(fileId);
      ctx.rec.fileError("unfinished-file", `${label} ${fileId}: ${String(status)} after the drain`);
    }
  }
  return out;
}
