import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { getToken, requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";
import { invoiceBundle, THREE_INVOICES } from "../unit/split-invoices.js";

interface ChildRef {
  file_id: string;
  pages?: { from: number; to: number };
}

interface ResultBody {
  fileId: string;
  status: string;
  results?: { timestamp?: string; fields: { name: string; value: unknown; confidence?: number }[] };
  error?: { error: string; message: string };
}

let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer({ workers: 2 });
  token = await server.token();
});
after(() => server.stop());

async function blobCount(): Promise<number> {
  const root = join(server.dataDir, "blobs");
  const dirs = await readdir(root).catch(() => [] as string[]);
  let n = 0;
  for (const d of dirs) n += (await readdir(join(root, d))).length;
  return n;
}

const result = (fileId: string, as = token) =>
  requestJson<ResultBody>(`${server.url}/result/final/${fileId}`, { token: as });

const SPLIT = {
  fieldSet: "invoice",
  workflowId: "split",
  childWorkflowId: "prediction",
  workflowOptions: JSON.stringify({
    prediction: { childWorkflow: "prediction", childWorkflowOptions: { prediction: { fieldSets: ["invoice"] } } },
  }),
};

async function splitChildren(bytes: Uint8Array, fileName = "bundle.pdf"): Promise<ChildRef[]> {
  const receipt = await upload(server, token, uploadForm(bytes, SPLIT, { fileName }));
  assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
  const parent = await result(String(receipt.body.fileId));
  assert.equal(parent.body.status, "FINALISED", JSON.stringify(parent.body));
  const results = parent.body.results;
  assert.ok(results);
  assert.equal(results.timestamp, undefined, "a split parent's result has no timestamp");
  assert.equal(results.fields.length, 1);
  const [field] = results.fields;
  assert.equal(field?.name, "components.children");
  assert.equal(field?.confidence, undefined);
  assert.ok(Array.isArray(field?.value));
  return field.value as ChildRef[];
}

const fileName = async (fileId: string): Promise<string | null> =>
  (await requestJson<{ fileName: string | null }>(`${server.url}/files/${fileId}`, { token })).body.fileName;

const fieldValue = (body: ResultBody, name: string): unknown =>
  body.results?.fields.find((f) => f.name === name)?.value;

describe("split workflow", () => {
  test("three invoices of 2, 1 and 3 pages become three children with their own pages, files and fields", async () => {
    const children = await splitChildren(await invoiceBundle(THREE_INVOICES));
    assert.deepEqual(
      children.map((c) => c.pages),
      [
        { from: 1, to: 2 },
        { from: 3, to: 3 },
        { from: 4, to: 6 },
      ],
    );
    assert.equal(new Set(children.map((c) => c.file_id)).size, 3);
    const finals = await Promise.all(children.map((c) => result(c.file_id)));
    finals.forEach((child, i) => {
      assert.equal(child.body.status, "FINALISED", JSON.stringify(child.body));
      assert.equal(child.body.fileId, children[i]?.file_id);
      assert.ok(child.body.results?.timestamp, "a child's result is a normal result");
      assert.equal(fieldValue(child.body, "invoice.number"), THREE_INVOICES[i]?.number);
      assert.equal(fieldValue(child.body, "invoice.date"), THREE_INVOICES[i]?.date.split(".").reverse().join("-"));
    });
    assert.deepEqual(await Promise.all(children.map((c) => fileName(c.file_id))), [
      "bundle-part1.pdf",
      "bundle-part2.pdf",
      "bundle-part3.pdf",
    ]);
    // Each child's stored file is a real PDF of its own pages.
    const third = children[2];
    assert.ok(third);
    const page3 = await fetch(`${server.url}/result/image/${third.file_id}?page=3`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(page3.status, 200);
    assert.equal(page3.headers.get("content-type"), "image/png");
    const page4 = await requestJson(`${server.url}/result/image/${third.file_id}?page=4`, { token });
    assert.equal(page4.status, 404);
  });

  test("a single document yields one child with all its pages", async () => {
    const [, , third] = THREE_INVOICES;
    assert.ok(third);
    const children = await splitChildren(await invoiceBundle([third]));
    assert.deepEqual(
      children.map((c) => c.pages),
      [{ from: 1, to: 3 }],
    );
    const child = await result(children[0]?.file_id ?? "");
    assert.equal(fieldValue(child.body, "invoice.number"), third.number);
  });

  test("an image upload yields one child", async () => {
    const [, second] = THREE_INVOICES;
    assert.ok(second);
    const jpeg = await scanAsJpeg(await invoiceBundle([second]), 1, 200);
    const children = await splitChildren(new Uint8Array(jpeg), "scan.jpg");
    assert.equal(children.length, 1);
    assert.deepEqual(children[0]?.pages, { from: 1, to: 1 });
    assert.equal(await fileName(children[0]?.file_id ?? ""), "scan.jpg", "the image itself keeps its name");
    const child = await result(children[0]?.file_id ?? "");
    assert.equal(child.body.status, "FINALISED", JSON.stringify(child.body));
    assert.equal(fieldValue(child.body, "invoice.number"), second.number);
  });

  test("children belong to the parent's tenant: another tenant gets 404", async () => {
    const children = await splitChildren(await invoiceBundle(THREE_INVOICES.slice(0, 2)));
    assert.equal(children.length, 2);
    const stranger = await server.newClient({ name: "split-stranger" });
    const theirs = await getToken(server.url, stranger.clientId, stranger.clientSecret);
    for (const c of children) {
      const res = await result(c.file_id, theirs);
      assert.equal(res.status, 404);
      assert.equal((res.body as unknown as { error: string }).error, "not_found");
    }
  });

  test("child options: the childWorkflowOptions parameter wins over the nested ones", async () => {
    const form = uploadForm(await invoiceBundle(THREE_INVOICES.slice(1, 2)), {
      ...SPLIT,
      childWorkflowOptions: JSON.stringify({ prediction: { fieldSets: ["payment"] } }),
    });
    const receipt = await upload(server, token, form);
    assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
    const parent = await result(String(receipt.body.fileId));
    const [ref] = (parent.body.results?.fields[0]?.value ?? []) as ChildRef[];
    const child = await result(ref?.file_id ?? "");
    const names = child.body.results?.fields.map((f) => f.name) ?? [];
    assert.ok(names.length > 0 && names.every((n) => n.startsWith("payment.")), names.join(","));
  });

  const badForms: { name: string; fields: Record<string, string>; pattern: RegExp }[] = [
    { name: "no child workflow", fields: { fieldSet: "invoice", workflowId: "split" }, pattern: /childWorkflowId/ },
    {
      name: "contradictory child workflows",
      fields: {
        fieldSet: "invoice",
        workflowId: "split",
        childWorkflowId: "prediction",
        workflowOptions: JSON.stringify({ prediction: { childWorkflow: "ocr" } }),
      },
      pattern: /childWorkflow/,
    },
    {
      name: "validate as child workflow without conditions",
      fields: { fieldSet: "invoice", workflowId: "split", childWorkflowId: "validate" },
      pattern: /conditions/,
    },
    {
      name: "child options with both fieldSets and products",
      fields: {
        ...SPLIT,
        childWorkflowOptions: JSON.stringify({ prediction: { fieldSets: ["invoice"], products: ["invoices"] } }),
      },
      pattern: /both fieldSets and products/,
    },
    {
      name: "an unknown child field set",
      fields: { ...SPLIT, childWorkflowOptions: JSON.stringify({ prediction: { fieldSets: ["zzz"] } }) },
      pattern: /zzz/,
    },
  ];
  for (const c of badForms) {
    test(`400 before storing: ${c.name}`, async () => {
      const bytes = await invoiceBundle(THREE_INVOICES.slice(1, 2));
      const before = await blobCount();
      const res = await upload(server, token, uploadForm(bytes, c.fields));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(await blobCount(), before, "nothing stored");
      assert.equal(res.body.error, "bad_request");
      assert.match(String(res.body.message), c.pattern);
    });
  }
});
