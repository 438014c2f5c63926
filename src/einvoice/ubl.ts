/** OASIS UBL 2.1 `Invoice` and `CreditNote` (EN 16931's UBL syntax, as XRechnung and Peppol BIS use it). */
import { documentFields, partyFields } from "./common-fields.js";
import { definedFields, type EInvoice, type EInvoiceLine, isCreditCode, joinAddress } from "./model.js";
import { amountText, compactId, dateText, decimalText, quantityText } from "./values.js";
import { all, first, textAt, type XmlElement } from "./xml.js";

export const UBL_ROOTS = new Set(["Invoice", "CreditNote"]);

function address(party: XmlElement | undefined): string | null {
  const postal = first(party, "PostalAddress");
  const at = (path: string) => textAt(postal, path);
  const place = [at("PostalZone"), at("CityName")].filter((p) => p !== null).join(" ");
  const lines = all(postal, "AddressLine/Line").map((l) => l.text.trim());
  return joinAddress([at("StreetName"), at("AdditionalStreetName"), ...lines, place, at("Country/IdentificationCode")]);
}

/** The party's VAT id (tax scheme VAT), else any tax scheme's company id. */
function taxId(party: XmlElement | undefined): string | null {
  const schemes = all(party, "PartyTaxScheme");
  const vat = schemes.find((s) => textAt(s, "TaxScheme/ID")?.toUpperCase() === "VAT") ?? schemes[0];
  return compactId(textAt(vat, "CompanyID"));
}

function name(party: XmlElement | undefined): string | null {
  return textAt(party, "PartyLegalEntity/RegistrationName") ?? textAt(party, "PartyName/Name");
}

function line(item: XmlElement): EInvoiceLine {
  const quantity = first(item, "InvoicedQuantity|CreditedQuantity");
  const product = first(item, "Item");
  return {
    description: textAt(product, "Name") ?? textAt(product, "Description"),
    quantity: quantityText(quantity?.text ?? null),
    unit: quantity?.attributes.unitCode ?? null,
    unitPrice: amountText(textAt(item, "Price/PriceAmount")),
    amount: amountText(textAt(item, "LineExtensionAmount")),
    taxRate: decimalText(textAt(product, "ClassifiedTaxCategory/Percent"), 2),
    productCode: textAt(product, "SellersItemIdentification/ID") ?? textAt(product, "BuyersItemIdentification/ID"),
    date: dateText(textAt(item, "InvoicePeriod/StartDate")),
  };
}

export function readUbl(root: XmlElement): EInvoice {
  const creditNote = root.name === "CreditNote";
  const typeCode = textAt(root, creditNote ? "CreditNoteTypeCode" : "InvoiceTypeCode") ?? (creditNote ? "381" : null);
  const credit = creditNote || isCreditCode(typeCode);
  const currency = textAt(root, "DocumentCurrencyCode")?.toUpperCase() ?? null;
  const totals = first(root, "LegalMonetaryTotal");
  const amount = (path: string) => amountText(textAt(totals, path), credit);
  // A second TaxTotal may state the tax in the accounting currency: the invoice currency's is the one.
  const taxTotals = all(root, "TaxTotal/TaxAmount");
  const tax = taxTotals.find((t) => t.attributes.currencyID === currency) ?? taxTotals[0];
  const seller = first(root, "AccountingSupplierParty/Party");
  const buyer = first(root, "AccountingCustomerParty/Party");
  const means = first(root, "PaymentMeans");
  const number = textAt(root, "ID");
  const issued = dateText(textAt(root, "IssueDate"));
  return {
    syntax: "ubl",
    typeCode,
    credit,
    fields: definedFields([
      ["invoice.number", number],
      ["invoice.date", issued],
      ["invoice.dueDate", dateText(textAt(root, "DueDate") ?? textAt(means, "PaymentDueDate"))],
      ["invoice.purchaseOrderNo", textAt(root, "OrderReference/ID")],
      ["invoice.currency", currency],
      ["invoice.subtotal", amount("TaxExclusiveAmount")],
      ["invoice.tax", amountText(tax?.text ?? null, credit)],
      ["invoice.total", amount("TaxInclusiveAmount")],
      ["invoice.amountDue", amount("PayableAmount")],
      ...partyFields({ name, address, taxId }, seller, buyer),
      ["payment.iban", compactId(textAt(means, "PayeeFinancialAccount/ID"))],
      ["payment.bic", compactId(textAt(means, "PayeeFinancialAccount/FinancialInstitutionBranch/ID"))],
      ["payment.reference", textAt(means, "PaymentID")],
      ...documentFields(number, issued, credit),
    ]),
    lines: all(root, "InvoiceLine|CreditNoteLine").map(line),
  };
}
