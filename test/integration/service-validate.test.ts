/**
 * The validate workflow over real HTTP on a real server: upload checks, tasks for breached conditions, IN PROGRESS
 * until a reviewer resolves, the tasks API (queue order, cursor pages, status filter, tenants, scope, 409 race)
 * and validate as the child workflow of a split.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";
import { invoiceBundle, THREE_INVOICES } from "../unit/split-invoices.js";

interface Field {
  name: string;
  value: unknown;
  confidence?: number;
  reviewed?: boolean;
}
interface ResultBody {
  fileId: string;
  status: string;
  results?: { fields: Field[] };
}
interface Task {
  id: string;
  fileId: string;
  fieldSet: string;
  status: string;
  priority: number;
  breaches: { field: string; condition: { type: string }; value: string | null; confidence: number | null }[];
  fields: Field[];
  pageCount: number;
}
interface TaskPage {
  tasks: Task[];
  next: string | null;
}

let server: TestServer;
let token: string;
let pdf: Uint8Array;

before(async () => {
  server = await startTestServer({ workers: 2, resultWaitMs: 20_000 });
  token = await server.token();
  pdf = await invoicePdf({ number: "INV-7731", date: "14.03.2024", total: "1,234.50" });
});
after(() => server.stop());

/** Conditions the generated invoice breaks: its total is above 100 and it has no due date. */
const BREAKING = [
  { type: "field-value-range", field: "invoice.total", min: 0, max: 100 },
  { type: "field-present", field: "invoice.dueDate" },
  { type: "field-present", field: "invoice.number" },
];

const validateForm = (conditions: unknown[], createTask?: Record<string, unknown>) => ({
  fieldSet: "invoice",
  workflowId: "validate",
  workflowOptions: JSON.stringify({ prediction: { fieldset: "invoice", conditions, createTask } }),
});

const result = (fileId: string, query = "", as = token) =>
  requestJson<ResultBody>(`${server.url}/result/final/${fileId}${query}`, { token: as });
const tasks = (query = "", as = token) => requestJson<TaskPage>(`${server.url}/validate/tasks${query}`, { token: as });
const resolve = (id: string, fields: unknown[], as = token) =>
  requestJson<Task & { error?: string }>(`${server.url}/validate/tasks/${id}/resolve`, {
    method: "POST",
    token: as,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fields }),
  });

async function uploadValidate(form: Record<string, string>, as = token): Promise<string> {
  const res = await upload(server, as, uploadForm(pdf, form));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.fileId);
}

/** The task of a file, once its job has created it (the result stays IN PROGRESS meanwhile). */
async function taskOf(fileId: string, status = "open", as = token): Promise<Task> {
  for (let i = 0; i < 300; i++) {
    const page = await tasks(`?status=${status}&limit=200`, as);
    const task = page.body.tasks.find((t) => t.fileId === fileId);
    if (task) return task;
    const r = await result(fileId, "?timeout=0", as);
    assert.ok(r.body.status === "RECEIVED" || r.body.status === "IN PROGRESS", JSON.stringify(r.body));
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no task for ${fileId}`);
}

describe("validate upload", () => {
  const cases: { name: string; options: unknown; pattern: RegExp }[] = [
    { name: "malformed JSON", options: "{prediction:", pattern: /not valid JSON/ },
    {
      name: "a field set not requested",
      options: { prediction: { fieldset: "payment", conditions: BREAKING } },
      pattern: /"payment" is not among/,
    },
    {
      name: "an unknown condition type",
      options: {
        prediction: { fieldset: "invoice", conditions: [...BREAKING, { type: "x", field: "invoice.total" }] },
      },
      pattern: /conditions\[3\]: unknown condition type "x"/,
    },
    {
      name: "a field outside the field set",
      options: { prediction: { fieldset: "invoice", conditions: [{ type: "field-present", field: "payment.iban" }] } },
      pattern: /conditions\[0\].*payment.iban/,
    },
    {
      name: "min above max",
      options: {
        prediction: {
          fieldset: "invoice",
          conditions: [{ type: "field-value-range", field: "invoice.total", min: 9, max: 1 }],
        },
      },
      pattern: /conditions\[0\].*min 9 is greater than max 1/,
    },
  ];
  for (const c of cases) {
    test(`400 before storing: ${c.name}`, async () => {
      const before = await server.blobCount();
      const options = typeof c.options === "string" ? c.options : JSON.stringify(c.options);
      const res = await upload(
        server,
        token,
        uploadForm(pdf, { fieldSet: "invoice", workflowId: "validate", workflowOptions: options }),
      );
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, "bad_request");
      assert.match(String(res.body.message), c.pattern);
      assert.equal(await server.blobCount(), before);
    });
  }
});

describe("validate workflow and tasks API", () => {
  test("no breach: FINALISED directly, no task", async () => {
    const fileId = await uploadValidate(
      validateForm([
        { type: "field-present", field: "invoice.number" },
        { type: "field-confidence-range", field: "invoice.number", min: 0, max: 1 },
      ]),
    );
    const res = await result(fileId);
    assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
    const all = await tasks("?status=all&limit=200");
    assert.equal(all.body.tasks.filter((t) => t.fileId === fileId).length, 0);
  });

  test("breaches: one task listing them, IN PROGRESS until resolved, then FINALISED with the correction", async () => {
    const fileId = await uploadValidate(validateForm(BREAKING, { priority: 70 }));
    const task = await taskOf(fileId);
    assert.equal(task.fieldSet, "invoice");
    assert.equal(task.status, "open");
    assert.equal(task.priority, 70);
    assert.equal(task.pageCount, 1);
    assert.deepEqual(
      task.breaches.map((b) => [b.field, b.condition.type]),
      [
        ["invoice.total", "field-value-range"],
        ["invoice.dueDate", "field-present"],
      ],
    );
    const totalBreach = task.breaches[0];
    assert.equal(totalBreach?.value, "1234.50");
    assert.equal(typeof totalBreach?.confidence, "number");
    assert.ok(task.fields.some((f) => f.name === "invoice.number" && f.value === "INV-7731"));

    // Bounded block: a short timeout answers IN PROGRESS without results.
    const waiting = await result(fileId, "?timeout=300");
    assert.deepEqual(waiting.body, { fileId, status: "IN PROGRESS" });

    // A blocked reader is woken by the resolution.
    const blocked = result(fileId);
    const resolved = await resolve(task.id, [{ name: "invoice.total", value: "99.50" }]);
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.status, "resolved");
    const final = await blocked;
    assert.equal(final.body.status, "FINALISED", JSON.stringify(final.body));
    const fields = final.body.results?.fields ?? [];
    const total = fields.find((f) => f.name === "invoice.total");
    assert.deepEqual([total?.value, total?.confidence, total?.reviewed], ["99.50", 1, true]);
    const number = fields.find((f) => f.name === "invoice.number");
    assert.equal(number?.value, "INV-7731");
    assert.equal(number?.reviewed, undefined, "confirmed fields stay as predicted");

    const again = await resolve(task.id, []);
    assert.equal(again.status, 409);
    assert.equal(again.body.error, "conflict");
  });

  test("two reviewers resolving at once: one wins, the other gets 409", async () => {
    const fileId = await uploadValidate(validateForm(BREAKING));
    const task = await taskOf(fileId);
    const answers = await Promise.all([
      resolve(task.id, [{ name: "invoice.total", value: "1.00" }]),
      resolve(task.id, [{ name: "invoice.total", value: "2.00" }]),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const winner = answers.find((a) => a.status === 200);
    const winning = winner?.body.status === "resolved" ? (winner.body as Task & { corrections: Field[] }) : undefined;
    const final = await result(fileId);
    const total = final.body.results?.fields.find((f) => f.name === "invoice.total");
    assert.equal(total?.value, winning?.corrections[0]?.value, "the file holds the winner's value");
  });

  test("queue order (highest priority first), cursor pages, draft and status filters, tenants, scope", async () => {
    const low = await uploadValidate(validateForm(BREAKING, { priority: 5 }));
    const high = await uploadValidate(validateForm(BREAKING, { priority: 95 }));
    const draft = await uploadValidate(validateForm(BREAKING, { submit: false, priority: 99 }));
    await taskOf(low);
    await taskOf(high);
    const draftTask = await taskOf(draft, "draft");
    assert.equal(draftTask.status, "draft");
    assert.equal((await result(draft, "?timeout=0")).body.status, "IN PROGRESS", "a draft still holds its file");

    const seen: Task[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: TaskPage } = await tasks(`?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.tasks.length <= 1);
      seen.push(...page.body.tasks);
      cursor = page.body.next;
    } while (cursor !== null);
    assert.ok(
      seen.every((t) => t.status === "open"),
      "the default filter is the open queue",
    );
    assert.equal(new Set(seen.map((t) => t.id)).size, seen.length, "pages do not repeat");
    const priorities = seen.map((t) => t.priority);
    assert.deepEqual(
      priorities,
      [...priorities].sort((a, b) => b - a),
    );
    const order = seen.map((t) => t.fileId);
    assert.ok(order.indexOf(high) < order.indexOf(low));
    assert.ok(!order.includes(draft), "drafts are not in the review queue");
    assert.equal((await tasks("?status=bogus")).status, 400);
    assert.equal((await tasks("?cursor=not-a-cursor")).status, 400);

    // Another tenant sees none of it and cannot resolve it.
    const other = await server.newClient({ name: "other" });
    const otherToken = await getToken(server.url, other.clientId, other.clientSecret);
    assert.deepEqual((await tasks("?status=all", otherToken)).body, { tasks: [], next: null });
    const foreign = await requestJson(`${server.url}/validate/tasks/${draftTask.id}`, { token: otherToken });
    assert.equal(foreign.status, 404);
    assert.equal((await resolve(draftTask.id, [], otherToken)).status, 404);

    // The scope is validate:annotation.
    const resultOnly = await server.token("result:all");
    assert.equal((await tasks("", resultOnly)).status, 403);

    // A draft can be resolved through the API; confirming everything finalises the file as predicted.
    const done = await resolve(draftTask.id, []);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await result(draft)).body.status, "FINALISED");
    const bad = await resolve(draftTask.id, [{ name: "supplier.name", value: "x" }]);
    assert.equal(bad.status, 409, "a resolved task is a conflict before its body is read");
  });

  test("400 for a correction outside the task's field set", async () => {
    const fileId = await uploadValidate(validateForm(BREAKING));
    const task = await taskOf(fileId);
    const res = await resolve(task.id, [{ name: "payment.iban", value: "x" }]);
    assert.equal(res.status, 400);
    assert.match(String((res.body as { message?: string }).message), /payment.iban/);
    assert.equal((await resolve(task.id, [])).status, 200);
  });
});

describe("validate as split's child workflow", () => {
  test("each child validates on its own; a breached child waits for its task, the parent is FINALISED", async () => {
    const bytes = await invoiceBundle(THREE_INVOICES.slice(0, 2));
    const childOptions = {
      prediction: {
        fieldSets: ["invoice"],
        fieldset: "invoice",
        conditions: [{ type: "field-value-range", field: "invoice.total", min: 0, max: 0 }],
        createTask: { priority: 80 },
      },
    };
    const res = await upload(
      server,
      token,
      uploadForm(bytes, {
        fieldSet: "invoice",
        workflowId: "split",
        childWorkflowId: "validate",
        childWorkflowOptions: JSON.stringify(childOptions),
      }),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const parent = await result(String(res.body.fileId));
    assert.equal(parent.body.status, "FINALISED", JSON.stringify(parent.body));
    const children = (parent.body.results?.fields[0]?.value ?? []) as { file_id: string }[];
    assert.equal(children.length, 2);
    for (const child of children) {
      const task = await taskOf(child.file_id);
      assert.equal(task.priority, 80);
      assert.equal(task.breaches[0]?.field, "invoice.total");
      assert.equal((await resolve(task.id, [])).status, 200);
      assert.equal((await result(child.file_id)).body.status, "FINALISED");
    }
  });

  test("400 naming the child's bad condition", async () => {
    const bytes = await invoiceBundle(THREE_INVOICES.slice(0, 1));
    const res = await upload(
      server,
      token,
      uploadForm(bytes, {
        fieldSet: "invoice",
        workflowId: "split",
        childWorkflowId: "validate",
        childWorkflowOptions: JSON.stringify({
          prediction: { fieldset: "invoice", conditions: [{ type: "field-nope", field: "invoice.total" }] },
        }),
      }),
    );
    assert.equal(res.status, 400);
    assert.match(String(res.body.message), /conditions\[0\]: unknown condition type "field-nope"/);
  });
});
