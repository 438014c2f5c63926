/** E-invoice XML (CII as ZUGFeRD 1 and 2 / Factur-X / XRechnung write it, UBL 2.1) and PDFs that embed it. */
import { AFRelationship, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from "pdf-lib";
import { A4, type TextLine } from "./pdf-fixtures.js";

export interface InvoiceFacts {
  number: string;
  /** YYYYMMDD */
  date: string;
  due?: string;
  typeCode?: string;
  currency: string;
  subtotal: string;
  tax: string;
  total: string;
  amountDue?: string;
  seller: string;
  sellerVat: string;
  buyer: string;
  iban?: string;
  lines?: Array<{ name: string; quantity: string; price: string; amount: string; rate: string; id?: string }>;
}

export const FACTS: InvoiceFacts = {
  number: "INV-2024-0042",
  date: "20240315",
  due: "20240414",
  currency: "EUR",
  subtotal: "1037.44",
  tax: "197.12",
  total: "1234.56",
  seller: "ACME Supplies Limited",
  sellerVat: "DE123456789",
  buyer: "Northwind Traders",
  iban: "DE89 3704 0044 0532 0130 00",
  lines: [
    { name: "Office chairs", quantity: "4.0000", price: "210.00", amount: "840.00", rate: "19", id: "CH-4" },
    { name: "Standing desk", quantity: "1", price: "197.44", amount: "197.44", rate: "19.00" },
  ],
};

const iso = (yyyymmdd: string) => `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6)}`;

/** CII: ZUGFeRD 2.x / Factur-X (`version: 2`, any guideline id) or ZUGFeRD 1.0 (`version: 1`). */
export function ciiXml(f: InvoiceFacts, version: 1 | 2 = 2, guideline = "urn:cen.eu:en16931:2017"): string {
  const v1 = version === 1;
  const date = (d: string) => `<udt:DateTimeString format="102">${d}</udt:DateTimeString>`;
  const lines = (f.lines ?? [])
    .map(
      (l, i) => `<ram:IncludedSupplyChainTradeLineItem>
  <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
  ${v1 ? "" : `<ram:SpecifiedTradeProduct>${l.id ? `<ram:SellerAssignedID>${l.id}</ram:SellerAssignedID>` : ""}<ram:Name>${l.name}</ram:Name></ram:SpecifiedTradeProduct>`}
  <ram:${v1 ? "SpecifiedSupplyChainTradeAgreement" : "SpecifiedLineTradeAgreement"}><ram:NetPriceProductTradePrice><ram:ChargeAmount>${l.price}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:${v1 ? "SpecifiedSupplyChainTradeAgreement" : "SpecifiedLineTradeAgreement"}>
  <ram:${v1 ? "SpecifiedSupplyChainTradeDelivery" : "SpecifiedLineTradeDelivery"}><ram:BilledQuantity unitCode="C62">${l.quantity}</ram:BilledQuantity></ram:${v1 ? "SpecifiedSupplyChainTradeDelivery" : "SpecifiedLineTradeDelivery"}>
  <ram:${v1 ? "SpecifiedSupplyChainTradeSettlement" : "SpecifiedLineTradeSettlement"}>
    <ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:${v1 ? "ApplicablePercent" : "RateApplicablePercent"}>${l.rate}</ram:${v1 ? "ApplicablePercent" : "RateApplicablePercent"}></ram:ApplicableTradeTax>
    <ram:${v1 ? "SpecifiedTradeSettlementMonetarySummation" : "SpecifiedTradeSettlementLineMonetarySummation"}><ram:LineTotalAmount>${l.amount}</ram:LineTotalAmount></ram:${v1 ? "SpecifiedTradeSettlementMonetarySummation" : "SpecifiedTradeSettlementLineMonetarySummation"}>
  </ram:${v1 ? "SpecifiedSupplyChainTradeSettlement" : "SpecifiedLineTradeSettlement"}>
  ${v1 ? `<ram:SpecifiedTradeProduct>${l.id ? `<ram:SellerAssignedID>${l.id}</ram:SellerAssignedID>` : ""}<ram:Name>${l.name}</ram:Name></ram:SpecifiedTradeProduct>` : ""}
</ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join("\n");
  const party = (tag: string, name: string, vat?: string) =>
    `<ram:${tag}><ram:Name>${name}</ram:Name><ram:PostalTradeAddress><ram:PostcodeCode>10115</ram:PostcodeCode><ram:LineOne>Hauptstr. 1</ram:LineOne><ram:CityName>Berlin</ram:CityName><ram:CountryID>DE</ram:CountryID></ram:PostalTradeAddress>${vat ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">12/345/67890</ram:ID></ram:SpecifiedTaxRegistration><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${vat}</ram:ID></ram:SpecifiedTaxRegistration>` : ""}</ram:${tag}>`;
  const agreement = `<ram:${v1 ? "ApplicableSupplyChainTradeAgreement" : "ApplicableHeaderTradeAgreement"}>${party("SellerTradeParty", f.seller, f.sellerVat)}${party("BuyerTradeParty", f.buyer)}<ram:BuyerOrderReferencedDocument><ram:${v1 ? "ID" : "IssuerAssignedID"}>PO-991</ram:${v1 ? "ID" : "IssuerAssignedID"}></ram:BuyerOrderReferencedDocument></ram:${v1 ? "ApplicableSupplyChainTradeAgreement" : "ApplicableHeaderTradeAgreement"}>`;
  const settlementTag = v1 ? "ApplicableSupplyChainTradeSettlement" : "ApplicableHeaderTradeSettlement";
  const summationTag = v1
    ? "SpecifiedTradeSettlementMonetarySummation"
    : "SpecifiedTradeSettlementHeaderMonetarySummation";
  const settlement = `<ram:${settlementTag}>
  <ram:PaymentReference>${f.number}</ram:PaymentReference>
  <ram:InvoiceCurrencyCode>${f.currency}</ram:InvoiceCurrencyCode>
  ${f.iban ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${f.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount><ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>COBADEFFXXX</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution></ram:SpecifiedTradeSettlementPaymentMeans>` : ""}
  ${f.due ? `<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>${date(f.due)}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>` : ""}
  <ram:${summationTag}>
    <ram:TaxBasisTotalAmount>${f.subtotal}</ram:TaxBasisTotalAmount>
    <ram:TaxTotalAmount currencyID="${f.currency}">${f.tax}</ram:TaxTotalAmount>
    <ram:GrandTotalAmount>${f.total}</ram:GrandTotalAmount>
    <ram:DuePayableAmount>${f.amountDue ?? f.total}</ram:DuePayableAmount>
  </ram:${summationTag}>
</ram:${settlementTag}>`;
  const ns = v1
    ? 'xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15"'
    : 'xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100"';
  const root = v1 ? "CrossIndustryDocument" : "CrossIndustryInvoice";
  const context = v1 ? "SpecifiedExchangedDocumentContext" : "ExchangedDocumentContext";
  const document = v1 ? "HeaderExchangedDocument" : "ExchangedDocument";
  const transaction = v1 ? "SpecifiedSupplyChainTradeTransaction" : "SupplyChainTradeTransaction";
  // ZUGFeRD 1 puts the header parts before the lines, 2.x after them.
  const body = v1
    ? `${agreement}${settlement}${lines}`
    : `${lines}${agreement}<ram:ApplicableHeaderTradeDelivery/>${settlement}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:${root} ${ns}>
<rsm:${context}><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>${guideline}</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:${context}>
<rsm:${document}><ram:ID>${f.number}</ram:ID><ram:TypeCode>${f.typeCode ?? "380"}</ram:TypeCode><ram:IssueDateTime>${date(f.date)}</ram:IssueDateTime></rsm:${document}>
<rsm:${transaction}>${body}</rsm:${transaction}>
</rsm:${root}>`;
}

/** UBL 2.1 Invoice or CreditNote. */
export function ublXml(f: InvoiceFacts, root: "Invoice" | "CreditNote" = "Invoice"): string {
  const line = root === "Invoice" ? "InvoiceLine" : "CreditNoteLine";
  const quantity = root === "Invoice" ? "InvoicedQuantity" : "CreditedQuantity";
  const party = (tag: string, name: string, vat?: string) =>
    `<cac:${tag}><cac:Party><cac:PostalAddress><cbc:StreetName>Main Street 5</cbc:StreetName><cbc:CityName>London</cbc:CityName><cbc:PostalZone>EC1A 1BB</cbc:PostalZone><cac:Country><cbc:IdentificationCode>GB</cbc:IdentificationCode></cac:Country></cac:PostalAddress>${vat ? `<cac:PartyTaxScheme><cbc:CompanyID>${vat}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ""}<cac:PartyLegalEntity><cbc:RegistrationName>${name}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:${tag}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>
<cbc:ID>${f.number}</cbc:ID>
<cbc:IssueDate>${iso(f.date)}</cbc:IssueDate>
${root === "Invoice" && f.due ? `<cbc:DueDate>${iso(f.due)}</cbc:DueDate>` : ""}
<cbc:${root}TypeCode>${f.typeCode ?? (root === "Invoice" ? "380" : "381")}</cbc:${root}TypeCode>
<cbc:DocumentCurrencyCode>${f.currency}</cbc:DocumentCurrencyCode>
<cac:OrderReference><cbc:ID>PO-991</cbc:ID></cac:OrderReference>
${party("AccountingSupplierParty", f.seller, f.sellerVat)}
${party("AccountingCustomerParty", f.buyer)}
${f.iban ? `<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cbc:PaymentID>${f.number}</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>${f.iban}</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>NWBKGB2L</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount></cac:PaymentMeans>` : ""}
<cac:TaxTotal><cbc:TaxAmount currencyID="${f.currency}">${f.tax}</cbc:TaxAmount></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="${f.currency}">${f.subtotal}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="${f.currency}">${f.subtotal}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="${f.currency}">${f.total}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="${f.currency}">${f.amountDue ?? f.total}</cbc:PayableAmount></cac:LegalMonetaryTotal>
${(f.lines ?? [])
  .map(
    (l, i) =>
      `<cac:${line}><cbc:ID>${i + 1}</cbc:ID><cbc:${quantity} unitCode="C62">${l.quantity}</cbc:${quantity}><cbc:LineExtensionAmount currencyID="${f.currency}">${l.amount}</cbc:LineExtensionAmount><cac:Item><cbc:Name>${l.name}</cbc:Name>${l.id ? `<cac:SellersItemIdentification><cbc:ID>${l.id}</cbc:ID></cac:SellersItemIdentification>` : ""}<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${l.rate}</cbc:Percent></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="${f.currency}">${l.price}</cbc:PriceAmount></cac:Price></cac:${line}>`,
  )
  .join("\n")}
</${root}>`;
}

/** The page the facts above print: what page extraction reads and the XML's values are located on. */
export const INVOICE_PAGE: TextLine[] = [
  { text: "ACME Supplies Limited", x: 60, y: 780, size: 16 },
  { text: "Invoice Number INV-2024-0042", x: 60, y: 740, size: 13 },
  { text: "Invoice Date 15.03.2024", x: 60, y: 715, size: 13 },
  { text: "Bill to Northwind Traders", x: 60, y: 690, size: 13 },
  { text: "Office chairs", x: 60, y: 605, size: 13 },
  { text: "840,00", x: 430, y: 605, size: 13 },
  { text: "Standing desk", x: 60, y: 580, size: 13 },
  { text: "197,44", x: 430, y: 580, size: 13 },
  { text: "Net amount", x: 60, y: 555, size: 13 },
  { text: "1.037,44", x: 430, y: 555, size: 13 },
  { text: "VAT 19%", x: 60, y: 535, size: 13 },
  { text: "197,12", x: 430, y: 535, size: 13 },
  { text: "Total EUR", x: 60, y: 510, size: 14 },
  { text: "1.234,56", x: 430, y: 510, size: 14 },
  { text: "VAT ID DE123456789", x: 60, y: 470, size: 11 },
];

/** A one-page PDF of `lines` with `xml` attached as `name` (EmbeddedFiles and AF, as Factur-X does). */
export async function einvoicePdf(lines: TextLine[], xml: string | null, name = "factur-x.xml"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([A4.width, A4.height]);
  for (const line of lines) page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font });
  if (xml !== null)
    await doc.attach(new TextEncoder().encode(xml), name, {
      mimeType: "text/xml",
      afRelationship: AFRelationship.Alternative,
    });
  return doc.save();
}

/** The page of INVOICE_PAGE printed for other facts: the same layout with the number, date and parties replaced. */
export function invoicePage(f: InvoiceFacts): TextLine[] {
  const printed = (yyyymmdd: string) => `${yyyymmdd.slice(6)}.${yyyymmdd.slice(4, 6)}.${yyyymmdd.slice(0, 4)}`;
  return INVOICE_PAGE.map((line) => ({
    ...line,
    text: line.text
      .replace(FACTS.seller, f.seller)
      .replace(FACTS.number, f.number)
      .replace(printed(FACTS.date), printed(f.date))
      .replace(FACTS.buyer, f.buyer)
      .replace(FACTS.sellerVat, f.sellerVat),
  }));
}

/**
 * Several e-invoices concatenated into one PDF, one page each. `document`: every XML attached to the whole document
 * (EmbeddedFiles and AF, naming no page); `annotation`: each XML attached by a file-attachment annotation on its own
 * invoice's page.
 */
export async function einvoiceBundle(
  invoices: ReadonlyArray<{ lines: TextLine[]; xml: string }>,
  attach: "document" | "annotation" = "document",
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, invoice] of invoices.entries()) {
    const page = doc.addPage([A4.width, A4.height]);
    for (const line of invoice.lines) page.drawText(line.text, { x: line.x, y: line.y, size: line.size, font });
    const bytes = new TextEncoder().encode(invoice.xml);
    const name = `factur-x-${i + 1}.xml`;
    if (attach === "document") {
      await doc.attach(bytes, name, { mimeType: "text/xml", afRelationship: AFRelationship.Alternative });
      continue;
    }
    const file = doc.context.register(doc.context.flateStream(bytes, { Type: "EmbeddedFile", Subtype: "text/xml" }));
    const spec = doc.context.obj({ Type: "Filespec", F: PDFString.of(name), UF: PDFHexString.fromText(name) });
    spec.set(PDFName.of("EF"), doc.context.obj({ F: file, UF: file }));
    const annotation = doc.context.obj({
      Type: "Annot",
      Subtype: "FileAttachment",
      Rect: [20, 20, 40, 40],
      FS: doc.context.register(spec),
    });
    page.node.addAnnot(doc.context.register(annotation));
  }
  return doc.save();
}
