/**
 * The seller named in two places that disagree: the header's block (under a logo's placeholder and a name caption)
 * and a legal line in the footer naming another company. The one printed with the seller's VAT id is the seller.
 * Documents are generated here (a text layer of rows), not taken from any corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { type ReceiptRow, textDocument } from "../helpers/receipt-document.js";

/** An invoice page: the seller's block top left, the customer's top right, totals, and a two-row legal footer. */
function invoice(header: ReceiptRow[], footer: ReceiptRow[]): Map<string, string | null> {
  const rows: ReceiptRow[] = [
    ...header,
    [],
    [
      ["Désignation", 40],
      ["Montant", 600],
    ],
    [
      ["Maintenance annuelle", 40],
      ["100,00", 600],
    ],
    [],
    [
      ["TOTAL HT", 480],
      ["100,00", 600],
    ],
    [
      ["TVA 20 %", 480],
      ["20,00", 600],
    ],
    [
      ["TOTAL TTC", 480],
      ["120,00", 600],
    ],
    ...Array.from({ length: 14 }, (): ReceiptRow => []),
    ...footer,
  ];
  return invoiceFields(textDocument(rows, 720));
}

const otherCompanyFooter: ReceiptRow[] = [
  [["Groupe Exemple SARL au capital de 50 000 EUR - RCS Lyon 812 345 678", 120]],
  [["12 place Bellecour 69002 Lyon - N° TVA : FR 32 123 456 789", 120]],
];

/** The seller's block top left without identifiers, the invoice's facts and the customer's label top right. */
const plainSeller: ReceiptRow[] = [
  [
    ["Atelier Dupont", 40],
    ["FACTURE N° : F2024-118", 420],
  ],
  [
    ["8 rue des Lilas", 40],
    ["Date : 15/03/2024", 420],
  ],
  [
    ["75011 PARIS", 40],
    ["CLIENT :", 420],
  ],
];

describe("a header block and a legal line naming different companies", () => {
  it("takes the block holding the seller's VAT id, past a logo's placeholder and a name caption", () => {
    const got = invoice(
      [
        [
          ["LOGO", 40],
          ["FACTURE N° : F2024-118", 420],
        ],
        [
          ["COMPANY NAME", 40],
          ["Date : 15/03/2024", 420],
        ],
        [
          ["Atelier Dupont", 40],
          ["CLIENT :", 420],
        ],
        [
          ["8 rue des Lilas", 40],
          ["Boulangerie Martin", 420],
        ],
        [
          ["75011 PARIS", 40],
          ["3 avenue Foch", 420],
        ],
        [
          ["SIREN : 303 265 045", 40],
          ["06000 NICE", 420],
        ],
        [["N° TVA intra : FR 40 303 265 045", 40]],
      ],
      otherCompanyFooter,
    );
    assert.equal(got.get("supplier.taxId"), "FR40303265045");
    assert.equal(got.get("supplier.name"), "Atelier Dupont");
    assert.equal(got.get("customer.name"), "Boulangerie Martin");
  });

  it("keeps the legal line when it is the one printed with the seller's VAT id", () => {
    const got = invoice([...plainSeller, [["Boulangerie Martin", 420]], [["06000 NICE", 420]]], otherCompanyFooter);
    assert.equal(got.get("supplier.taxId"), "FR32123456789");
    assert.equal(got.get("supplier.name"), "Groupe Exemple SARL");
  });
});

describe("lines over the customer's name that are not its name", () => {
  for (const over of ["Accounts Payable", "Purchasing Department", "Buyer contact name"]) {
    it(`skips '${over}' over the company billed`, () => {
      const got = invoice(
        [...plainSeller, [[over, 420]], [["Boulangerie Martin", 420]], [["3 avenue Foch", 420]], [["06000 NICE", 420]]],
        [],
      );
      assert.equal(got.get("customer.name"), "Boulangerie Martin");
      assert.equal(got.get("customer.address"), "3 avenue Foch, 06000 NICE");
    });
  }

  it("skips any line over a company printed whole with its legal form ('Service comptabilité' over 'Groupe Dupont SAS')", () => {
    const got = invoice(
      [
        ...plainSeller,
        [["Service comptabilité", 420]],
        [["Groupe Dupont SAS", 420]],
        [["3 avenue Foch", 420]],
        [["06000 NICE", 420]],
      ],
      [],
    );
    assert.equal(got.get("customer.name"), "Groupe Dupont SAS");
  });
});

describe("an Australian address under a person's name", () => {
  it("reads 'Adelaide SA 5000' as a town, state and postcode, not a company", () => {
    const got = invoice(
      [
        [["Noah Martin", 40]],
        [["161 Bourke St", 40]],
        [
          ["Adelaide SA 5000", 40],
          ["Tax Invoice", 480],
        ],
        [
          ["To:", 40],
          ["Invoice no: 920177", 420],
        ],
        [
          ["Banksia Electrical Pty Ltd", 40],
          ["Invoice Date: 03-07-2021", 420],
        ],
        [["208 Collins St", 40]],
        [["Perth WA 6000", 40]],
      ],
      [[["Noah Martin", 40]], [["161 Bourke St", 40]], [["Adelaide SA 5000", 40]]],
    );
    assert.equal(got.get("supplier.name"), "Noah Martin");
    assert.equal(got.get("customer.name"), "Banksia Electrical Pty Ltd");
  });
});
