/**
 * Tenant isolation, hostile ids and hostile file names against a real server, on both backends:
 * - another tenant's file on every file route and another tenant's task on every task route answer 404 exactly like
 *   an unknown id (never 403: existence is not revealed), and change nothing;
 * - path traversal, NUL bytes and over-long ids are 400/404 and read nothing;
 * - a file name with a path, control characters or 10 kB is stored cut down and returned as inert JSON.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  getToken,
  invoicePdf,
  type JsonResponse,
  requestJson,
  startTestServer,
  type TestBackend,
  type TestServer,
  upload,
  uploadForm,
} from "../helpers/server.js";

interface Task {
  id: string;
  fileId: string;
  status: string;
  fileName: string | null;
}

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
/** Breaks on the generated invoice (total 1234.50), so every upload opens a review task. */
const VALIDATE_FORM = {
  fieldSet: "invoice",
  workflowId: "validate",
  workflowOptions: JSON.stringify({
    prediction: {
      fieldset: "invoice",
      conditions: [{ type: "field-value-range", field: "invoice.total", min: 0, max: 100 }],
    },
  }),
};

for (const backend of ["sqlite", "postgres"] as const satisfies TestBackend[]) {
  describe(`tenants, ids and file names (${backend})`, () => {
    let server: TestServer;
    let owner: string;
    let stranger: string;
    let pdf: Uint8Array;
    let fileId: string;
    let taskId: string;

    const tasksOf = (token: string, status = "all") =>
      requestJson<{ tasks: Task[] }>(`${server.url}/validate/tasks?status=${status}&limit=200`, { token });

    /** The task of a file once its job created it. */
    async function taskOf(id: string, token: string): Promise<Task> {
      for (let i = 0; i < 300; i++) {
        const task = (await tasksOf(token)).body.tasks.find((t) => t.fileId === id);
        if (task) return task;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`no task for ${id}`);
    }

    before(async () => {
      server = await startTestServer({ workers: 1, backend });
      owner = await server.token();
      const other = await server.newClient({ name: "another-tenant" });
      stranger = await getToken(server.url, other.clientId, other.clientSecret);
      pdf = await invoicePdf({ number: "TEN-1", date: "2024-03-14", total: "1,234.50" });
      const res = await upload(server, owner, uploadForm(pdf, VALIDATE_FORM));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      fileId = String(res.body.fileId);
      taskId = (await taskOf(fileId, owner)).id;
    });
    after(() => server.stop());

    const get = (path: string, token: string) => requestJson(`${server.url}${path}`, { token });
    const resolve = (id: string, token: string) =>
      requestJson(`${server.url}/validate/tasks/${id}/resolve`, {
        method: "POST",
        token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fields: [{ name: "invoice.total", value: "1.00" }] }),
      });

    /** The answer for `id` must be the very answer for an id that does not exist. */
    async function assertLikeUnknown(ask: (id: string) => Promise<JsonResponse>, what: string): Promise<void> {
      const theirs = await ask(fileOrTask(what));
      const unknown = await ask(UNKNOWN_ID);
      assert.equal(theirs.status, 404, `${what}: ${JSON.stringify(theirs.body)}`);
      assert.deepEqual(theirs.body, unknown.body, what);
    }
    const fileOrTask = (what: string): string => (what.startsWith("task") ? taskId : fileId);

    test("the owner reaches the file and its task on every route (the control)", async () => {
      assert.equal((await get(`/result/final/${fileId}?timeout=0`, owner)).status, 200);
      assert.equal((await get(`/results/${fileId}?timeout=0`, owner)).status, 200);
      const image = await fetch(`${server.url}/result/image/${fileId}?page=1`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      assert.equal(image.status, 200);
      assert.equal(image.headers.get("content-type"), "image/png");
      assert.equal((await get(`/validate/tasks/${taskId}`, owner)).status, 200);
    });

    test("another tenant's file is 404 like an unknown id on every file route", async () => {
      await assertLikeUnknown((id) => get(`/result/final/${id}?timeout=0`, stranger), "file: result/final");
      await assertLikeUnknown((id) => get(`/result/final/${id}`, stranger), "file: blocking result/final");
      await assertLikeUnknown((id) => get(`/results/${id}?timeout=0`, stranger), "file: results alias");
      await assertLikeUnknown((id) => get(`/result/image/${id}?page=1`, stranger), "file: result/image");
      // Upper case is the same id: no second way in.
      const upper = await get(`/result/final/${fileId.toUpperCase()}?timeout=0`, stranger);
      assert.equal(upper.status, 404);
    });

    test("another tenant's task is 404 like an unknown id on every task route, and stays untouched", async () => {
      await assertLikeUnknown((id) => get(`/validate/tasks/${id}`, stranger), "task: get");
      await assertLikeUnknown((id) => resolve(id, stranger), "task: resolve");
      for (const status of ["open", "draft", "resolved", "all"]) {
        const listed = await tasksOf(stranger, status);
        assert.equal(listed.status, 200);
        assert.ok(!listed.body.tasks.some((t) => t.id === taskId || t.fileId === fileId), `listed as ${status}`);
      }
      const task = await get(`/validate/tasks/${taskId}`, owner);
      assert.equal(task.body.status, "open", "the stranger's resolve changed nothing");
      const file = await get(`/result/final/${fileId}?timeout=0`, owner);
      assert.equal(file.body.status, "IN PROGRESS");
    });

    test("traversal, NUL bytes and over-long ids are 400/404 and read nothing", async () => {
      const hostile = [
        "..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "..%2f..%2fjwt-key.json",
        "%2e%2e%2f%2e%2e%2fjwt-key.json",
        "..%5C..%5Cjwt-key.json",
        "%00",
        `${fileId}%00`,
        `${fileId}%2F..%2F..%2Fjwt-key.json`,
        `%2F${fileId}`,
        "a".repeat(10_000),
        `${fileId}${"0".repeat(5000)}`,
      ];
      const routes = [
        (id: string) => get(`/result/final/${id}?timeout=0`, owner),
        (id: string) => get(`/results/${id}?timeout=0`, owner),
        (id: string) => get(`/result/image/${id}?page=1`, owner),
        (id: string) => get(`/validate/tasks/${id}`, owner),
        (id: string) => resolve(id, owner),
      ];
      for (const id of hostile) {
        for (const route of routes) {
          const res = await route(id);
          assert.ok(res.status === 404 || res.status === 400, `${id.slice(0, 60)}: ${res.status}`);
          assert.ok(res.body.error === "not_found" || res.body.error === "bad_request", JSON.stringify(res.body));
          const text = JSON.stringify(res.body);
          assert.doesNotMatch(text, /root:|privateJwk|"d":/, "nothing from disk leaks into the answer");
        }
      }
      // The static console files cannot be walked out of either.
      for (const path of ["/console/..%2F..%2Fpackage.json", "/console/%2e%2e/%2e%2e/package.json"]) {
        const res = await fetch(`${server.url}${path}`);
        assert.notEqual(res.status, 200, path);
        assert.doesNotMatch(await res.text(), /"dependencies"/);
      }
      // The task survived the abuse.
      assert.equal((await get(`/validate/tasks/${taskId}`, owner)).body.status, "open");
    });

    test("a file name with a path, control characters or 10 kB is stored harmlessly and returned as inert JSON", async () => {
      const names = [
        { sent: "../../../../etc/passwd", stored: "passwd" },
        { sent: "..\\..\\windows\\win.ini", stored: "win.ini" },
        { sent: "inv\u0000oice\u001b[31m\u0007\u007f\u0085.pdf", stored: "invoice[31m.pdf" },
        { sent: "..", stored: null },
        { sent: `${"n".repeat(10 * 1024)}.pdf`, stored: "n".repeat(255) },
        { sent: `${"é".repeat(300)}`, stored: "é".repeat(255) },
      ];
      const blobsBefore = await server.blobCount();
      for (const { sent, stored } of names) {
        const res = await upload(server, owner, uploadForm(pdf, VALIDATE_FORM, { fileName: sent }));
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const task = await taskOf(String(res.body.fileId), owner);
        assert.equal(task.fileName, stored, `sent ${JSON.stringify(sent.slice(0, 40))}`);
        const raw = await (
          await fetch(`${server.url}/validate/tasks/${task.id}`, { headers: { authorization: `Bearer ${owner}` } })
        ).text();
        // eslint-style check: no raw control character reaches the wire.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
        assert.doesNotMatch(raw, /[\u0000-\u001f]/);
      }
      // The same names through the JSON upload, where they arrive unencoded.
      const json = await requestJson(`${server.url}/fileupload/json`, {
        method: "POST",
        token: owner,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...VALIDATE_FORM,
          fileToUpload: Buffer.from(pdf).toString("base64"),
          fileName: "a\r\nX-Injected: yes\u0000/../b.pdf",
        }),
      });
      assert.equal(json.status, 200, JSON.stringify(json.body));
      assert.equal((await taskOf(String(json.body.fileId), owner)).fileName, "b.pdf");
      // One blob per upload, stored by id: the names decided nothing about where bytes went.
      assert.equal(await server.blobCount(), blobsBefore + names.length + 1);
    });
  });
}
