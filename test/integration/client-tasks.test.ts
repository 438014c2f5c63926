/** The SDK's task calls against a real server: listTasks/tasks(), task, resolveTask, and the 409 of a second resolve. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DocsiftApiError, DocsiftClient, type ValidationTask } from "../../src/client/index.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let client: DocsiftClient;

before(async () => {
  server = await startTestServer({ workers: 1 });
  client = new DocsiftClient({ baseUrl: server.url, ...server.admin });
});
after(() => server.stop());

test("list, read and resolve a validation task through the SDK", async () => {
  const bytes = await invoicePdf({ number: "SDK-1", date: "01.02.2024", total: "250.00" });
  const receipts = [];
  for (const priority of [10, 60]) {
    receipts.push(
      await client.upload(bytes, {
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: {
          prediction: {
            fieldset: "invoice",
            conditions: [{ type: "field-value-range", field: "invoice.total", max: 100 }],
            createTask: { priority },
          },
        },
      }),
    );
  }
  const fileIds = receipts.map((r) => r.fileId);
  let listed: ValidationTask[] = [];
  for (let i = 0; i < 300 && listed.length < 2; i++) {
    listed = [];
    for await (const t of client.tasks({ limit: 1 })) if (fileIds.includes(t.fileId)) listed.push(t);
    if (listed.length < 2) await new Promise((r) => setTimeout(r, 100));
  }
  assert.deepEqual(
    listed.map((t) => [t.fileId, t.priority]),
    [
      [fileIds[1], 60],
      [fileIds[0], 10],
    ],
  );
  const first = listed[0];
  assert.ok(first);
  const task = await client.task(first.id);
  assert.equal(task.breaches[0]?.field, "invoice.total");
  assert.equal(task.breaches[0]?.value, "250.00");

  const resolved = await client.resolveTask(task.id, [{ name: "invoice.total", value: "99.00" }]);
  assert.equal(resolved.status, "resolved");
  await assert.rejects(client.resolveTask(task.id, []), (err: unknown) => {
    return err instanceof DocsiftApiError && err.status === 409 && err.code === "conflict";
  });
  const final = await client.waitForResult(task.fileId);
  assert.equal(final.status, "FINALISED");
  const total = final.status === "FINALISED" ? final.results.fields.find((f) => f.name === "invoice.total") : undefined;
  assert.equal(total?.value, "99.00");
  assert.equal((await client.listTasks({ status: "resolved" })).tasks[0]?.id, task.id);
});
