/**
 * Upload forms at their edges, over real HTTP: a multipart Content-Type without its boundary, form fields up to and
 * past their bound (named in the answer, never silently cut), and a JSON upload whose file is not a string.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MAX_FORM_FIELD_BYTES } from "../../src/api/upload-params.js";
import { invoicePdf, requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

let server: TestServer;
let token: string;
let pdf: Uint8Array;

before(async () => {
  server = await startTestServer({ workers: 1 });
  token = await server.token();
  pdf = await invoicePdf({ number: "LIM-1", date: "2024-03-04", total: "10.00" });
});
after(() => server.stop());

/** Valid validate options of at least `bytes` bytes: the same condition repeated. */
function validateOptions(bytes: number): string {
  const condition = { type: "field-confidence-range", field: "invoice.total", min: 0, max: 1 };
  const count = Math.ceil(bytes / JSON.stringify(condition).length);
  return JSON.stringify({ prediction: { fieldset: "invoice", conditions: Array(count).fill(condition) } });
}

describe("multipart Content-Type", () => {
  test("multipart/form-data without a boundary is 400 bad_request naming the boundary", async () => {
    const res = await requestJson(`${server.url}/fileupload/`, {
      method: "POST",
      token,
      headers: { "content-type": "multipart/form-data" },
      body: "--x\r\nContent-Disposition: form-data; name=fieldSet\r\n\r\ninvoice\r\n--x--\r\n",
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, "bad_request");
    assert.match(String(res.body.message), /boundary/);
  });
});

describe("form field bounds", () => {
  test("a valid 100 KB workflowOptions is accepted whole, in a form and in JSON", async () => {
    const options = validateOptions(100_000);
    assert.ok(options.length > 100_000 && options.length < MAX_FORM_FIELD_BYTES);
    const form = await upload(
      server,
      token,
      uploadForm(pdf, { fieldSet: "invoice", workflowId: "validate", workflowOptions: options }),
    );
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const json = await requestJson(`${server.url}/fileupload/json`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        fileToUpload: Buffer.from(pdf).toString("base64"),
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: JSON.parse(options),
      }),
    });
    assert.equal(json.status, 200, JSON.stringify(json.body));
  });

  test("a form field past the bound is 413 naming it, not a cut value", async () => {
    const res = await upload(
      server,
      token,
      uploadForm(pdf, {
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: validateOptions(MAX_FORM_FIELD_BYTES + 1),
      }),
    );
    assert.equal(res.status, 413, JSON.stringify(res.body));
    assert.equal(res.body.error, "file_too_large");
    assert.match(String(res.body.message), /workflowOptions/);
    assert.doesNotMatch(String(res.body.message), /not valid JSON/);
  });

  test("a JSON upload's parameter past the same bound is 413 naming it", async () => {
    const res = await requestJson(`${server.url}/fileupload/json`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        fileToUpload: Buffer.from(pdf).toString("base64"),
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: JSON.parse(validateOptions(MAX_FORM_FIELD_BYTES + 1)),
      }),
    });
    assert.equal(res.status, 413, JSON.stringify(res.body));
    assert.match(String(res.body.message), /workflowOptions/);
  });
});

describe("JSON upload", () => {
  for (const [what, value] of [
    ["a number", 12345],
    ["true", true],
    ["an array", [Buffer.from("%PDF-1.4").toString("base64")]],
    ["an object", { data: "JVBERi0=" }],
  ] as const) {
    test(`fileToUpload as ${what} is 400 bad_request naming it`, async () => {
      const res = await requestJson(`${server.url}/fileupload/json`, {
        method: "POST",
        token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fileToUpload: value, fieldSet: "invoice" }),
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error, "bad_request");
      assert.match(String(res.body.message), /fileToUpload/);
    });
  }
});
