/**
 * The customer of an invoice: a short section label that ends on a colon ("To:", "Aan:") opens the customer's block
 * even with other labels on its row, and without any label the address window never starts on a line of the
 * sender's own block (its city or country under the street). Documents are generated here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import type { Document } from "../../src/document/model.js";
import { extract } from "../../src/extract/index.js";
import { textDocument } from "../helpers/receipt-document.js";

type Row = Array<[string, number]>;

function customerField(document: Document, name = "customer.name"): string | null {
  const field = extract(document, resolveFields({ products: ["invoices"] })).find((f) => f.name === name);
  return typeof field?.value === "string" ? field.value : null;
}

/** A sender block at the top left, `middle` rows under it, then a table and totals, padded to 30 rows. */
function invoice(sender: Row[], middle: Row[]): Document {
  const rows: Row[] = [
    ...sender,
    [],
    ...middle,
    [],
    [
      ["Description", 20],
      ["Qty", 300],
      ["Amount", 480],
    ],
    [
      ["Consulting", 20],
      ["2", 300],
      ["200.00", 480],
    ],
    [],
    [
      ["Total", 300],
      ["200.00", 480],
    ],
  ];
  while (rows.length < 30) rows.push([]);
  return textDocument(rows, 600);
}

const SENDER: Row[] = [
  [
    ["Kingsley Supplies LLP", 20],
    ["Invoice", 480],
  ],
  [["194 Church Lane", 20]],
  [["Manchester", 20]],
  [["LC2 9GG", 20]],
];

describe("customer section labels ending on a colon", () => {
  it("reads the block under 'To:' sharing its row with another label", () => {
    const document = invoice(SENDER, [
      [
        ["To:", 20],
        ["Invoice No.", 280],
      ],
      [
        ["Redbrick Logistics LLP", 20],
        ["2021-14398", 280],
      ],
      [
        ["86 Church Lane", 20],
        ["Invoice date:", 280],
      ],
      [
        ["Leeds", 20],
        ["10/2/2021", 280],
      ],
      [
        ["HF15 5GE", 20],
        ["Due", 280],
      ],
      [["20/2/2021", 280]],
    ]);
    assert.equal(customerField(document), "Redbrick Logistics LLP");
    assert.equal(customerField(document, "customer.address"), "86 Church Lane, Leeds, HF15 5GE");
  });

  it("reads the block under 'Adresse du Client' beside the seller's own block", () => {
    const rows: Row[] = [
      [
        ["FACTURE N° :", 300],
        ["F20180027", 460],
      ],
      [["Date :", 300]],
      [
        ["LE FOURNISSEUR", 50],
        ["Adresse du Client", 300],
      ],
      [["35 rue d'ici", 50]],
      [
        ["75018 PARIS, FR", 50],
        ["LE CLIENT", 306],
      ],
      [["58 rue de la mer", 306]],
      [["06000 NICE, FR", 306]],
    ];
    assert.equal(customerField(invoice([], rows)), "LE CLIENT");
  });

  it("reads the Dutch 'Aan:' as a customer label, not as the customer's name", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Aan:", 20],
          ["Datum factuur: 07/08/2025", 380],
        ],
        [["Daan Bakker", 20]],
        [["Dorpsstraat 101", 20]],
        [["1853 VI Rotterdam", 20]],
      ]),
    );
    assert.equal(got, "Daan Bakker");
  });
});

describe("the address window without a label", () => {
  it("does not start on the sender's city line", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Oakwood Digital PLC", 20],
          ["Invoice no: INV-2023-95869", 380],
        ],
        [["4 Victoria Road", 20]],
        [["Bristol", 20]],
        [["RY6 4EO", 20]],
      ]),
    );
    assert.equal(got, "Oakwood Digital PLC");
  });

  it("ends the window's column where a column of labelled facts starts beside its first line", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Muster GmbH", 60],
          ["Rechnungsnummer:", 250],
          ["2015738820", 400],
        ],
        [
          ["Musterweg 1", 60],
          ["Seite:", 250],
          ["1", 400],
        ],
        [
          ["60325 Frankfurt am Main", 60],
          ["von Seiten:", 250],
          ["1", 400],
        ],
      ]),
    );
    assert.equal(got, "Muster GmbH");
  });

  it("keeps a person's surname a text layer prints, however close to a heading word it is spelt", () => {
    const got = customerField(
      invoice(SENDER, [
        [
          ["Daan Meijer", 20],
          ["Factuurnummer: UG207114", 380],
        ],
        [["Marktplein 273", 20]],
        [["9091 IQ Utrecht", 20]],
      ]),
    );
    assert.equal(got, "Daan Meijer");
  });
});

describe("the address window on the right", () => {
  const rightBlock: Row[] = [
    [["Securibox SARL", 330]],
    [["27, Rue de Bassano", 330]],
    [["75008 Paris", 330]],
    [["France", 330]],
  ];

  it("is the customer when the left holds no window (French letters)", () => {
    assert.equal(customerField(invoice(SENDER, rightBlock)), "Securibox SARL");
  });

  it("leaves the supplier at the top right, its Spanish legal form (S.L.U.) as much a company's as S.A.", () => {
    const rows: Row[] = [
      [
        ["Factura", 20],
        ["Suministros Levante S.L.U.", 380],
      ],
      [["Avenida de la Constitución 167", 380]],
      [["28013 Madrid", 380]],
      [],
      [["Suministros del Sur S.A.", 330]],
      [["Calle Real 22", 330]],
      [["28013 Madrid", 330]],
    ];
    const document = invoice([], rows);
    assert.equal(customerField(document, "supplier.name"), "Suministros Levante S.L.U.");
    assert.equal(customerField(document), "Suministros del Sur S.A.");
  });

  it("wins over a heading and table rows on the left, which are no address window", () => {
    const rows: Row[] = [
      ...SENDER,
      [],
      ...rightBlock,
      [],
      [["Amounts shown in EUR", 20]],
      [],
      [
        ["Description", 20],
        ["Qty", 300],
        ["Price", 400],
        ["Amount", 480],
      ],
      [
        ["Licence 2024", 20],
        ["1", 300],
        ["200.00", 400],
        ["200.00", 480],
      ],
      [
        ["Support hours", 20],
        ["2", 300],
        ["50.00", 400],
        ["100.00", 480],
      ],
      [],
      [
        ["Total", 300],
        ["300.00", 480],
      ],
    ];
    while (rows.length < 30) rows.push([]);
    assert.equal(customerField(textDocument(rows, 600)), "Securibox SARL");
  });
});
