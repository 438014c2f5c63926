/**
 * The validate workflow's step after prediction: test the file's conditions on the validated field set. No breach:
 * the predictions are the result. Breaches: one review task for the field set (open, or draft when
 * createTask.submit is false) and the file stays IN PROGRESS until a reviewer resolves it (tasks.ts: resolveTask).
 */
import { randomUUID } from "node:crypto";
import { findFieldSet } from "../catalog/lookup.js";
import type { FileFacts } from "../domain/files.js";
import type { ChildrenField, ExtractedField, Results } from "../domain/result.js";
import type { ValidatePlan } from "../domain/workflow-plan.js";
import type { Store } from "../store/types.js";
import { evaluateConditions } from "../validate/evaluate.js";

function isField(f: ExtractedField | ChildrenField): f is ExtractedField {
  return f.name !== "components.children";
}

/** The results to finalise now, or null when a task now holds the file for review. */
export async function validatePredictions(
  store: Store,
  file: FileFacts & ValidatePlan,
  predicted: Results,
): Promise<Results | null> {
  const plan = file.options;
  const names = new Set(findFieldSet(plan.fieldSet)?.fields.map((f) => f.name) ?? []);
  const fields = predicted.fields.filter(isField).filter((f) => names.has(f.name));
  const breaches = evaluateConditions(plan.conditions, fields, predicted.warnings);
  if (breaches.length === 0) return predicted;
  // A re-run job (crash after the insert) finds the task already there: the insert is then a no-op.
  await store.tasks.create({
    id: randomUUID(),
    tenantId: file.tenantId,
    fileId: file.id,
    fieldSet: plan.fieldSet,
    status: plan.createTask.submit ? "open" : "draft",
    priority: plan.createTask.priority,
    breaches,
    predicted,
    fileName: file.fileName,
    pageCount: file.pageCount,
    createdAt: new Date().toISOString(),
  });
  return null;
}
