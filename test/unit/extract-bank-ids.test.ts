/**
 * Bank identifiers and VAT ids on a page: an IBAN whose mod-97 check holds is read even where its national account key
 * does not (example accounts), and an unlabelled word of eight capitals beside it is a BIC only when it names the IBAN's
 * country ("PAIEMENT" reads as a BIC of Montenegro, "ME"); a VAT id OCR cut or printed without its country prefix.
 * Pages are built here, not taken from a corpus.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveFields } from "../../src/catalog/lookup.js";
import { extract } from "../../src/extract/index.js";
import { receipt, scannedDocument, textDocument } from "../helpers/receipt-document.js";

type Row = Array<[string, number]>;

function bankFields(paymentRows: Row[]): { iban: unknown; bic: unknown } {
  const rows: Row[] = [
    [
      ["LE FOURNISSEUR SARL", 20],
      ["FACTURE", 400],
    ],
    [["35 rue d'ici, 75018 Paris", 20]],
    [],
    [
      ["Total TTC", 300],
      ["110,00", 480],
    ],
    [],
    ...paymentRows,
  ];
  while (rows.length < 30) rows.push([]);
  const fields = extract(textDocument(rows, 600), resolveFields({ products: ["invoices"] }));
  const value = (name: string) => fields.find((f) => f.name === name)?.value ?? null;
  return { iban: value("payment.iban"), bic: value("payment.bic") };
}

describe("bank identifiers beside an IBAN", () => {
  it("reads the IBAN and no BIC from a payment-method word of eight capitals beside it", () => {
    const got = bankFields([
      [["MOYEN DE PAIEMENT : VIREMENT", 300]],
      [["COMPTE :", 300]],
      [["IBAN : FR20 1254 2547 2569 8542 5874 698", 300]],
    ]);
    assert.deepEqual(got, { iban: "FR2012542547256985425874698", bic: null });
  });

  it("reads an unlabelled BIC of the IBAN's country beside it", () => {
    const got = bankFields([[["IBAN : FR20 1254 2547 2569 8542 5874 698", 300]], [["BNPAFRPP", 300]]]);
    assert.deepEqual(got, { iban: "FR2012542547256985425874698", bic: "BNPAFRPP" });
  });

  it("reads an IBAN a narrow column wrapped onto the next line, under its first group", () => {
    const wrapped = (tailAt: number) =>
      bankFields([
        [
          ["Bank", 20],
          ["IBAN", 300],
        ],
        [
          ["Weltweit Bank", 20],
          ["DE67 1004 8392 7221", 300],
        ],
        [["8882 72", tailAt]],
      ]).iban;
    assert.equal(wrapped(300), "DE67100483927221888272");
    // Figures printed elsewhere on the next line are no part of it.
    assert.equal(wrapped(20), null);
  });

  it("reads an IBAN with a space after its country code ('DE 44 8271 ...')", () => {
    assert.equal(bankFields([[["IBAN: DE 44 8271 0088 7640 7240 33", 300]]]).iban, "DE44827100887640724033");
  });

  it("reads a BIC with its label glued to it ('BIC:DEUTDEFF')", () => {
    assert.equal(bankFields([[["Bank: BIC:DEUTDEFF", 300]]]).bic, "DEUTDEFF");
  });

  it("reads a BIC OCR split in two ('LOY' 'DGBDM', 3 px apart)", () => {
    const page = (rows: Row[]) =>
      extract(
        scannedDocument([[["LE FOURNISSEUR SARL", 20]], ...rows], 600),
        resolveFields({ products: ["invoices"] }),
      ).find((f) => f.name === "payment.bic")?.value ?? null;
    // "BIC/SWIFT: LOY" ends at x 412; "DGBDM" starts 3 px on, where a printed space takes 8.
    assert.equal(
      page([
        [
          ["BIC/SWIFT: LOY", 300],
          ["DGBDM", 415],
        ],
      ]),
      "LOYDGBDM",
    );
  });

  it("reads a BIC beside its label in the groups it is printed in, or split by OCR a space wide", () => {
    assert.equal(bankFields([[["BIC/SWIFT: COBA DE FF XXX", 300]]]).bic, "COBADEFFXXX");
    assert.equal(bankFields([[["BIC-code RABONLJ MPAR", 300]]]).bic, "RABONLJMPAR");
    assert.equal(bankFields([[["BIC: RJZJFRB8&", 300]]]).bic, "RJZJFRB8", "a stray mark after it");
    // Unlabelled, only a word OCR split is joined: two words printed apart beside an IBAN stay two words.
    const unlabelled = bankFields([[["IBAN : FR20 1254 2547 2569 8542 5874 698", 300]], [["BNPA FRPP", 300]]]);
    assert.equal(unlabelled.bic, null);
  });
});

describe("VAT ids read by OCR", () => {
  it("restores the supplier's FR prefix whose first letter OCR lost, over the customer's whole VAT id", () => {
    const rows: Array<Array<[string, number]>> = [
      [
        ["LE FOURNISSEUR", 10],
        ["FACTURE F20260025", 210],
      ],
      [
        ["35 rue d'ici", 10],
        ["CLIENT :", 210],
      ],
      [
        ["75018 PARIS", 10],
        ["LE CLIENT", 210],
      ],
      [["58 rue de la mer", 210]],
      [["06000 NICE", 210]],
      [["TVA FR05987654321", 210]],
      [],
      [["N° TVA intra : R 11 123 456 782", 10]],
      [],
      [
        ["TOTAL TTC", 200],
        ["110,00", 330],
      ],
    ];
    const fields = extract(receipt(rows), resolveFields({ products: ["invoices"] }));
    assert.equal(fields.find((f) => f.name === "supplier.taxId")?.value, "FR11123456782");
  });
});

describe("VAT ids printed without their country", () => {
  it("reads a British VAT number printed without its GB under a VAT label, and no VAT number from digits unlabelled", () => {
    const taxId = (label: string) =>
      extract(
        textDocument(
          [
            [["Harbour Engineering Limited", 20]],
            [["12 Station Road, Leeds LS1 4AB", 20]],
            [[`${label}998 6619 33`, 20]],
            [],
            [
              ["Total (GBP)", 300],
              ["120.00", 480],
            ],
          ],
          600,
        ),
        resolveFields({ products: ["invoices"] }),
      ).find((f) => f.name === "supplier.taxId")?.value ?? null;
    assert.equal(taxId("VAT Registration Number "), "GB998661933");
    assert.equal(taxId("Phone "), null);
  });
});
