/**
 * What an e-invoice's XML says of its rows beyond the labels' cells, for scoring a page reading of the table
 * (bench/line-items-score.ts):
 * - an item's wordings: the XML gives a name (BT-153) and may give a description (BT-154); a page prints the name, the
 *   description, or both ("PRESTATION SUPPORT - Description"), and each is a faithful reading of the row;
 * - the document-level allowances and charges (BG-20, BG-21): some layouts print them as rows of the table, others in
 *   the totals block, so a read row that is one of them is neither a hit nor a false row.
 */

import { isCreditCode } from "../src/einvoice/model.js";
import { all, first, parseXml, textAt, type XmlElement } from "../src/einvoice/xml.js";
import { readPdfAttachments } from "../src/ingest/pdf-attachments.js";

export interface XmlItemWording {
  name: string | null;
  description: string | null;
  /** The line's net amount as the XML states it (positive on a credit note). */
  amount: string | null;
}

export interface XmlAdjustment {
  reason: string | null;
  /** Negative for an allowance, positive for a charge, as the XML states them (a credit note's too). */
  amount: number;
}

export interface XmlWordings {
  items: XmlItemWording[];
  adjustments: XmlAdjustment[];
  /** A credit note: its page and its labels may give its figures either sign. */
  credit: boolean;
}

const CII_TRANSACTION = "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction";
const CII_SETTLEMENT = "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement";
const CII_LINE_SUMMATION =
  "SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation/LineTotalAmount";

function adjustment(indicator: string | null, amount: string | null, reason: string | null): XmlAdjustment | null {
  const value = Number(amount);
  if (amount === null || !Number.isFinite(value)) return null;
  return { reason, amount: indicator?.trim().toLowerCase() === "true" ? value : -value };
}

function readCii(root: XmlElement): XmlWordings {
  const transaction = first(root, CII_TRANSACTION);
  const typeCode = textAt(root, "ExchangedDocument|HeaderExchangedDocument/TypeCode");
  const credit = isCreditCode(typeCode);
  const items = all(transaction, "IncludedSupplyChainTradeLineItem").map((line) => {
    const product = first(line, "SpecifiedTradeProduct");
    return {
      name: textAt(product, "Name"),
      description: textAt(product, "Description"),
      amount: textAt(line, CII_LINE_SUMMATION),
    };
  });
  const adjustments = all(transaction, `${CII_SETTLEMENT}/SpecifiedTradeAllowanceCharge`).flatMap((a) => {
    const read = adjustment(textAt(a, "ChargeIndicator/Indicator"), textAt(a, "ActualAmount"), textAt(a, "Reason"));
    return read === null ? [] : [read];
  });
  return { items, adjustments, credit };
}

function readUbl(root: XmlElement): XmlWordings {
  const credit = root.name === "CreditNote" || isCreditCode(textAt(root, "InvoiceTypeCode"));
  const items = all(root, "InvoiceLine|CreditNoteLine").map((line) => ({
    name: textAt(line, "Item/Name"),
    description: textAt(line, "Item/Description"),
    amount: textAt(line, "LineExtensionAmount"),
  }));
  const adjustments = all(root, "AllowanceCharge").flatMap((a) => {
    const read = adjustment(textAt(a, "ChargeIndicator"), textAt(a, "Amount"), textAt(a, "AllowanceChargeReason"));
    return read === null ? [] : [read];
  });
  return { items, adjustments, credit };
}

/** The wordings of a PDF's embedded e-invoice XML (CII or UBL), or null when it has none. */
export async function readXmlWordings(pdf: Uint8Array): Promise<XmlWordings | null> {
  if (!(pdf[0] === 0x25 && pdf[1] === 0x50 && pdf[2] === 0x44 && pdf[3] === 0x46)) return null;
  for (const file of await readPdfAttachments(pdf)) {
    if (!/\.xml$/i.test(file.name.trim())) continue;
    let root: XmlElement;
    try {
      root = parseXml(new TextDecoder().decode(file.bytes));
    } catch {
      continue;
    }
    if (first(root, CII_TRANSACTION) !== undefined) return readCii(root);
    if (root.name === "Invoice" || root.name === "CreditNote") return readUbl(root);
  }
  return null;
}
