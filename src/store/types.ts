/**
 * The store's public shape. One implementation (store/kysely) over two databases, chosen once at start-up: SQLite
 * (embedded) or PostgreSQL (scale-out). Every file query takes the tenant: nothing reads across tenants.
 */
import type { ErrorBody } from "../domain/errors.js";
import type { FileCursor, FileFacts, FileRecord, FileWithResults } from "../domain/files.js";
import type { FileStatus, Results } from "../domain/result.js";
import type { TaskCursor, TaskRecord, TaskStatus } from "../domain/tasks.js";
import type { Correction } from "../domain/validation.js";
import type { WorkflowPlan } from "../domain/workflow-plan.js";
import type { WebhookRepository } from "./webhook-types.js";

/** The records live in domain/, which every layer reads; the repositories below read and write them. */
export type { FileCursor, FileRecord, FileWithResults, TaskCursor, TaskRecord, TaskStatus };

export interface Tenant {
  id: string;
  name: string;
  createdAt: string;
}

export interface ClientRecord {
  id: string;
  name: string;
  tenantId: string;
  secretHash: string;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface NewClient {
  id: string;
  name: string;
  tenantId: string;
  secretHash: string;
  scopes: string[];
}

export type NewFile = Omit<
  FileFacts,
  "status" | "error" | "startedAt" | "finishedAt" | "attempts" | "interruptions" | "parentDocId"
> &
  WorkflowPlan & {
    /** The upload's parentDocId; default null. */
    parentDocId?: string | null;
    /** Set on uploads sent with an Idempotency-Key. */
    idempotency?: UploadKey;
  };

/** An upload's Idempotency-Key (unique per client) and the fingerprint of what was sent with it. */
export interface UploadKey {
  key: string;
  /** sha256 of the bytes and the normalised upload parameters (workflows/upload-fingerprint.ts). */
  contentHash: string;
}

/** Filters of a tenant's file list; newest first, after the cursor. */
export interface FileQuery {
  status: FileStatus | null;
  /** One tag the file must carry. */
  tag: string | null;
  /** Uploaded at or after this ISO time. */
  since: string | null;
  after: FileCursor | null;
  limit: number;
}

/** A file the retention sweep removes. */
export interface ExpiredFile {
  id: string;
  tenantId: string;
}

/** The upload a client's Idempotency-Key names: enough to replay its receipt or refuse different content. */
export interface KeyedUpload {
  fileId: string;
  uploadedAt: string;
  contentHash: string;
}

export interface TenantRepository {
  create(tenant: Tenant): Promise<void>;
  get(id: string): Promise<Tenant | undefined>;
}

export interface ClientRepository {
  create(client: NewClient): Promise<ClientRecord>;
  /**
   * Creates the client, and `newTenant` first when given, in one transaction, unless a client with that id exists:
   * undefined then, with nothing written. Of two processes creating the same id at once, one gets the record.
   */
  createIfAbsent(client: NewClient, newTenant?: Tenant): Promise<ClientRecord | undefined>;
  /**
   * The first start's generated client (with its new tenant, when given): written only by the caller that claims the database's
   * one bootstrap marker, in the same transaction; false (nothing written) when another start claimed it first.
   */
  createBootstrap(client: NewClient, newTenant?: Tenant): Promise<boolean>;
  get(id: string): Promise<ClientRecord | undefined>;
  list(): Promise<ClientRecord[]>;
  count(): Promise<number>;
  /** Returns false when no active client has that id. */
  revoke(id: string): Promise<boolean>;
  setSecretHash(id: string, secretHash: string): Promise<void>;
  setScopes(id: string, scopes: readonly string[]): Promise<void>;
  /** The client the first start generated (the one the bootstrap marker names), if any. */
  bootstrapClientId(): Promise<string | undefined>;
}

export interface FileRepository {
  /**
   * Durable once the promise resolves. False, with nothing written, when the file has an idempotency key that
   * another upload of the same client already holds (the unique index decides between concurrent uploads).
   */
  insert(file: NewFile): Promise<boolean>;
  /** The upload that holds this client's key, if any. */
  findByIdempotencyKey(clientId: string, key: string): Promise<KeyedUpload | undefined>;
  /** Frees the file's idempotency key (expired, or its upload was withdrawn) so a new upload may take it. */
  releaseIdempotencyKey(fileId: string): Promise<void>;
  /** Tenant-scoped read: another tenant's id is indistinguishable from an unknown one. */
  get(tenantId: string, id: string): Promise<FileRecord | undefined>;
  /** Unscoped read for the job runner, which acts on behalf of whichever tenant owns the file. */
  getForJob(id: string): Promise<FileRecord | undefined>;
  /** RECEIVED -> IN PROGRESS (or IN PROGRESS again when resumed); counts nothing. */
  markStarted(id: string, at: string): Promise<void>;
  /** Back to RECEIVED so it is picked up again, counting nothing (the attempt was cut by a shutdown). */
  markRetry(id: string): Promise<void>;
  /** Back to RECEIVED after an attempt the file's own processing failed; counts it and returns the count. */
  markFailedAttempt(id: string): Promise<number>;
  /** Counts a job found cut by the end of its process (still IN PROGRESS when resumed); returns the count. */
  markInterrupted(id: string): Promise<number>;
  /** Those of `ids` that have a file row (the orphan sweep keeps their blobs). */
  existingIds(ids: readonly string[]): Promise<string[]>;
  /**
   * Writes the result and FINALISED in one transaction. The first result wins: a later call for the same file (a job
   * run twice) changes nothing, and `fail` leaves a FINALISED file alone.
   */
  finalise(id: string, results: Results, at: string): Promise<void>;
  fail(id: string, error: ErrorBody, at: string): Promise<void>;
  /** Tenant-scoped file with its results (when FINALISED) in one read: the hot path of GET /result/final. */
  getWithResults(tenantId: string, id: string): Promise<FileWithResults | undefined>;
  /** RECEIVED and IN PROGRESS files, oldest first: the embedded queue's backlog after a restart. */
  listUnfinished(): Promise<string[]>;
  /** RECEIVED files never started, oldest first: the PostgreSQL queue's start-up sweep sends each a job. */
  listNeverStarted(): Promise<string[]>;
  /** Those of `ids` that are FINALISED or FAILED (completions the PostgreSQL channel may have missed). */
  finishedIds(ids: readonly string[]): Promise<string[]>;
  /** A tenant's files, newest first; sub-documents of a split included. */
  list(tenantId: string, query: FileQuery): Promise<FileRecord[]>;
  /**
   * Removes the tenant's file with its result and review tasks, and, for a split parent, its sub-documents with
   * theirs, in one transaction. Returns the ids removed (for their blobs); empty when the tenant has no such file.
   */
  remove(tenantId: string, id: string): Promise<string[]>;
  /** The sub-documents of these split parents of the tenant: each child's id with its parent's. */
  listChildren(tenantId: string, parentIds: readonly string[]): Promise<Array<{ id: string; parentId: string }>>;
  /** Files (not sub-documents: they go with their parent) uploaded before `before`, oldest first. */
  listExpired(before: string, limit: number): Promise<ExpiredFile[]>;
}

export type NewTask = Omit<TaskRecord, "status" | "resolvedAt" | "resolvedBy" | "corrections"> & {
  status: "draft" | "open";
};

export interface TaskResolution {
  corrections: Correction[];
  /** The file's final results (predictions with the corrections applied). */
  results: Results;
  by: string;
  at: string;
}

export interface TaskRepository {
  /** Inserts unless the file already has a task for that field set (a re-run job); false then. */
  create(task: NewTask): Promise<boolean>;
  get(tenantId: string, id: string): Promise<TaskRecord | undefined>;
  /** Unscoped, for the job runner: the file's task, if its validation already created one. */
  getForFile(fileId: string): Promise<TaskRecord | undefined>;
  list(
    tenantId: string,
    query: { status: TaskStatus | null; after: TaskCursor | null; limit: number },
  ): Promise<TaskRecord[]>;
  /** draft -> open (into the review queue); undefined when no draft task of the tenant has that id. */
  submit(tenantId: string, id: string): Promise<TaskRecord | undefined>;
  /**
   * Unresolved -> resolved and the file FINALISED with `results`, in one transaction. The update is conditional on
   * the task being unresolved, so of two concurrent resolutions exactly one succeeds; the other gets undefined.
   */
  resolve(tenantId: string, id: string, resolution: TaskResolution): Promise<TaskRecord | undefined>;
}

/** A key of the JWT signing key set (auth/signing-key.ts). */
export interface SigningKeyRecord {
  kid: string;
  /** The Ed25519 pair as JWK JSON text; the private one is secret. */
  privateJwk: string;
  publicJwk: string;
  createdAt: string;
  /** When a newer key replaced it; null for the current key. */
  retiredAt: string | null;
}

export type NewSigningKey = Omit<SigningKeyRecord, "retiredAt">;

export interface SigningKeyRepository {
  /** The whole set, oldest first: the last one signs. */
  list(): Promise<SigningKeyRecord[]>;
  /** Adds the first key unless the set has one: of processes starting at once one adds its key; false for the rest. */
  createFirst(key: NewSigningKey): Promise<boolean>;
  /** Makes `key` the newest, retiring the keys still current at its createdAt, in one transaction. */
  rotate(key: NewSigningKey): Promise<void>;
}

export interface Store {
  tenants: TenantRepository;
  clients: ClientRepository;
  files: FileRepository;
  tasks: TaskRepository;
  signingKeys: SigningKeyRepository;
  /** Webhook endpoints and the outbox their deliveries come from (webhook-types.ts). */
  webhooks: WebhookRepository;
  close(): Promise<void>;
}

/** Document bytes by file id. `put` resolves only once the bytes are durable. */
export interface BlobStore {
  put(id: string, bytes: Uint8Array): Promise<void>;
  get(id: string): Promise<Buffer>;
  delete(id: string): Promise<void>;
  /** Every stored blob with the time it was written (the orphan sweep's input), in no particular order. */
  list(): AsyncIterable<StoredBlob>;
  /** Removes what writes cut by a crash left behind (partial temporary files) older than `before`; returns how many. */
  removeTemporary(before: Date): Promise<number>;
}

export interface StoredBlob {
  id: string;
  storedAt: Date;
}
