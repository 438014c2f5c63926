/** The console's HTTP calls: the token (client credentials) and the task and image endpoints, same origin. */
import type { LineItemCells } from "../../src/domain/line-items.js";

export interface Box {
  pageNum: number;
  topLeft: { x: number; y: number };
  bottomRight: { x: number; y: number };
}

/** The cells of a line-items row, in the order the service lists them: the service's own list (src/domain). */
export { LINE_ITEM_CELLS, type LineItemCellName as LineItemCell } from "../../src/domain/line-items.js";

/** A row of invoice.lineItems / receipt.lineItems: its cells (confidence and cell boxes are only shown). */
export type LineItemRow = LineItemCells & { confidence?: number };

export type FieldValue = string | LineItemRow[] | null;

export interface TaskField {
  name: string;
  /** Rows for a line-items field with a table. */
  value: FieldValue;
  confidence: number;
  boundingBox: Box | null;
}

/** invoice.lineItems, receipt.lineItems: their value is rows, or null when the document has none. */
export function isLineItemsField(field: Pick<TaskField, "name" | "value">): boolean {
  return Array.isArray(field.value) || field.name.endsWith(".lineItems");
}

export interface Breach {
  field: string;
  condition: { type: string; min?: number | string | null; max?: number | string | null };
  value: FieldValue;
  confidence: number | null;
}

export interface Correction {
  name: string;
  value: FieldValue;
}

export interface Task {
  id: string;
  fileId: string;
  fieldSet: string;
  status: string;
  priority: number;
  breaches: Breach[];
  fields: TaskField[];
  fileName: string | null;
  pageCount: number;
  createdAt: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  return new ApiError(res.status, body.message ?? `${res.status} ${res.statusText}`);
}

export async function signIn(clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch("/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  if (!res.ok) throw await failure(res);
  const body = (await res.json()) as { access_token: string; scope: string };
  if (!body.scope.split(" ").includes("validate:annotation")) {
    throw new ApiError(403, "This client lacks the validate:annotation scope.");
  }
  return body.access_token;
}

async function call<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  const res = await fetch(path, { ...init, headers });
  if (!res.ok) throw await failure(res);
  return (await res.json()) as T;
}

export async function openTasks(token: string): Promise<Task[]> {
  const all: Task[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page: { tasks: Task[]; next: string | null } = await call(token, `/validate/tasks?limit=200${query}`);
    all.push(...page.tasks);
    cursor = page.next;
  } while (cursor !== null);
  return all;
}

export function resolveTask(token: string, id: string, fields: Correction[]) {
  return call<Task>(token, `/validate/tasks/${id}/resolve`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fields }),
  });
}

/** A page image as a blob URL (the endpoint needs the Bearer token, so an <img src> cannot fetch it itself). */
export async function pageImage(token: string, fileId: string, page: number, signal: AbortSignal): Promise<string> {
  const res = await fetch(`/result/image/${fileId}?page=${page}`, {
    headers: { authorization: `Bearer ${token}` },
    signal,
  });
  if (!res.ok) throw await failure(res);
  return URL.createObjectURL(await res.blob());
}
