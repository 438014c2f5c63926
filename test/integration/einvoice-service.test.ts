/**
 * E-invoices over real HTTP on a real server: Factur-X PDFs generated with pdf-lib go through POST /fileupload and
 * come back from GET /result/final/:fileId with the XML's values (confidence 1, `source: "einvoice"`, boxed where the
 * page prints them), `einvoice_mismatch` / `einvoice_invalid` warnings, the `einvoice-consistent` validate condition,
 * and page extraction for the children of a split e-invoice bundle.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  ciiXml,
  einvoiceBundle,
  einvoicePdf,
  FACTS,
  INVOICE_PAGE,
  type InvoiceFacts,
  invoicePage,
  ublXml,
} from "../helpers/einvoice-fixtures.js";
import { requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

interface Field {
  name: string;
  value: unknown;
  confidence?: number;
  boundingBox: { pageNum: number; tokenIds: number[] } | null;
  source?: string;
  reviewed?: boolean;
}
interface LineItemRow {
  description: string | null;
  quantity: string | null;
  unit: string | null;
  unitPrice: string | null;
  amount: string | null;
  taxRate: string | null;
  productCode: string | null;
  confidence: number;
  boundingBoxes: { cell: string; pageNum: number; tokenIds: number[] }[];
}
interface Warning {
  code: string;
  page: number | null;
  message: string;
  field?: string;
}
interface ResultBody {
  fileId: string;
  status: string;
  results?: { fields: Field[]; warnings?: Warning[] };
  error?: { error: string; message: string };
}
interface Task {
  id: string;
  fileId: string;
  status: string;
  breaches: { field: string; condition: { type: string }; value: string | null }[];
}

let server: TestServer;
let token: string;

before(async () => {
  server = await startTestServer({ workers: 2, resultWaitMs: 20_000 });
  token = await server.token();
});
after(() => server.stop());

const result = (fileId: string, query = "") =>
  requestJson<ResultBody>(`${server.url}/result/final/${fileId}${query}`, { token });
const tasks = (query = "") => requestJson<{ tasks: Task[] }>(`${server.url}/validate/tasks${query}`, { token });

const BOTH = { fieldSets: ["invoice", "parties"] };

async function uploadPdf(bytes: Uint8Array, form: Record<string, string | string[]> = BOTH): Promise<string> {
  const res = await upload(server, token, uploadForm(bytes, form));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return String(res.body.fileId);
}

/** The FINALISED result of a file (the long poll waits for it). */
async function finalised(fileId: string): Promise<{ fields: Field[]; warnings: Warning[] }> {
  const res = await result(fileId);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.status, "FINALISED", JSON.stringify(res.body));
  return { fields: res.body.results?.fields ?? [], warnings: res.body.results?.warnings ?? [] };
}

function field(fields: readonly Field[], name: string): Field {
  const f = fields.find((x) => x.name === name);
  assert.ok(f, `${name} in ${JSON.stringify(fields.map((x) => x.name))}`);
  return f;
}

/** The XML's grand total disagrees with the page's 1.234,56 (the amount due, left as printed, agrees). */
const MISMATCH: InvoiceFacts = { ...FACTS, total: "1300.00", amountDue: FACTS.total };
const consistentForm = {
  ...BOTH,
  workflowId: "validate",
  workflowOptions: JSON.stringify({
    prediction: { fieldset: "invoice", conditions: [{ type: "einvoice-consistent" }] },
  }),
};

describe("e-invoices through the service", () => {
  test("a Factur-X PDF: the XML's values, confidence 1, source einvoice, boxed where the page prints them", async () => {
    const { fields, warnings } = await finalised(await uploadPdf(await einvoicePdf(INVOICE_PAGE, ciiXml(FACTS))));
    assert.deepEqual(warnings, []);
    const expected: [string, string, boolean][] = [
      ["invoice.number", "INV-2024-0042", true],
      ["invoice.date", "2024-03-15", true],
      ["invoice.dueDate", "2024-04-14", false],
      ["invoice.total", "1234.56", true],
      ["invoice.currency", "EUR", true],
      ["supplier.name", "ACME Supplies Limited", true],
      ["supplier.taxId", "DE123456789", true],
      ["customer.name", "Northwind Traders", true],
    ];
    for (const [name, value, printed] of expected) {
      const f = field(fields, name);
      assert.deepEqual([f.value, f.confidence, f.source], [value, 1, "einvoice"], name);
      if (printed) {
        assert.equal(f.boundingBox?.pageNum, 1, `${name} is printed on page 1`);
        assert.ok((f.boundingBox?.tokenIds.length ?? 0) > 0, `${name} is boxed on its words`);
      } else assert.equal(f.boundingBox, null, `${name} is not printed`);
    }
  });

  test("line items from the XML: source einvoice, confidence 1, cells boxed where the page prints them", async () => {
    const { fields, warnings } = await finalised(await uploadPdf(await einvoicePdf(INVOICE_PAGE, ciiXml(FACTS))));
    assert.deepEqual(warnings, []);
    const items = field(fields, "invoice.lineItems");
    assert.deepEqual([items.confidence, items.source, items.boundingBox?.pageNum], [1, "einvoice", 1]);
    const rows = items.value as LineItemRow[];
    assert.deepEqual(
      rows.map((r) => [
        r.description,
        r.quantity,
        r.unit,
        r.unitPrice,
        r.amount,
        r.taxRate,
        r.productCode,
        r.confidence,
      ]),
      [
        ["Office chairs", "4", "C62", "210.00", "840.00", "19.00", "CH-4", 1],
        ["Standing desk", "1", "C62", "197.44", "197.44", "19.00", null, 1],
      ],
    );
    // The page prints each description with its amount ("840,00") on its line, nothing else of the row.
    assert.deepEqual(
      rows.map((r) => r.boundingBoxes.map((b) => [b.cell, b.pageNum, b.tokenIds.length > 0])),
      [
        [
          ["description", 1, true],
          ["amount", 1, true],
        ],
        [
          ["description", 1, true],
          ["amount", 1, true],
        ],
      ],
    );
  });

  test("a UBL credit note: lines as the XML states them, totals negative as the catalogue gives credits", async () => {
    const { fields } = await finalised(await uploadPdf(await einvoicePdf(INVOICE_PAGE, ublXml(FACTS, "CreditNote"))));
    const rows = field(fields, "invoice.lineItems").value as LineItemRow[];
    assert.deepEqual(
      rows.map((r) => [r.description, r.quantity, r.unitPrice, r.amount]),
      [
        ["Office chairs", "4", "210.00", "840.00"],
        ["Standing desk", "1", "197.44", "197.44"],
      ],
    );
    assert.equal(field(fields, "invoice.total").value, "-1234.56");
  });

  test("an XML total the page contradicts: FINALISED with the XML's value and an einvoice_mismatch warning", async () => {
    const { fields, warnings } = await finalised(await uploadPdf(await einvoicePdf(INVOICE_PAGE, ciiXml(MISMATCH))));
    const total = field(fields, "invoice.total");
    assert.deepEqual([total.value, total.source, total.boundingBox], ["1300.00", "einvoice", null]);
    assert.deepEqual(
      warnings.map((w) => [w.code, w.field]),
      [["einvoice_mismatch", "invoice.total"]],
    );
    assert.match(warnings[0]?.message ?? "", /invoice\.total.*1234\.56.*1300\.00/);
  });

  test("einvoice-consistent: a mismatch opens a review task, resolving it finalises the file", async () => {
    const fileId = await uploadPdf(await einvoicePdf(INVOICE_PAGE, ciiXml(MISMATCH)), consistentForm);
    let task: Task | undefined;
    for (let i = 0; i < 300 && !task; i++) {
      task = (await tasks("?limit=200")).body.tasks.find((t) => t.fileId === fileId);
      if (task) continue;
      const waiting = await result(fileId, "?timeout=0");
      assert.ok(["RECEIVED", "IN PROGRESS"].includes(waiting.body.status), JSON.stringify(waiting.body));
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(task, "the mismatch opened a task");
    assert.equal(task.status, "open");
    assert.deepEqual(
      task.breaches.map((b) => [b.field, b.condition.type, b.value]),
      [["invoice.total", "einvoice-consistent", "1300.00"]],
    );
    assert.deepEqual((await result(fileId, "?timeout=300")).body, { fileId, status: "IN PROGRESS" });

    const resolved = await requestJson<{ status: string }>(`${server.url}/validate/tasks/${task.id}/resolve`, {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: [{ name: "invoice.total", value: "1234.56" }] }),
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const { fields, warnings } = await finalised(fileId);
    const total = field(fields, "invoice.total");
    assert.deepEqual([total.value, total.confidence, total.reviewed], ["1234.56", 1, true]);
    assert.deepEqual(
      warnings.map((w) => [w.code, w.field]),
      [["einvoice_mismatch", "invoice.total"]],
      "the warning says how the document was found, after the review too",
    );
    assert.equal(field(fields, "invoice.number").source, "einvoice", "unreviewed fields stay as read from the XML");
  });

  test("einvoice-consistent: a consistent e-invoice is FINALISED without a task", async () => {
    const fileId = await uploadPdf(await einvoicePdf(INVOICE_PAGE, ciiXml(FACTS)), consistentForm);
    const { fields, warnings } = await finalised(fileId);
    assert.deepEqual(warnings, []);
    assert.equal(field(fields, "invoice.total").source, "einvoice");
    const all = await tasks("?status=all&limit=200");
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.tasks.filter((t) => t.fileId === fileId).length, 0);
  });

  const REFUSED = /DTD or entities, which are refused/;
  for (const [label, xml, reason] of [
    ["a malformed XML", ciiXml(FACTS).slice(0, 500), /not well-formed/],
    [
      "a billion-laughs entity bomb",
      `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><r>&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</r>`,
      REFUSED,
    ],
    [
      "an external entity",
      ciiXml(FACTS)
        .replace("<rsm:", '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><rsm:')
        .replace("INV-2024-0042</ram:ID><ram:TypeCode>", "&e;</ram:ID><ram:TypeCode>"),
      REFUSED,
    ],
  ] as const) {
    test(`${label}: FINALISED from the page with einvoice_invalid, never FAILED`, async () => {
      const { fields, warnings } = await finalised(await uploadPdf(await einvoicePdf(INVOICE_PAGE, xml)));
      assert.deepEqual(
        warnings.map((w) => [w.code, w.page]),
        [["einvoice_invalid", null]],
      );
      assert.match(warnings[0]?.message ?? "", /factur-x\.xml/);
      assert.match(warnings[0]?.message ?? "", reason);
      assert.deepEqual(
        fields.filter((f) => f.source !== undefined).map((f) => f.name),
        [],
      );
      assert.equal(field(fields, "invoice.number").value, "INV-2024-0042", "read from the page");
      assert.ok(!JSON.stringify(fields).includes("root:"), "nothing of /etc/passwd reaches the result");
    });
  }
});

describe("split of an e-invoice bundle", () => {
  const SECOND: InvoiceFacts = {
    ...FACTS,
    number: "GX-5521-B",
    date: "20240228",
    seller: "Globex Corporation",
    sellerVat: "FR40303265045",
    buyer: "Contoso Retail",
  };
  // The XMLs state a total the pages do not print: a child reading its XML would say 999.99, its page 1234.56.
  const invoices = [FACTS, SECOND].map((f) => ({
    lines: invoicePage(f),
    xml: ciiXml({ ...f, total: "999.99", amountDue: f.total }),
  }));

  async function children(bytes: Uint8Array): Promise<{ fields: Field[]; warnings: Warning[] }[]> {
    const fileId = await uploadPdf(bytes, {
      fieldSet: "invoice",
      workflowId: "split",
      childWorkflowId: "prediction",
      childWorkflowOptions: JSON.stringify({ prediction: { fieldSets: ["invoice", "parties"] } }),
    });
    const parent = await result(fileId);
    assert.equal(parent.body.status, "FINALISED", JSON.stringify(parent.body));
    const refs = (parent.body.results?.fields[0]?.value ?? []) as { file_id: string }[];
    assert.equal(refs.length, 2, JSON.stringify(parent.body));
    return Promise.all(refs.map((r) => finalised(r.file_id)));
  }

  test("XMLs attached to the whole bundle: each child is read from its pages", async () => {
    const read = await children(await einvoiceBundle(invoices));
    for (const [i, child] of read.entries()) {
      assert.deepEqual(
        child.fields.filter((f) => f.source !== undefined).map((f) => f.name),
        [],
        `child ${i + 1} uses page extraction`,
      );
      assert.deepEqual(child.warnings, []);
      assert.equal(field(child.fields, "invoice.number").value, [FACTS, SECOND][i]?.number);
      assert.equal(field(child.fields, "invoice.total").value, "1234.56");
    }
  });

  test("XMLs attached by an annotation on their pages: each child reads its own XML", async () => {
    const read = await children(await einvoiceBundle(invoices, "annotation"));
    for (const [i, child] of read.entries()) {
      const number = field(child.fields, "invoice.number");
      assert.deepEqual([number.value, number.source], [[FACTS, SECOND][i]?.number, "einvoice"]);
      assert.equal(field(child.fields, "invoice.total").value, "999.99");
      assert.deepEqual(
        child.warnings.map((w) => [w.code, w.field]),
        [["einvoice_mismatch", "invoice.total"]],
      );
    }
  });
});
