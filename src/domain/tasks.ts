/** A validation task (the validate workflow's review) as every layer sees it. Types only. */
import type { Results } from "./result.js";
import type { Breach, Correction } from "./validation.js";

/** A validation task's life: draft (createTask.submit false, outside the queue), open (in the queue), resolved. */
export type TaskStatus = "draft" | "open" | "resolved";

export interface TaskRecord {
  id: string;
  tenantId: string;
  fileId: string;
  fieldSet: string;
  status: TaskStatus;
  /** 0..100, higher first. */
  priority: number;
  breaches: Breach[];
  /** The file's predicted results, finalised (with corrections applied) when the task is resolved. */
  predicted: Results;
  fileName: string | null;
  pageCount: number;
  createdAt: string;
  resolvedAt: string | null;
  /** Client id of the reviewer who resolved it. */
  resolvedBy: string | null;
  corrections: Correction[] | null;
}

/** Position after the last task of a page, in the queue order (priority desc, createdAt asc, id asc). */
export interface TaskCursor {
  priority: number;
  createdAt: string;
  id: string;
}
