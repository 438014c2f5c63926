/**
 * Step 2 of a split parent's job: each sub-document becomes a file of its own (its own id and blob, the parent's
 * tenant, client, locale and tags, parent_id set) running the child workflow, and the parent's result lists them.
 *
 * A child's id is derived from the parent's id and its position, so a job retried after a crash finds the children
 * it already stored instead of creating them twice; they are queued again (the queue ignores duplicates and the
 * runner skips finished files).
 */
import { createHash } from "node:crypto";
import type { FileFacts } from "../domain/files.js";
import type { ChildrenField } from "../domain/result.js";
import type { SplitPlan } from "../domain/workflow-plan.js";
import { FORMATS } from "../ingest/formats.js";
import type { FileRecord } from "../store/types.js";
import type { RunnerDeps } from "./runner.js";
import type { SplitChild } from "./threads/processing-tasks.js";

/** A UUID (version 4 layout) that is a pure function of the parent id and the child's index. */
export function childFileId(parentId: string, index: number): string {
  const h = createHash("sha256").update(`split-child:${parentId}:${index}`).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x40;
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function childName(parent: FileRecord, index: number, type: SplitChild["type"]): string | null {
  if (parent.fileName === null) return null;
  const { extension, singlePage } = FORMATS[type];
  if (singlePage) return parent.fileName;
  const suffix = `.${extension}`;
  const named = parent.fileName.toLowerCase().endsWith(suffix);
  const base = named ? parent.fileName.slice(0, -suffix.length) : parent.fileName;
  return `${base}-part${index + 1}.${extension}`.slice(0, 255);
}

export async function storeChildren(
  deps: Pick<RunnerDeps, "store" | "blobs" | "enqueue">,
  parent: FileFacts & SplitPlan,
  children: readonly SplitChild[],
): Promise<ChildrenField> {
  const { child: childPlan, childSelection } = parent.options;
  const enqueue = deps.enqueue;
  if (!enqueue) throw new Error("this job runner was built without a queue for split children");
  const refs: ChildrenField["value"] = [];
  for (const [index, child] of children.entries()) {
    const id = childFileId(parent.id, index);
    if (!(await deps.store.files.getForJob(id))) {
      // Blob first, as for an upload: a crash between the two leaves an orphan blob, never a row without bytes.
      await deps.blobs.put(id, child.bytes);
      // The insert fails when the parent was deleted meanwhile (its foreign key): the blob must not outlive it.
      const dropBlob = async (err: unknown): Promise<never> => {
        if (!(await deps.store.files.getForJob(parent.id))) await deps.blobs.delete(id).catch(() => undefined);
        throw err;
      };
      await deps.store.files
        .insert({
          id,
          tenantId: parent.tenantId,
          clientId: parent.clientId,
          ...childPlan,
          selection: childSelection,
          locale: parent.locale,
          tags: parent.tags,
          fileName: childName(parent, index, child.type),
          type: child.type,
          pageCount: child.pages.length,
          size: child.bytes.byteLength,
          parentId: parent.id,
          uploadedAt: new Date().toISOString(),
        })
        .catch(dropBlob);
    }
    await enqueue(id);
    const from = child.pages[0] ?? 1;
    const to = child.pages[child.pages.length - 1] ?? from;
    refs.push({ file_id: id, pages: { from, to } });
  }
  return { name: "components.children", value: refs };
}
