/**
 * Line items through the service on both backends (issue #18): a born-digital invoice with a table uploaded over
 * HTTP comes back with `invoice.lineItems` rows; a printed subtotal the rows do not add up to gives the
 * `line_items_sum_mismatch` warning, the `line-items-sum` condition turns it into a review task, and the reviewer's
 * rows are checked and stored.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TABLE_ROWS, tableInvoicePage } from "../helpers/line-items-fixtures.js";
import { makeTextPdf } from "../helpers/pdf-fixtures.js";
import {
  requestJson,
  startTestServer,
  type TestBackend,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";

interface Row {
  description: string | null;
  quantity: string | null;
  unitPrice: string | null;
  amount: string | null;
  confidence: number;
  boundingBoxes: { cell: string; pageNum: number; tokenIds: number[] }[];
}
interface Field {
  name: string;
  value: unknown;
  confidence?: number;
  boundingBox: { pageNum: number; tokenIds: number[] } | null;
  reviewed?: boolean;
}
interface ResultBody {
  status: string;
  results?: { fields: Field[]; warnings?: { code: string; page: number | null; message: string; field?: string }[] };
}
interface Task {
  id: string;
  fileId: string;
  breaches: { field: string; condition: { type: string }; value: unknown }[];
  fields: Field[];
}

const rowsOf = (fields: readonly Field[], name = "invoice.lineItems"): Row[] => {
  const field = fields.find((f) => f.name === name);
  assert.ok(field && Array.isArray(field.value), `${name} has rows: ${JSON.stringify(field)}`);
  return field.value as Row[];
};
const cells = (rows: readonly Row[]) => rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]);

for (const backend of ["sqlite", "postgres"] as TestBackend[]) {
  describe(`line items through the service (${backend})`, () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startTestServer({ backend, workers: 1, resultWaitMs: 30_000 });
      token = await server.token();
    });
    after(() => server?.stop());

    const send = async (subtotal: string | undefined, form: Record<string, string>) => {
      const { bytes } = await makeTextPdf([tableInvoicePage(subtotal)]);
      const res = await upload(server, token, uploadForm(bytes, { locale: "en-GB", ...form }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return String(res.body.fileId);
    };
    const result = (fileId: string, query = "") =>
      requestJson<ResultBody>(`${server.url}/result/final/${fileId}${query}`, { token });

    test("an invoice with a table: invoice.lineItems lists its rows, boxed, without a warning", async () => {
      const fileId = await send(undefined, { products: "invoices" });
      const res = await result(fileId);
      assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
      const fields = res.body.results?.fields ?? [];
      const rows = rowsOf(fields);
      assert.deepEqual(
        cells(rows),
        TABLE_ROWS.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      );
      for (const row of rows) {
        assert.deepEqual(
          row.boundingBoxes.map((b) => [b.cell, b.pageNum]),
          [
            ["description", 1],
            ["quantity", 1],
            ["unitPrice", 1],
            ["amount", 1],
          ],
        );
      }
      const field = fields.find((f) => f.name === "invoice.lineItems");
      assert.ok((field?.confidence ?? 0) > 0.9, `rows and sum close: ${field?.confidence}`);
      assert.equal(field?.boundingBox?.pageNum, 1);
      assert.equal(res.body.results?.warnings, undefined);
      assert.deepEqual(cells(rowsOf((await result(fileId, "?verbose=true")).body.results?.fields ?? [])), cells(rows));
    });

    test("a printed subtotal the rows do not add up to: line_items_sum_mismatch naming both", async () => {
      const res = await result(await send("1,228.44", { fieldSet: "lineItems" }));
      assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
      const fields = res.body.results?.fields ?? [];
      assert.deepEqual(
        fields.map((f) => [f.name, Array.isArray(f.value) ? f.value.length : f.value]),
        [
          ["invoice.lineItems", 3],
          ["receipt.lineItems", null],
        ],
      );
      const warnings = res.body.results?.warnings ?? [];
      assert.deepEqual(
        warnings.map((w) => [w.code, w.field, w.page]),
        [["line_items_sum_mismatch", "invoice.lineItems", 1]],
      );
      assert.match(warnings[0]?.message ?? "", /1128\.44.*1228\.44/);
    });

    test("line-items-sum opens a review task; the reviewer's rows are checked and stored", async () => {
      const fileId = await send("1,228.44", {
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: JSON.stringify({
          prediction: { fieldset: "invoice", conditions: [{ type: "line-items-sum" }] },
        }),
      });
      let task: Task | undefined;
      for (let i = 0; i < 600 && !task; i++) {
        const page = await requestJson<{ tasks: Task[] }>(`${server.url}/validate/tasks?limit=200`, { token });
        task = page.body.tasks.find((t) => t.fileId === fileId);
        if (!task) await new Promise((res) => setTimeout(res, 100));
      }
      assert.ok(task, "the mismatch opened a task");
      assert.deepEqual(
        task.breaches.map((b) => [b.field, b.condition.type, Array.isArray(b.value) ? b.value.length : b.value]),
        [["invoice.lineItems", "line-items-sum", 3]],
      );
      assert.equal(rowsOf(task.fields).length, 3, "the task shows the rows to review");

      const resolve = (value: unknown) =>
        requestJson<{ error?: string; message?: string }>(`${server.url}/validate/tasks/${task.id}/resolve`, {
          method: "POST",
          token,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fields: [{ name: "invoice.lineItems", value }] }),
        });
      const bad = await resolve([{ description: "Delivery", amount: "1O0.00" }]);
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.match(bad.body.message ?? "", /value\[0\]\.amount/);

      const predicted = rowsOf(task.fields);
      const ok = await resolve([...predicted, { description: "Delivery", quantity: null, amount: "100" }]);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const res = await result(fileId);
      assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
      const fields = res.body.results?.fields ?? [];
      const rows = rowsOf(fields);
      assert.deepEqual(cells(rows), [
        ...TABLE_ROWS.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
        ["Delivery", null, null, "100.00"],
      ]);
      assert.deepEqual(
        rows.map((r) => [r.confidence, r.boundingBoxes.length > 0]),
        [
          [1, true],
          [1, true],
          [1, true],
          [1, false],
        ],
      );
      const field = fields.find((f) => f.name === "invoice.lineItems");
      assert.deepEqual([field?.confidence, field?.reviewed], [1, true]);
    });
  });
}
