/**
 * Files through the SDK (file, listFiles/files, original, deleteFile, verbose results) and the `docsift files`
 * commands, against a real server; the CLI configured only through DOCSIFT_URL and DOCSIFT_API_KEY.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { DocsiftClient } from "../../src/client/index.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
let server: TestServer;
let sdk: DocsiftClient;
let workDir: string;

before(async () => {
  server = await startTestServer({ workers: 1 });
  sdk = new DocsiftClient({ baseUrl: server.url, ...server.admin });
  workDir = await mkdtemp(join(tmpdir(), "docsift-cli-files-"));
});
after(async () => {
  await server.stop();
  await rm(workDir, { recursive: true, force: true });
});

function docsift(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      {
        cwd: process.cwd(),
        env: {
          ...process.env,
          DOCSIFT_URL: server.url,
          DOCSIFT_API_KEY: `${server.admin.clientId}:${server.admin.clientSecret}`,
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lines = (text: string): Record<string, unknown>[] =>
  text
    .trim()
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the SDK's file methods", () => {
  test("upload with tags and parentDocId, describe, list, download, verbose result, delete twice", async () => {
    const pdf = await invoicePdf({ number: "SDK-1", date: "2024-04-01", total: "11.00" });
    const { fileId } = await sdk.upload(pdf, {
      fieldSet: "invoice",
      tags: ["sdk", "april"],
      parentDocId: "po-77",
      fileName: "sdk.pdf",
    });
    const verbose = await sdk.result(fileId, { verbose: true });
    assert.equal(verbose.status, "FINALISED");
    if (verbose.status === "FINALISED") {
      const number = verbose.results.fields.find((f) => f.name === "invoice.number");
      assert.ok(number && "raw" in number && typeof number.raw === "string" && number.raw.includes("SDK-1"));
    }
    const described = await sdk.file(fileId);
    assert.deepEqual(
      { tags: described.tags, parentDocId: described.parentDocId, fileName: described.fileName },
      { tags: ["sdk", "april"], parentDocId: "po-77", fileName: "sdk.pdf" },
    );
    const listed: string[] = [];
    for await (const file of sdk.files({ tag: "april", limit: 1 })) listed.push(file.fileId);
    assert.deepEqual(listed, [fileId]);
    const original = await sdk.original(fileId);
    assert.deepEqual(original.bytes, pdf);
    assert.equal(original.contentType, "application/pdf");
    assert.equal(original.fileName, "sdk.pdf");
    assert.equal(await sdk.deleteFile(fileId), true);
    assert.equal(await sdk.deleteFile(fileId), false, "a repeated delete is no error");
    await assert.rejects(sdk.file(fileId), { code: "not_found" });
  });
});

describe("docsift files", () => {
  test("list, get, download and delete", async () => {
    const pdf = await invoicePdf({ number: "CLI-1", date: "2024-04-02", total: "12.00" });
    const { fileId } = await sdk.upload(pdf, { fieldSet: "invoice", tags: "cli-files", fileName: "cli.pdf" });
    await sdk.waitForResult(fileId);

    const list = await docsift(["files", "list", "--tag", "cli-files"]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      lines(list.stdout).map((f) => [f.fileId, f.status, f.tags]),
      [[fileId, "FINALISED", ["cli-files"]]],
    );

    const get = await docsift(["files", "get", fileId]);
    assert.equal(get.code, 0, get.stderr);
    assert.equal(lines(get.stdout)[0]?.fileName, "cli.pdf");

    const out = join(workDir, "copy.pdf");
    const download = await docsift(["files", "download", fileId, "--out", out]);
    assert.equal(download.code, 0, download.stderr);
    assert.deepEqual(new Uint8Array(await readFile(out)), pdf);
    assert.equal(lines(download.stdout)[0]?.contentType, "application/pdf");

    const deleted = await docsift(["files", "delete", fileId]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(lines(deleted.stdout), [{ fileId, deleted: true }]);
    const again = await docsift(["files", "delete", fileId]);
    assert.deepEqual(lines(again.stdout), [{ fileId, deleted: false }]);

    const gone = await docsift(["files", "get", fileId]);
    assert.equal(gone.code, 1);
    assert.equal(lines(gone.stdout)[0]?.error, "not_found");
    const usage = await docsift(["files", "rename", fileId]);
    assert.equal(usage.code, 2);
  });

  test("docsift upload --tags is repeatable: every tag is kept", async () => {
    const path = join(workDir, "tagged.pdf");
    await writeFile(path, await invoicePdf({ number: "CLI-2", date: "2024-04-03", total: "13.00" }));
    const uploaded = await docsift(["upload", path, "--field-set", "invoice", "--tags", "one", "--tags", "two"]);
    assert.equal(uploaded.code, 0, uploaded.stderr);
    const [receipt] = JSON.parse(uploaded.stdout) as { fileId: string }[];
    const fileId = String(receipt?.fileId);
    assert.deepEqual((await sdk.file(fileId)).tags, ["one", "two"]);
  });
});
