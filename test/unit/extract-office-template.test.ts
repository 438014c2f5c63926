/**
 * Cues of invoices filled in from an office suite's template (bench/synth/render-html.ts, family "template"): a grand
 * figure labelled only "Balance due" under shipping and other charges, "Net 30" payment terms, a slogan under the
 * letterhead, a facts grid at another pitch than the letterhead beside it, column titles set so close they read as one
 * line, and a wrapped name beside a display-size title. Pages are generated here (text layers), not taken from any
 * corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document } from "../../src/document/model.js";
import { nearCustomerHeading } from "../../src/extract/labels.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { scannedDocument, textDocument } from "../helpers/receipt-document.js";

type Rows = ReadonlyArray<ReadonlyArray<[string, number]>>;

const HEADER: Rows = [
  [
    ["Blue Ridge Services Corp.", 20],
    ["INVOICE", 560],
  ],
  [
    ["4907 Market Street", 20],
    ["INVOICE NO. R1711558238", 520],
  ],
  [
    ["San Francisco, CA 94103", 20],
    ["DATE July 22, 2026", 520],
  ],
  [["BILL TO", 20]],
  [["Granite Services Inc.", 20]],
  [["5265 Congress Ave", 20]],
  [["Portland, OR 97204", 20]],
  [
    ["DESCRIPTION", 20],
    ["QTY", 400],
    ["AMOUNT", 640],
  ],
];

/** An invoice page: the header above, `items` as rows, then the totals as label/value rows of the right column. */
function invoice(items: Rows, totals: ReadonlyArray<[string, string]>, header: Rows = HEADER): Document {
  const rows: Rows = [
    ...header,
    ...items,
    ...totals.map(
      ([label, value]): Array<[string, number]> => [
        [label, 480],
        [value, 640],
      ],
    ),
  ];
  return textDocument(rows, 800);
}

const ITEM: Rows = [
  [
    ["Team plan (monthly)", 20],
    ["1", 400],
    ["100.00", 640],
  ],
];

describe("a grand figure labelled only as the balance due", () => {
  it("is the total when subtotal, tax and shipping add up to it", () => {
    const got = invoiceFields(
      invoice(ITEM, [
        ["Subtotal", "100.00"],
        ["Sales tax", "8.00"],
        ["Shipping & Handling", "12.50"],
        ["Other", "0.00"],
        ["BALANCE DUE", "120.50"],
      ]),
    );
    assert.equal(got.get("invoice.total"), "120.50");
    assert.equal(got.get("invoice.amountDue"), "120.50");
    assert.equal(got.get("invoice.subtotal"), "100.00");
  });

  it("is the total of an untaxed invoice, not the line's amount the subtotal repeats", () => {
    const got = invoiceFields(
      invoice(ITEM, [
        ["Subtotal", "100.00"],
        ["Tax", "0.00"],
        ["S&H", "6.00"],
        ["BALANCE DUE", "106.00"],
      ]),
    );
    assert.equal(got.get("invoice.total"), "106.00");
  });

  it("is not the total when a payment was taken off before it", () => {
    const got = invoiceFields(
      invoice(ITEM, [
        ["Subtotal", "100.00"],
        ["Tax", "8.00"],
        ["Total", "108.00"],
        ["Payments", "-20.00"],
        ["BALANCE DUE", "88.00"],
      ]),
    );
    assert.equal(got.get("invoice.total"), "108.00");
    assert.equal(got.get("invoice.amountDue"), "88.00");
  });

  it("reads the French 'Solde dû' as the amount due", () => {
    const got = invoiceFields(
      invoice(
        [
          [
            ["Renouvellement de domaine", 20],
            ["1", 400],
            ["20,00 €", 640],
          ],
        ],
        [
          ["Sous-total", "20,00 €"],
          ["TVA", "4,00 €"],
          ["Frais de port", "21,99 €"],
          ["SOLDE DÛ", "45,99 €"],
        ],
      ),
    );
    assert.equal(got.get("invoice.amountDue"), "45.99");
    assert.equal(got.get("invoice.total"), "45.99");
  });
});

describe("payment terms", () => {
  it("'Net 30' is no amount: the labelled subtotal stays when shipping comes after the tax", () => {
    const header: Rows = [
      ...HEADER.slice(0, 7),
      [
        ["SALESPERSON", 20],
        ["PAYMENT TERMS", 400],
      ],
      [
        ["Sophia Johnson", 20],
        ["Net 30", 400],
      ],
      HEADER[7] ?? [],
    ];
    const got = invoiceFields(
      invoice(
        [
          [
            ["Team plan (monthly)", 20],
            ["1", 400],
            ["4.00", 640],
          ],
        ],
        [
          ["Subtotal", "4.00"],
          ["SALES TAX", "0.29"],
          ["Shipping & Handling", "26.00"],
          ["Total", "30.29"],
        ],
        header,
      ),
    );
    assert.equal(got.get("invoice.subtotal"), "4.00");
  });
});

describe("the letterhead and its facts grid", () => {
  it("a slogan under the seller's name heads no block of the addressee's numbers", () => {
    const header: Rows = [
      [
        ["Conseil Rivière EURL", 20],
        ["FACTURE", 560],
      ],
      [["Your trusted partner", 20]],
      [
        ["88 bis rue de la Paix", 20],
        ["N° DE FACTURE RROP0530-8118", 480],
      ],
      [
        ["13001 Marseille", 20],
        ["DATE 19/09/2024", 480],
      ],
      [["info@conseilriviere.example", 20]],
      [["TVA intracommunautaire FR73915449516", 20]],
      [["FACTURER À", 20]],
      [["Groupe du Midi SA", 20]],
      [["2 rue de la Paix", 20]],
      [["13001 Marseille", 20]],
      [
        ["DESCRIPTION", 20],
        ["MONTANT", 640],
      ],
    ];
    const got = invoiceFields(invoice(ITEM, [["TOTAL", "100,00 €"]], header));
    assert.equal(got.get("supplier.taxId"), "FR73915449516");
  });

  it("reads a due date beside its label when rows put the label with the letterhead's line below", () => {
    const header: Rows = [
      [
        ["Sonnenschein Bau GmbH", 20],
        ["RECHNUNG", 560],
      ],
      [
        ["Hauptstraße 14", 20],
        ["DATUM 27.04.2024", 480],
      ],
      [["91784 Bremen", 20]],
      [
        ["Telefon: 502 615 8558", 20],
        ["FÄLLIG AM", 480],
        ["11.05.2024", 640],
      ],
      [["info@sonnenscheinbau.example", 20]],
      [["RECHNUNG AN", 20]],
      [["Marie Fischer", 20]],
      [["Am Markt 162a", 20]],
      [["35481 Frankfurt am Main", 20]],
      [
        ["BESCHREIBUNG", 20],
        ["BETRAG", 640],
      ],
    ];
    const document = invoice(ITEM, [["Gesamtbetrag", "100,00"]], header);
    const page = document.pages[0];
    assert.ok(page);
    // The grid's line a little lower than the phone number's: its value still overlaps that line more than half,
    // its label (lower by a pixel more) no longer does, and both stand nearly level with each other.
    const drop: Record<string, number> = { FÄLLIG: 7, AM: 7, "11.05.2024": 5 };
    for (const word of page.words) {
      const dy = (drop[word.text] ?? 0) / page.height;
      word.box.y0 += dy;
      word.box.y1 += dy;
    }
    assert.equal(invoiceFields(document).get("invoice.dueDate"), "2024-05-11");
  });

  it("reads a due date under its title in a row of titles set close together", () => {
    const header: Rows = [
      ...HEADER.slice(0, 7),
      [["SALESPERSON SHIP VIA PAYMENT TERMS DUE DATE", 20]],
      [
        ["Louis Thomas", 20],
        ["Pickup", 140],
        ["Net 30", 220],
        ["Aug 5, 2026", 324],
      ],
      HEADER[7] ?? [],
    ];
    const got = invoiceFields(invoice(ITEM, [["TOTAL", "100.00"]], header));
    assert.equal(got.get("invoice.dueDate"), "2026-08-05");
  });

  it("keeps a name wrapped beside a display-size title whole", () => {
    const header: Rows = [
      [
        ["Sonnenschein Software GmbH &", 20],
        ["RECHNUNG", 270],
      ],
      [["Co. KG", 20]],
      ...HEADER.slice(1, 8),
    ];
    const document = invoice(ITEM, [["Gesamtbetrag", "100,00"]], header);
    const page = document.pages[0];
    assert.ok(page);
    // The title in type twice the name's size, a few spaces right of the name's "&".
    for (const id of page.lines[0]?.wordIds ?? []) {
      const word = page.words[id];
      if (word?.text !== "RECHNUNG") continue;
      word.box.y0 -= 12 / page.height;
    }
    assert.equal(invoiceFields(document).get("supplier.name"), "Sonnenschein Software GmbH & Co. KG");
  });
});

describe("the bill-to block of a scan", () => {
  const rows = (heading: string): Rows => [
    [
      ["Wattle IT Services Pty Ltd", 20],
      ["INVOICE", 560],
    ],
    [["Your trusted partner", 20]],
    [
      ["206 King William Rd", 20],
      ["INVOICE # 2021730466", 480],
    ],
    [
      ["Sydney NSW 2000", 20],
      ["DATE 26-05-2021", 480],
    ],
    [["Tax ID 47806535137", 20]],
    [],
    [[heading, 20]],
    [["Pioneer Systems Inc.", 20]],
    [["86 Queen Street", 20]],
    [["Melbourne VIC 3000", 20]],
    [
      ["DESCRIPTION", 20],
      ["AMOUNT", 640],
    ],
    [
      ["Team plan (monthly)", 20],
      ["100.00", 640],
    ],
    [
      ["TOTAL", 480],
      ["100.00", 640],
    ],
  ];

  it("reads a heading OCR misread by a letter ('B IL TO') as the heading, not as the customer's name", () => {
    const got = invoiceFields(scannedDocument(rows("B IL TO"), 800));
    assert.equal(got.get("customer.name"), "Pioneer Systems Inc.");
  });

  it("takes no slogan between the seller's name and address for the customer when the heading is unreadable", () => {
    const got = invoiceFields(scannedDocument(rows("13} re)"), 800));
    assert.equal(got.get("customer.name"), "Pioneer Systems Inc.");
    assert.equal(got.get("supplier.name"), "Wattle IT Services Pty Ltd");
  });
});

describe("bill-to headings OCR misread", () => {
  it("takes a lost letter or an added speck for the heading, not a letter read as another", () => {
    assert.ok(nearCustomerHeading("bilto")?.some((e) => e.role === "customer"));
    assert.ok(nearCustomerHeading("billito")?.some((e) => e.role === "customer"));
    // "FACTURE o.": a title and a speck, one substitution off "Facturé à".
    assert.equal(nearCustomerHeading("factureo"), null);
  });
});

describe("accents OCR dropped from a name in display type", () => {
  const rows = (footer: string): Rows => [
    [
      ["Groupe Lefevre SA", 20],
      ["FACTURE", 560],
    ],
    [
      ["100 avenue Victor Hugo", 20],
      ["N° DE FACTURE F-2024-118", 480],
    ],
    [
      ["13001 Marseille", 20],
      ["DATE 12/03/2024", 480],
    ],
    [["FACTURER À", 20]],
    [["Transports Girard EURL", 20]],
    [["12 rue des Lilas", 20]],
    [["69003 Lyon", 20]],
    [
      ["DESCRIPTION", 20],
      ["MONTANT", 640],
    ],
    [
      ["Stockage 100 Go", 20],
      ["100,00 €", 640],
    ],
    [
      ["TOTAL", 480],
      ["100,00 €", 640],
    ],
    [[footer, 120]],
  ];

  it("takes them from a copy of the name the page prints in body type", () => {
    const got = invoiceFields(scannedDocument(rows("Chèques à l'ordre de Groupe Lefèvre SA"), 800));
    assert.equal(got.get("supplier.name"), "Groupe Lefèvre SA");
  });

  it("leaves the name as read when no copy prints accents", () => {
    const got = invoiceFields(scannedDocument(rows("Chèques à l'ordre de Groupe Lefevre SA"), 800));
    assert.equal(got.get("supplier.name"), "Groupe Lefevre SA");
  });
});
