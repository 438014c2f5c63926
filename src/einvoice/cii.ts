/**
 * UN/CEFACT Cross Industry Invoice: ZUGFeRD 1.0 (`CrossIndustryDocument`) and ZUGFeRD 2.x / Factur-X / XRechnung
 * CII (`CrossIndustryInvoice`), every profile from MINIMUM to EXTENDED. The two versions name the same facts
 * differently (HeaderExchangedDocument / ExchangedDocument, ...): each path lists both. A profile that leaves a fact
 * out simply yields no value for it.
 */
import { documentFields, partyFields } from "./common-fields.js";
import { definedFields, type EInvoice, type EInvoiceLine, isCreditCode, joinAddress } from "./model.js";
import { amountText, compactId, dateText, decimalText, quantityText } from "./values.js";
import { all, first, textAt, type XmlElement } from "./xml.js";

const DOCUMENT = "ExchangedDocument|HeaderExchangedDocument";
const TRANSACTION = "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction";
const AGREEMENT = "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement";
const SETTLEMENT = "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement";
const SUMMATION = "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation";
const LINE_AGREEMENT = "SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement";
const LINE_DELIVERY = "SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery";
const LINE_SETTLEMENT = "SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement";
const LINE_SUMMATION = "SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation";
const PERCENT = "RateApplicablePercent|ApplicablePercent";

/** CII whatever its document element is called: ZUGFeRD's drafts named it `Invoice`, as UBL does. */
export function isCii(root: XmlElement): boolean {
  return first(root, DOCUMENT) !== undefined && first(root, TRANSACTION) !== undefined;
}

/**
 * A CII date: `<udt:DateTimeString format="102">` below `path`, or (in ZUGFeRD 1's drafts) the element's own text
 * with its format, or an ISO date-time.
 */
function dateAt(from: XmlElement | undefined, path: string): string | null {
  const element = first(from, `${path}/DateTimeString`);
  if (element) return dateText(element.text, element.attributes.format ?? "102");
  const own = first(from, path);
  return own ? dateText(own.text, own.attributes.format) : null;
}

function address(party: XmlElement | undefined): string | null {
  const at = (name: string) => textAt(party, `PostalTradeAddress/${name}`);
  const place = [at("PostcodeCode"), at("CityName")].filter((p) => p !== null).join(" ");
  return joinAddress([at("LineOne"), at("LineTwo"), at("LineThree"), place, at("CountryID")]);
}

/** The party's VAT id (scheme VA), else its national tax number (FC). */
function taxId(party: XmlElement | undefined): string | null {
  const ids = all(party, "SpecifiedTaxRegistration/ID");
  const of = (scheme: string) => ids.find((id) => id.attributes.schemeID === scheme)?.text ?? null;
  return compactId(of("VA") ?? of("FC"));
}

/** Of amounts given in several currencies (a tax total in invoice and accounting currency), the invoice's. */
function inCurrency(elements: readonly XmlElement[], currency: string | null): string | null {
  const chosen =
    elements.find((e) => currency !== null && e.attributes.currencyID === currency) ??
    elements.find((e) => e.attributes.currencyID === undefined) ??
    elements[0];
  return chosen?.text ?? null;
}

function line(item: XmlElement): EInvoiceLine | null {
  const product = first(item, "SpecifiedTradeProduct");
  const agreement = first(item, LINE_AGREEMENT);
  const settlement = first(item, LINE_SETTLEMENT);
  const quantity = first(item, `${LINE_DELIVERY}/BilledQuantity`);
  const amount = amountText(textAt(settlement, `${LINE_SUMMATION}/LineTotalAmount`));
  // A line of free text only (ZUGFeRD 1 uses them for notes) is no invoice line.
  if (!product && amount === null) return null;
  return {
    description: textAt(product, "Name") ?? textAt(product, "Description"),
    quantity: quantityText(quantity?.text ?? null),
    unit: quantity?.attributes.unitCode ?? null,
    unitPrice: amountText(textAt(agreement, "NetPriceProductTradePrice/ChargeAmount")),
    amount,
    taxRate: decimalText(textAt(settlement, `ApplicableTradeTax/${PERCENT}`), 2),
    // The seller's or buyer's article number; a GTIN (GlobalID) is a standard id, not the invoice's product code.
    productCode: textAt(product, "SellerAssignedID") ?? textAt(product, "BuyerAssignedID"),
    date:
      dateAt(settlement, "BillingSpecifiedPeriod/StartDateTime") ??
      dateAt(first(item, LINE_DELIVERY), "ActualDeliverySupplyChainEvent/OccurrenceDateTime"),
  };
}

export function readCii(root: XmlElement): EInvoice {
  const document = first(root, DOCUMENT);
  const transaction = first(root, TRANSACTION);
  const agreement = first(transaction, AGREEMENT);
  const settlement = first(transaction, SETTLEMENT);
  const summation = first(settlement, SUMMATION);
  const seller = first(agreement, "SellerTradeParty");
  const buyer = first(agreement, "BuyerTradeParty");
  const means = first(settlement, "SpecifiedTradeSettlementPaymentMeans");
  const typeCode = textAt(document, "TypeCode");
  const credit = isCreditCode(typeCode);
  const currency = textAt(settlement, "InvoiceCurrencyCode");
  // Credit notes state positive amounts; the catalogue gives credits negative.
  const amount = (name: string) => amountText(inCurrency(all(summation, name), currency), credit);
  const number = textAt(document, "ID");
  const issued = dateAt(document, "IssueDateTime");
  return {
    syntax: first(root, "HeaderExchangedDocument") ? "cii-zugferd1" : "cii",
    typeCode,
    credit,
    fields: definedFields([
      ["invoice.number", number],
      ["invoice.date", issued],
      ["invoice.dueDate", dateAt(settlement, "SpecifiedTradePaymentTerms/DueDateDateTime")],
      ["invoice.purchaseOrderNo", textAt(agreement, "BuyerOrderReferencedDocument/IssuerAssignedID|ID")],
      ["invoice.currency", currency?.toUpperCase() ?? null],
      ["invoice.subtotal", amount("TaxBasisTotalAmount")],
      ["invoice.tax", amount("TaxTotalAmount")],
      ["invoice.total", amount("GrandTotalAmount")],
      ["invoice.amountDue", amount("DuePayableAmount")],
      ...partyFields({ name: (party) => textAt(party, "Name"), address, taxId }, seller, buyer),
      ["payment.iban", compactId(textAt(means, "PayeePartyCreditorFinancialAccount/IBANID"))],
      ["payment.bic", compactId(textAt(means, "PayeeSpecifiedCreditorFinancialInstitution/BICID"))],
      ["payment.reference", textAt(settlement, "PaymentReference")],
      ...documentFields(number, issued, credit),
    ]),
    lines: all(transaction, "IncludedSupplyChainTradeLineItem").flatMap((item) => line(item) ?? []),
  };
}
