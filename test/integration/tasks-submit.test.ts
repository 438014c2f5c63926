/**
 * POST /validate/tasks/:id/submit on both backends: a draft (createTask.submit=false) joins the review queue as an
 * open task; anything that is not a draft is 409; an unknown id or another tenant's task is 404; the scope is
 * validate:annotation; of two submits at once one wins. Also through the SDK (submitTask).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { DocsiftApiError, DocsiftClient } from "../../src/client/index.js";
import {
  getToken,
  invoicePdf,
  requestJson,
  startTestServer,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";

interface Task {
  id: string;
  fileId: string;
  status: string;
  priority: number;
  createdAt: string;
}
interface TaskPage {
  tasks: Task[];
  next: string | null;
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`submitting draft tasks (${backend})`, () => {
    let server: TestServer;
    let token: string;
    let pdf: Uint8Array;

    before(async () => {
      server = await startTestServer({ backend, workers: 1, resultWaitMs: 20_000 });
      token = await server.token();
      pdf = await invoicePdf({ number: "DRAFT-1", date: "2024-03-01", total: "500.00" });
    });
    after(() => server.stop());

    const list = (status: string, as = token) =>
      requestJson<TaskPage>(`${server.url}/validate/tasks?status=${status}&limit=200`, { token: as });
    const submit = (id: string, as = token) =>
      requestJson<Task & { error?: string; message?: string }>(`${server.url}/validate/tasks/${id}/submit`, {
        method: "POST",
        token: as,
      });
    const resolve = (id: string) =>
      requestJson<Task>(`${server.url}/validate/tasks/${id}/resolve`, {
        method: "POST",
        token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fields: [] }),
      });

    /** Uploads a file whose total breaks its condition, as a draft unless `submit`; returns its task once created. */
    async function draftTask(submitNow = false): Promise<Task> {
      const options = {
        prediction: {
          fieldset: "invoice",
          conditions: [{ type: "field-value-range", field: "invoice.total", max: 100 }],
          createTask: { submit: submitNow, priority: 70 },
        },
      };
      const res = await upload(
        server,
        token,
        uploadForm(pdf, { fieldSet: "invoice", workflowId: "validate", workflowOptions: JSON.stringify(options) }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const status = submitNow ? "open" : "draft";
      for (let i = 0; i < 300; i++) {
        const task = (await list(status)).body.tasks.find((t) => t.fileId === res.body.fileId);
        if (task) return task;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no ${status} task for ${String(res.body.fileId)}`);
    }

    test("a draft joins the review queue; a second submit is 409; the file waits for review", async () => {
      const draft = await draftTask();
      assert.ok(!(await list("open")).body.tasks.some((t) => t.id === draft.id), "drafts are outside the queue");
      const submitted = await submit(draft.id);
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
      assert.equal(submitted.body.status, "open");
      assert.equal(submitted.body.priority, draft.priority);
      assert.equal(submitted.body.createdAt, draft.createdAt, "it keeps its place by age");
      assert.ok((await list("open")).body.tasks.some((t) => t.id === draft.id));
      assert.ok(!(await list("draft")).body.tasks.some((t) => t.id === draft.id));
      const result = await requestJson(`${server.url}/result/final/${draft.fileId}?timeout=0`, { token });
      assert.equal(result.body.status, "IN PROGRESS");

      const again = await submit(draft.id);
      assert.equal(again.status, 409);
      assert.equal(again.body.error, "conflict");
      assert.equal((await resolve(draft.id)).status, 200, "a submitted task is resolved like any open one");
      const resolved = await submit(draft.id);
      assert.equal(resolved.status, 409);
      assert.match(String(resolved.body.message), /resolved/);
    });

    test("an open task is 409; unknown ids and other tenants' tasks are 404; the scope is validate:annotation", async () => {
      const open = await draftTask(true);
      assert.equal((await submit(open.id)).status, 409);

      const draft = await draftTask();
      assert.equal((await submit(randomUUID())).status, 404);
      assert.equal((await submit("not-a-task-id")).status, 404);
      const other = await server.newClient({ name: `other-${backend}` });
      const otherToken = await getToken(server.url, other.clientId, other.clientSecret);
      const foreign = await submit(draft.id, otherToken);
      assert.equal(foreign.status, 404);
      assert.equal((await submit(draft.id, await server.token("result:all"))).status, 403);
      assert.ok(
        (await list("draft")).body.tasks.some((t) => t.id === draft.id),
        "still a draft",
      );
    });

    test("two submits at once: one 200, the other 409", async () => {
      const draft = await draftTask();
      const answers = await Promise.all([submit(draft.id), submit(draft.id)]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    });

    test("the SDK's submitTask", async () => {
      const draft = await draftTask();
      const sdk = new DocsiftClient({ baseUrl: server.url, ...server.admin });
      const task = await sdk.submitTask(draft.id);
      assert.equal(task.status, "open");
      await assert.rejects(
        sdk.submitTask(draft.id),
        (err: unknown) => err instanceof DocsiftApiError && err.status === 409 && err.code === "conflict",
      );
    });

    test("OpenAPI lists the route", async () => {
      const spec = await requestJson<{ paths: Record<string, { post?: { security?: unknown } }> }>(
        `${server.url}/openapi.json`,
      );
      const op = spec.body.paths["/validate/tasks/{taskId}/submit"]?.post;
      assert.deepEqual(op?.security, [{ oauth2: ["validate:annotation"] }]);
    });
  });
}
