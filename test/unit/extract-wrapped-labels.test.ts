/**
 * Labels in narrow columns of a text layer. A label wrapped over two lines is the label it spells whole: "Customer"
 * over "ID:" labels a customer number, no section naming the customer with the lines under it; "Invoice" over "date:"
 * labels the invoice's date, not its number. A bill-to heading set level with a long sender name, closer to it than a
 * column gap, is a heading of its own.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { left, right, tableDocument, tablePage } from "../helpers/table-page.js";

describe("labels wrapped in a narrow column", () => {
  it("does not take a customer number's wrapped label for the customer's section", () => {
    const rows = [
      [
        left("Summit Analytics LLC · 2215 Elm Street · Boston, MA 02108", 0.061, 0.007),
        left("Invoice No.:", 0.551),
        right("VYBC7467-5204", 0.931),
      ],
      [left("Liberty Design Studio LLC", 0.061)],
      [left("3998 Market Street", 0.061), left("Customer", 0.551), right("Y038874", 0.931)],
      [left("Suite 883", 0.061), left("ID:", 0.551)],
      [left("Portland, OR 97204", 0.061), left("Date of", 0.551), right("November 12, 2022", 0.931)],
      [left("issue:", 0.551)],
      [left("Service", 0.551), right("October 12, 2022 - November", 0.931)],
      [left("period:", 0.551), right("11, 2022", 0.931)],
      [left("Invoice VYBC7467-5204", 0.061)],
      [left("Domain renewal", 0.1), right("561.36 USD", 0.931)],
      [left("Subtotal", 0.551), right("561.36 USD", 0.931)],
      [left("Sales tax (8.875%)", 0.551), right("49.82 USD", 0.931)],
      [left("Total due", 0.551), right("611.18 USD", 0.931)],
    ];
    const tops = [0.105, 0.123, 0.137, 0.151, 0.165, 0.179, 0.193, 0.207, 0.3, 0.35, 0.4, 0.42, 0.44];
    const got = invoiceFields(tableDocument(tablePage(1, rows, { tops })));
    assert.equal(got.get("supplier.name"), "Summit Analytics LLC");
    assert.equal(got.get("customer.name"), "Liberty Design Studio LLC");
  });
  it("labels the invoice date by a label wrapped over two lines beside it", () => {
    const rows = [
      [left("Harbourside Plumbing Pty Ltd", 0.061)],
      [left("12 George Street", 0.061), left("Invoice", 0.551), right("8 November 2021", 0.931)],
      [left("Sydney NSW 2000", 0.061), left("date:", 0.551)],
      [left("Billing", 0.551), right("8 October 2021 - 7 November", 0.931)],
      [left("period:", 0.551), right("2021", 0.931)],
      [left("1 Business plan (annual) 8 October 2021 - 7 November 2021", 0.061, 0.009), right("$56.99", 0.931)],
      [left("Total", 0.551), right("$56.99", 0.931)],
    ];
    const tops = [0.1, 0.12, 0.134, 0.155, 0.169, 0.3, 0.4];
    const got = invoiceFields(tableDocument(tablePage(1, rows, { tops })));
    assert.equal(got.get("invoice.date"), "2021-11-08");
  });
  it("parts a bill-to heading from the long sender name it is set level with", () => {
    // Three spaces' width between "(haftungsbeschränkt)" and the bill-to column's heading: under a column gap.
    const rows = [
      [left("Rechnung", 0.055)],
      [left("Rechnungsnummer", 0.063), left("INV-2022-63967", 0.332)],
      [left("Rechnungsdatum", 0.063), left("8. August 2022", 0.332)],
      [left("Bergmann Logistik UG (haftungsbeschränkt)", 0.055, 0.01065), left("Rechnungsempfänger", 0.499)],
      [left("Gartenweg 103", 0.055), left("Bergmann Handel KG", 0.499)],
      [left("81769 Berlin", 0.055), left("Hauptstraße 139", 0.499)],
      [left("Deutschland", 0.055), left("85113 Nürnberg", 0.499)],
      [left("Gesamtbetrag", 0.551), right("4.226,58 €", 0.931)],
    ];
    const tops = [0.032, 0.085, 0.105, 0.136, 0.149, 0.163, 0.176, 0.4];
    const got = invoiceFields(tableDocument(tablePage(1, rows, { tops })));
    assert.equal(got.get("supplier.name"), "Bergmann Logistik UG (haftungsbeschränkt)");
    assert.equal(got.get("customer.name"), "Bergmann Handel KG");
  });
});
