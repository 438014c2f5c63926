/**
 * A file's workflow plan through the files table on both backends: written at upload as the checked plan, read back
 * by the job runner as the same typed plan (SQLite keeps the options as JSON text, PostgreSQL as jsonb).
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { WorkflowPlan } from "../../src/domain/workflow-plan.js";
import { openStorage } from "../../src/store/open.js";
import type { Store } from "../../src/store/types.js";
import { createTestSchema } from "../helpers/pg-schema.js";

const validate = {
  fieldSet: "invoice",
  conditions: [
    { type: "field-value-range" as const, field: "invoice.total", min: 10, max: null },
    { type: "einvoice-consistent" as const },
  ],
  createTask: { submit: true, priority: 50 },
};

const plans: WorkflowPlan[] = [
  { workflow: "prediction", options: null },
  { workflow: "prediction", options: { kept: ["as", "sent"] } },
  { workflow: "validate", options: validate },
  {
    workflow: "split",
    options: { childSelection: { products: ["invoices"] }, child: { workflow: "prediction", options: null } },
  },
  {
    workflow: "split",
    options: { childSelection: { fieldSets: ["invoice"] }, child: { workflow: "validate", options: validate } },
  },
];

async function roundTrip(store: Store): Promise<void> {
  await store.tenants.create({ id: "t1", name: "Tenant", createdAt: "2026-01-01T00:00:00.000Z" });
  await store.clients.create({ id: "c1", name: "one", tenantId: "t1", secretHash: "h", scopes: ["upload"] });
  for (const [i, plan] of plans.entries()) {
    const id = `00000000-0000-4000-8000-00000000000${i}`;
    await store.files.insert({
      id,
      tenantId: "t1",
      clientId: "c1",
      ...plan,
      selection: { fieldSets: ["invoice"] },
      locale: "de-DE",
      tags: null,
      fileName: null,
      type: "pdf",
      pageCount: 1,
      size: 10,
      parentId: null,
      uploadedAt: "2026-01-02T00:00:00.000Z",
    });
    const file = await store.files.getForJob(id);
    assert.deepEqual(file && { workflow: file.workflow, options: file.options }, plan);
  }
}

test("SQLite: every workflow plan reads back as written", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-plan-"));
  const { store } = await openStorage(dataDir);
  try {
    await roundTrip(store);
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("PostgreSQL: every workflow plan reads back as written", async () => {
  const schema = await createTestSchema("docsift_plan");
  const { store } = await openStorage("/nonexistent-unused", { databaseUrl: schema.url });
  try {
    await roundTrip(store);
  } finally {
    await store.close();
    await schema.drop();
  }
});
