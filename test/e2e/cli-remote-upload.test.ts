/**
 * `docsift upload` and `docsift result` as a user runs them: real CLI processes talking to a real server on a
 * random port, configured only through DOCSIFT_URL and the credentials in the environment.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { csvLine, formatOutcomes } from "../../src/cli/remote-output.js";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

const CLI = ["--import", "tsx", "src/cli/main.ts"];
let server: TestServer;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function docsift(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...CLI, ...args],
      {
        env: {
          ...process.env,
          DOCSIFT_URL: server.url,
          DOCSIFT_API_KEY: `${server.admin.clientId}:${server.admin.clientSecret}`,
          ...env,
        },
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Parses CSV as the CLI writes it (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ",") {
      row.push(cell);
      cell = "";
    } else if (!quoted && c === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else {
      cell += c;
    }
  }
  return rows;
}

before(async () => {
  server = await startTestServer({ workers: 1 });
  dir = await mkdtemp(join(tmpdir(), "docsift-cli-remote-"));
  await writeFile(join(dir, "a.pdf"), await invoicePdf({ number: "CLI-1", date: "2024-04-01", total: "1,234.50" }));
  await writeFile(join(dir, "b.pdf"), await invoicePdf({ number: "CLI-2", date: "2024-04-02", total: "20.00" }));
  await writeFile(join(dir, "notes.txt"), "not a document");
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("docsift upload and result", () => {
  test("--wait --format csv: a row per file with file, fileId, status and each field's value", async () => {
    const run = await docsift([
      "upload",
      join(dir, "a.pdf"),
      join(dir, "b.pdf"),
      "--field-set",
      "invoice",
      "--wait",
      "--format",
      "csv",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const [header, ...rows] = parseCsv(run.stdout);
    assert.deepEqual(header?.slice(0, 4), ["file", "fileId", "status", "invoice.number"]);
    const col = (name: string) => header?.indexOf(name) ?? -1;
    assert.equal(rows.length, 2);
    assert.deepEqual(
      rows.map((r) => [r[0], r[2], r[col("invoice.number")], r[col("invoice.total")]]),
      [
        [join(dir, "a.pdf"), "FINALISED", "CLI-1", "1234.50"],
        [join(dir, "b.pdf"), "FINALISED", "CLI-2", "20.00"],
      ],
    );
  });

  test("without --wait it prints receipts (jsonl); `docsift result` then prints the results", async () => {
    const up = await docsift([
      "upload",
      join(dir, "a.pdf"),
      "--product",
      "invoices",
      "--locale",
      "en-GB",
      "--format",
      "jsonl",
    ]);
    assert.equal(up.code, 0, up.stderr);
    const receipts = up.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, string>);
    assert.equal(receipts.length, 1);
    assert.equal(receipts[0]?.status, "RECEIVED");
    const fileId = receipts[0]?.fileId ?? "";
    assert.match(fileId, /^[0-9a-f-]{36}$/);

    const res = await docsift(["result", fileId]);
    assert.equal(res.code, 0, res.stderr);
    const body = JSON.parse(res.stdout) as {
      fileId: string;
      status: string;
      results: { fields: { name: string; value: unknown }[] };
    };
    assert.equal(body.fileId, fileId);
    assert.equal(body.status, "FINALISED");
    assert.equal(body.results.fields.find((f) => f.name === "invoice.number")?.value, "CLI-1");
    assert.ok(
      body.results.fields.some((f) => f.name === "payment.iban"),
      "the product's field sets are all there",
    );

    const csv = await docsift(["result", fileId, "--timeout", "0", "--format", "csv"]);
    assert.equal(csv.code, 0, csv.stderr);
    const [header, row] = parseCsv(csv.stdout);
    assert.equal(row?.[header?.indexOf("invoice.number") ?? -1], "CLI-1");
    assert.equal(row?.[1], fileId);
  });

  test("a file the service refuses is a FAILED entry with its error code; the others still go; exit 1", async () => {
    const run = await docsift([
      "upload",
      join(dir, "notes.txt"),
      join(dir, "b.pdf"),
      "--field-set",
      "invoice",
      "--format",
      "json",
    ]);
    assert.equal(run.code, 1);
    const outcomes = JSON.parse(run.stdout) as { file: string; status: string; error?: { error: string } }[];
    assert.equal(outcomes[0]?.status, "FAILED");
    assert.equal(outcomes[0]?.error?.error, "unsupported_type");
    assert.equal(outcomes[1]?.status, "RECEIVED");
  });

  test("usage mistakes exit 2; an unknown file id or wrong credentials exit 1 with the service's code", async () => {
    assert.equal((await docsift(["upload", join(dir, "a.pdf")])).code, 2, "no --product or --field-set");
    assert.equal(
      (await docsift(["upload", join(dir, "a.pdf"), "--product", "invoices", "--field-set", "invoice"])).code,
      2,
    );
    assert.equal((await docsift(["upload", join(dir, "a.pdf"), "--product", "invoices", "--format", "xml"])).code, 2);
    assert.equal((await docsift(["result", "x"], { DOCSIFT_API_KEY: "" })).code, 2, "no credentials");
    const unknown = await docsift(["result", "00000000-0000-4000-8000-000000000000"]);
    assert.equal(unknown.code, 1);
    assert.equal((JSON.parse(unknown.stdout) as { error: { error: string } }).error.error, "not_found");
    const wrong = await docsift(["result", "00000000-0000-4000-8000-000000000000"], {
      DOCSIFT_API_KEY: "",
      DOCSIFT_CLIENT_ID: server.admin.clientId,
      DOCSIFT_CLIENT_SECRET: "not-the-secret",
    });
    assert.equal(wrong.code, 1);
    assert.equal((JSON.parse(wrong.stdout) as { error: { error: string } }).error.error, "invalid_client");
  });
});

describe("csv output", () => {
  test("cells with commas, quotes or newlines are quoted; child references and nulls become text", () => {
    assert.equal(csvLine(["a,b", 'say "hi"', "two\nlines", "plain"]), '"a,b","say ""hi""","two\nlines",plain\n');
    const csv = formatOutcomes(
      [
        {
          file: "multi.pdf",
          fileId: "f1",
          status: "FINALISED",
          results: {
            fields: [
              { name: "components.children", value: [{ file_id: "c1" }, { file_id: "c2" }] },
              { name: "invoice.number", value: null, confidence: 0.1, boundingBox: null },
            ],
          },
        },
        { file: "x.txt", status: "FAILED", error: { error: "unsupported_type", message: "no" } },
      ],
      "csv",
    );
    assert.deepEqual(parseCsv(csv), [
      ["file", "fileId", "status", "components.children", "invoice.number"],
      ["multi.pdf", "f1", "FINALISED", "c1 c2", ""],
      ["x.txt", "", "FAILED", "", ""],
    ]);
  });
});
