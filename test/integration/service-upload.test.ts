import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { crc32 } from "node:zlib";
import { resolveFields, type Selection } from "../../src/catalog/lookup.js";
import { invoicePdf, requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

let server: TestServer;
let token: string;
let pdf: Uint8Array;

before(async () => {
  server = await startTestServer({ workers: 1 });
  token = await server.token();
  pdf = await invoicePdf({ number: "INV-1001", date: "2024-03-05", total: "1,234.50" });
});
after(() => server.stop());

async function fieldNames(fileId: string): Promise<string[]> {
  const res = await requestJson<{ status: string; results: { fields: { name: string }[] } }>(
    `${server.url}/result/final/${fileId}`,
    { token },
  );
  assert.equal(res.status, 200);
  assert.equal(res.body.status, "FINALISED");
  return res.body.results.fields.map((f) => f.name);
}

const expected = (selection: Selection): string[] => resolveFields(selection).map((f) => f.name);

const blobCount = (): Promise<number> => server.blobCount();

describe("upload parameter forms", () => {
  const cases: {
    name: string;
    fields: Record<string, string | string[]>;
    selection: Selection;
    fileFirst?: boolean;
  }[] = [
    {
      name: "products as a JSON array text",
      fields: { products: '["receipts"]' },
      selection: { products: ["receipts"] },
    },
    {
      name: "products as a comma list",
      fields: { products: "receipts, invoices" },
      selection: { products: ["receipts", "invoices"] },
    },
    {
      name: "products as repeated fields",
      fields: { products: ["receipts", "invoices"] },
      selection: { products: ["receipts", "invoices"] },
    },
    {
      name: "fieldSets as a comma list, file first",
      fields: { fieldSets: "payment,invoice" },
      selection: { fieldSets: ["payment", "invoice"] },
      fileFirst: true,
    },
    {
      name: "fieldSets as repeated JSON arrays",
      fields: { fieldSets: ['["invoice"]', '["parties"]'] },
      selection: { fieldSets: ["invoice", "parties"] },
    },
    {
      name: "fieldSet with locale, tags and an explicit prediction workflow",
      fields: {
        fieldSet: "invoice",
        locale: "en-gb",
        tags: "batch 7",
        workflowId: "prediction",
        workflowOptions: "{}",
      },
      selection: { fieldSets: ["invoice"] },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await upload(server, token, uploadForm(pdf, c.fields, { fileFirst: c.fileFirst }));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "RECEIVED");
      assert.match(String(res.body.fileId), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(String(res.body.uploadedAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(await fieldNames(String(res.body.fileId)), expected(c.selection));
    });
  }

  test("the path without the trailing slash works", async () => {
    const res = await requestJson(`${server.url}/fileupload`, {
      method: "POST",
      token,
      body: uploadForm(pdf, { fieldSet: "invoice" }),
    });
    assert.equal(res.status, 200);
  });

  test("JSON upload with base64, lists as arrays or strings, options as an object", async () => {
    const base64 = Buffer.from(pdf).toString("base64");
    const bodies = [
      { fileToUpload: base64, fileName: "a.pdf", products: ["invoices"], locale: "de-DE", workflowOptions: {} },
      { fileToUpload: `data:application/pdf;base64,${base64}`, fieldSets: "invoice,payment", tags: "x" },
      { fileToUpload: base64, fieldSet: "invoice" },
    ];
    const selections: Selection[] = [
      { products: ["invoices"] },
      { fieldSets: ["invoice", "payment"] },
      { fieldSets: ["invoice"] },
    ];
    for (const [i, body] of bodies.entries()) {
      const res = await requestJson(`${server.url}/fileupload/json`, {
        method: "POST",
        token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(await fieldNames(String(res.body.fileId)), expected(selections[i] ?? {}));
    }
  });
});

describe("upload errors store nothing", () => {
  const badForms: { name: string; fields: Record<string, string | string[]>; pattern: RegExp }[] = [
    { name: "none of products, fieldSets, fieldSet", fields: {}, pattern: /exactly one of/ },
    {
      name: "two of them",
      fields: { products: "invoices", fieldSet: "invoice" },
      pattern: /not products and fieldSet/,
    },
    { name: "an unknown product", fields: { products: "nope" }, pattern: /Unknown product "nope"/ },
    { name: "an unknown field set", fields: { fieldSets: '["invoice","zzz"]' }, pattern: /field set "zzz"/ },
    { name: "a broken JSON list", fields: { products: '["invoices"' }, pattern: /not a valid JSON array/ },
    { name: "fieldSet given twice", fields: { fieldSet: ["invoice", "payment"] }, pattern: /given 2 times/ },
    { name: "a locale that is not BCP 47", fields: { fieldSet: "invoice", locale: "de_DE!" }, pattern: /BCP 47/ },
    { name: "tags over 256 characters", fields: { fieldSet: "invoice", tags: "t".repeat(257) }, pattern: /256/ },
    {
      name: "workflowOptions not an object",
      fields: { fieldSet: "invoice", workflowOptions: "[1]" },
      pattern: /object/,
    },
    {
      name: "workflowOptions not JSON",
      fields: { fieldSet: "invoice", workflowOptions: "{x" },
      pattern: /not valid JSON/,
    },
    {
      name: "split without a child workflow",
      fields: { fieldSet: "invoice", workflowId: "split" },
      pattern: /childWorkflowId/,
    },
    {
      name: "validate without conditions",
      fields: { fieldSet: "invoice", workflowId: "validate" },
      pattern: /conditions/,
    },
    {
      name: "an unknown workflow",
      fields: { fieldSet: "invoice", workflowId: "magic" },
      pattern: /Unknown workflowId/,
    },
  ];
  for (const c of badForms) {
    test(`400 bad_request: ${c.name}`, async () => {
      const before = await blobCount();
      const res = await upload(server, token, uploadForm(pdf, c.fields));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, "bad_request");
      assert.match(String(res.body.message), c.pattern);
      assert.equal(await blobCount(), before);
    });
  }

  test("400 for a file under another name and for two files", async () => {
    const misnamed = new FormData();
    misnamed.append("fieldSet", "invoice");
    misnamed.append("document", new Blob([pdf]), "a.pdf");
    const res = await upload(server, token, misnamed);
    assert.equal(res.status, 400);
    assert.match(String(res.body.message), /fileToUpload/);
    const two = uploadForm(pdf, { fieldSet: "invoice" });
    two.append("fileToUpload", new Blob([pdf]), "b.pdf");
    const twice = await upload(server, token, two);
    assert.equal(twice.status, 400);
    assert.match(String(twice.body.message), /exactly one file/);
  });

  test("400 when the form has no file", async () => {
    const form = new FormData();
    form.append("fieldSet", "invoice");
    const res = await upload(server, token, form);
    assert.equal(res.status, 400);
    assert.match(String(res.body.message), /no file/);
  });

  test("400 empty_file, 415 unsupported_type, 422 corrupt_file and too_many_pages by content", async () => {
    const before = await blobCount();
    const cases: [Uint8Array, number, string][] = [
      [new Uint8Array(0), 400, "empty_file"],
      [new TextEncoder().encode("just some text, not a document"), 415, "unsupported_type"],
      [new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref"), 422, "corrupt_file"],
      [await invoicePdf({ number: "X", date: "2024-01-01", total: "1.00", pages: 17 }), 422, "too_many_pages"],
    ];
    for (const [bytes, status, code] of cases) {
      const res = await upload(server, token, uploadForm(bytes, { fieldSet: "invoice" }));
      assert.equal(res.status, status, `${code}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, code);
    }
    assert.equal(await blobCount(), before);
  });

  test("422 image_too_large for a PNG declaring a decompression-bomb size", async () => {
    const ihdr = Buffer.alloc(17);
    ihdr.write("IHDR", 0, "latin1");
    ihdr.writeUInt32BE(50_000, 4);
    ihdr.writeUInt32BE(50_000, 8);
    ihdr.writeUInt8(8, 12); // bit depth; colour type 0 (grey), default compression, filter, interlace
    const chunk = Buffer.concat([Buffer.from([0, 0, 0, 13]), ihdr, Buffer.alloc(4)]);
    chunk.writeUInt32BE(crc32(ihdr), 21);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk]);
    const res = await upload(server, token, uploadForm(png, { fieldSet: "invoice" }, { fileName: "bomb.png" }));
    assert.equal(res.status, 422);
    assert.equal(res.body.error, "image_too_large");
  });

  test("422 encrypted_pdf for a password-protected PDF (encrypted with qpdf)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "docsift-enc-"));
    try {
      await writeFile(join(dir, "in.pdf"), pdf);
      execFileSync("qpdf", [
        "--encrypt",
        "user-pw",
        "owner-pw",
        "256",
        "--",
        join(dir, "in.pdf"),
        join(dir, "out.pdf"),
      ]);
      const res = await upload(
        server,
        token,
        uploadForm(await readFile(join(dir, "out.pdf")), { fieldSet: "invoice" }),
      );
      assert.equal(res.status, 422);
      assert.equal(res.body.error, "encrypted_pdf");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("413 file_too_large: a multipart file is cut at 20 MiB; a JSON body over its limit likewise", async () => {
    const before = await blobCount();
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(pdf.subarray(0, 1024));
    const res = await upload(server, token, uploadForm(big, { fieldSet: "invoice" }));
    assert.equal(res.status, 413);
    assert.equal(res.body.error, "file_too_large");
    const json = await requestJson(`${server.url}/fileupload/json`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fileToUpload: Buffer.from(big).toString("base64"), fieldSet: "invoice" }),
    });
    assert.equal(json.status, 413);
    assert.equal(json.body.error, "file_too_large");
    assert.equal(await blobCount(), before);
  });

  test("JSON upload: invalid base64 and wrong content type", async () => {
    const bad = await requestJson(`${server.url}/fileupload/json`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fileToUpload: "***not base64***", fieldSet: "invoice" }),
    });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.message), /base64/);
    const wrongType = await requestJson(`${server.url}/fileupload/`, {
      method: "POST",
      token,
      headers: { "content-type": "text/plain" },
      body: "hello",
    });
    assert.equal(wrongType.status, 415);
    assert.equal(wrongType.body.error, "unsupported_type");
  });
});
