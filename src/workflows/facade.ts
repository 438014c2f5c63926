/**
 * Everything the API asks of the workflows, in one object: the app receives it whole and reaches the store, the
 * queue, the completion signals and the thread pools only through it. Each method takes the caller's tenant (or
 * principal), so nothing here reads across tenants.
 */
import { type ClientChecks, clientChecks } from "../auth/clients.js";
import type { Principal } from "../auth/tokens.js";
import type { DocsiftError } from "../domain/errors.js";
import type { FileWithResults } from "../domain/files.js";
import type { TaskRecord } from "../domain/tasks.js";
import type { CompletionSignal } from "../queue/completion.js";
import type { JobQueue } from "../queue/job-queue.js";
import type { PageCache } from "../store/page-cache.js";
import { unavailableFor } from "../store/transient-errors.js";
import type { BlobStore, Store } from "../store/types.js";
import {
  deleteFile,
  type FileInfo,
  type FileListQuery,
  type FilePage,
  fileInfo,
  listFiles,
  type OriginalFile,
  originalFile,
} from "./files.js";
import { type PageImages, renderPage } from "./page-images.js";
import { type ReceivedUpload, receiveUpload, type UploadRequest } from "./receive.js";
import { awaitResult, onFileChanged, readResult } from "./results.js";
import type { RunningJobs } from "./running-jobs.js";
import { getTask, listTasks, resolveTask, submitTask, type TaskListQuery, type TaskPage } from "./tasks.js";
import type { ProcessingPool } from "./threads/processing-tasks.js";
import {
  createWebhook,
  type DeliveryView,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookDeps,
  type WebhookInput,
  type WebhookView,
} from "./webhooks.js";

/** What the workflows are built from: the process's storage, queue, signals and pools. */
export interface WorkflowParts {
  store: Store;
  blobs: BlobStore;
  queue: JobQueue;
  completion: CompletionSignal;
  /** Runs the upload-time inspections (see receive.ts). */
  inspectPool: ProcessingPool;
  /** Page images, rendered in their own pool. */
  pageImages: PageImages;
  /** Jobs running in this process, stopped when their file is deleted. */
  running?: RunningJobs;
  /** Rendered page images, removed with their file. */
  pageCache?: PageCache;
  /** The box of webhook signing secrets and the operator's webhook settings. */
  webhooks: Omit<WebhookDeps, "store">;
}

export interface Workflows {
  /** Checks, stores and queues an upload; its receipt (see receive.ts). */
  receive(who: Principal, upload: UploadRequest): Promise<ReceivedUpload>;
  /** Jobs waiting or running, for the bound on the queue. */
  backlog(): Promise<number>;
  /** The tenant's file with its results, as it stands. */
  readResult(tenantId: string, fileId: string): Promise<FileWithResults>;
  /** The file once finished, or as it stands when `waitMs` passes or `signal` aborts (see results.ts). */
  awaitResult(tenantId: string, fileId: string, waitMs: number, signal: AbortSignal): Promise<FileWithResults>;
  /** Every file finished or deleted from now on, by any process; returns the unsubscribe. */
  onFileChanged(listener: (fileId: string) => void): () => void;
  /** PNG of a page of the tenant's file. */
  renderPage(tenantId: string, fileId: string, page: number, signal: AbortSignal): Promise<Buffer>;
  fileInfo(tenantId: string, fileId: string): Promise<FileInfo>;
  listFiles(tenantId: string, query: FileListQuery): Promise<FilePage>;
  originalFile(tenantId: string, fileId: string): Promise<OriginalFile>;
  /** False when the tenant has no such file; blobs that could not be removed are returned to be reported. */
  deleteFile(tenantId: string, fileId: string): Promise<{ deleted: boolean; blobFailures: unknown[] }>;
  listTasks(tenantId: string, query: TaskListQuery): Promise<TaskPage>;
  getTask(tenantId: string, taskId: string): Promise<TaskRecord>;
  submitTask(tenantId: string, taskId: string): Promise<TaskRecord>;
  /** Applies the reviewer's corrections (a resolve body), resolves the task and finalises its file. */
  resolveTask(who: Principal, taskId: string, body: unknown): Promise<TaskRecord>;
  /** Client credentials and revocation. */
  clients: ClientChecks;
  /** The tenant's webhook endpoints and their deliveries (webhooks.ts). */
  webhooks: {
    create(tenantId: string, input: WebhookInput): Promise<WebhookView & { secret: string }>;
    list(
      tenantId: string,
      query: { cursor: string | null; limit: number },
    ): Promise<{ webhooks: WebhookView[]; next: string | null }>;
    get(tenantId: string, id: string): Promise<WebhookView>;
    update(tenantId: string, id: string, input: WebhookInput): Promise<WebhookView>;
    delete(tenantId: string, id: string): Promise<void>;
    rotateSecret(
      tenantId: string,
      id: string,
    ): Promise<{ id: string; secret: string; previousSecretExpiresAt: string }>;
    deliveries(
      tenantId: string,
      id: string,
      query: { status: DeliveryView["status"] | null; cursor: string | null; limit: number },
    ): Promise<{ deliveries: DeliveryView[]; next: string | null }>;
    retry(tenantId: string, id: string, deliveryId: string): Promise<DeliveryView>;
  };
}

export function buildWorkflows(parts: WorkflowParts): Workflows {
  const { store, completion } = parts;
  return {
    receive: (who, upload) => receiveUpload(parts, who, upload),
    backlog: () => parts.queue.backlog(),
    readResult: (tenantId, fileId) => readResult(parts, tenantId, fileId),
    awaitResult: (tenantId, fileId, waitMs, signal) => awaitResult(parts, tenantId, fileId, waitMs, signal),
    onFileChanged: (listener) => onFileChanged(parts, listener),
    renderPage: (tenantId, fileId, page, signal) =>
      renderPage({ store, images: parts.pageImages }, tenantId, fileId, page, signal),
    fileInfo: (tenantId, fileId) => fileInfo(parts, tenantId, fileId),
    listFiles: (tenantId, query) => listFiles(parts, tenantId, query),
    originalFile: (tenantId, fileId) => originalFile(parts, tenantId, fileId),
    deleteFile: (tenantId, fileId) => deleteFile(parts, tenantId, fileId),
    listTasks: (tenantId, query) => listTasks(parts, tenantId, query),
    getTask: (tenantId, taskId) => getTask(parts, tenantId, taskId),
    submitTask: (tenantId, taskId) => submitTask(parts, tenantId, taskId),
    resolveTask: (who, taskId, body) => resolveTask({ store, completion }, who, taskId, body),
    clients: clientChecks(store),
    webhooks: webhookMethods({ store, ...parts.webhooks }),
  };
}

function webhookMethods(deps: WebhookDeps): Workflows["webhooks"] {
  return {
    create: (tenantId, input) => createWebhook(deps, tenantId, input),
    list: (tenantId, query) => listWebhooks(deps, tenantId, query),
    get: (tenantId, id) => getWebhook(deps, tenantId, id),
    update: (tenantId, id, input) => updateWebhook(deps, tenantId, id, input),
    delete: (tenantId, id) => deleteWebhook(deps, tenantId, id),
    rotateSecret: (tenantId, id) => rotateWebhookSecret(deps, tenantId, id),
    deliveries: (tenantId, id, query) => listDeliveries(deps, tenantId, id, query),
    retry: (tenantId, id, deliveryId) => retryDelivery(deps, tenantId, id, deliveryId),
  };
}

/**
 * A storage failure a request may simply retry (disk full, database busy or restarting) as the 503 `unavailable`
 * clients see; undefined for anything else. The API maps errors through this without knowing the store's codes.
 */
export function storageUnavailable(err: unknown): DocsiftError | undefined {
  return unavailableFor(err);
}
