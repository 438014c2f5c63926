/**
 * Label wording per language, with several synonyms each: extraction must key on meaning, not on one spelling.
 * "{r}" in a tax label is replaced by the printed rate.
 */
import type { Lang } from "./locales.js";

export interface InvoiceWords {
  title: readonly string[];
  creditTitle: readonly string[];
  number: readonly string[];
  creditNumber: readonly string[];
  date: readonly string[];
  dueDate: readonly string[];
  /** A credit note's label for the date of the invoice it corrects. */
  precedingDate: readonly string[];
  purchaseOrder: readonly string[];
  customerNo: readonly string[];
  reference: readonly string[];
  billTo: readonly string[];
  /** A heading over the customer's own identifiers, in a column of their own under its address ("Your details"). */
  yourIds: readonly string[];
  /** A department of the customer printed over its name in the bill-to block ("Accounts Payable", "Buchhaltung"). */
  department: readonly string[];
  description: readonly string[];
  quantity: readonly string[];
  unitPrice: readonly string[];
  amount: readonly string[];
  subtotal: readonly string[];
  tax: readonly string[];
  total: readonly string[];
  prepaid: readonly string[];
  amountDue: readonly string[];
  bank: readonly string[];
  bic: readonly string[];
  accountNo: readonly string[];
  phone: readonly string[];
  page: readonly string[];
  continued: readonly string[];
  currencyNote: readonly string[];
  terms: readonly string[];
}

export const INVOICE_WORDS: Record<Lang, InvoiceWords> = {
  en: {
    title: ["INVOICE", "Invoice", "TAX INVOICE", "Tax Invoice"],
    creditTitle: ["CREDIT NOTE", "Credit Note", "Credit Memo"],
    number: ["Invoice No.", "Invoice #", "Inv. Number", "Invoice Number", "Invoice no:", "Number"],
    creditNumber: ["Credit Note No.", "Credit Note #", "Credit memo no."],
    date: ["Invoice Date", "Date", "Date of issue", "Issue date", "Invoice date:"],
    dueDate: ["Due Date", "Payment due", "Due", "Due by", "Pay by"],
    precedingDate: ["Original invoice date", "Date of original invoice", "Related invoice date"],
    purchaseOrder: ["PO Number", "P.O. No.", "Purchase Order", "Your order no.", "PO #"],
    customerNo: ["Customer No.", "Account No.", "Customer ID", "Client ref."],
    reference: ["Payment reference", "Reference", "Please quote", "Payment ref."],
    billTo: ["Bill to", "Billed to", "Invoice to", "Customer", "To:"],
    yourIds: ["Your details", "Your identifiers", "Your company details"],
    department: ["Accounts Payable", "Purchasing Department", "Finance Department", "Accounts Department"],
    description: ["Description", "Item", "Details", "Service"],
    quantity: ["Qty", "Quantity", "Units", "Hours"],
    unitPrice: ["Unit price", "Rate", "Price", "Unit cost"],
    amount: ["Amount", "Total", "Line total", "Net"],
    subtotal: ["Subtotal", "Net amount", "Total excl. tax", "Sub-total", "Net total"],
    tax: ["VAT {r}%", "VAT ({r}%)", "Tax {r}%", "Sales tax ({r}%)", "VAT @ {r}%"],
    total: ["Total", "TOTAL", "Invoice total", "Grand Total", "Total incl. tax"],
    prepaid: ["Less deposit", "Amount paid", "Prepayment", "Paid to date"],
    amountDue: ["Amount due", "Balance due", "Amount Due", "Total due", "Please pay"],
    bank: ["Bank details", "Payment details", "Please pay to", "Remittance"],
    bic: ["BIC", "SWIFT", "BIC/SWIFT", "SWIFT code"],
    accountNo: ["Account No.", "Account Number", "Acc No.", "Account"],
    phone: ["Tel", "Phone", "T:"],
    page: ["Page {p} of {n}", "Page {p}/{n}", "{p} / {n}"],
    continued: ["Continued on next page", "Continued overleaf", "Carried forward"],
    currencyNote: ["All amounts in {c}", "Currency: {c}", "Amounts shown in {c}"],
    terms: [
      "Payment within 14 days of the invoice date.",
      "Terms: 30 days net. Late payments may incur interest.",
      "Thank you for your business.",
      "Please include the reference with your payment.",
    ],
  },
  de: {
    title: ["RECHNUNG", "Rechnung"],
    creditTitle: ["GUTSCHRIFT", "Gutschrift", "Rechnungskorrektur"],
    number: ["Rechnungsnummer", "Rechnung Nr.", "Rechnungs-Nr.", "Belegnummer", "Re.-Nr."],
    creditNumber: ["Gutschrift Nr.", "Gutschriftsnummer", "Korrektur-Nr."],
    date: ["Rechnungsdatum", "Datum", "Ausstellungsdatum", "Belegdatum"],
    dueDate: ["Fällig am", "Fälligkeitsdatum", "Zahlbar bis", "Fällig bis"],
    precedingDate: ["Datum der Ursprungsrechnung", "Ursprüngliches Rechnungsdatum", "Datum der Originalrechnung"],
    purchaseOrder: ["Bestellnummer", "Ihre Bestellung", "Bestell-Nr.", "Ihre Auftragsnr."],
    customerNo: ["Kundennummer", "Kunden-Nr.", "Debitor"],
    reference: ["Verwendungszweck", "Zahlungsreferenz", "Bitte angeben"],
    billTo: ["Rechnungsempfänger", "Rechnung an", "Kunde", "Empfänger"],
    yourIds: ["Ihre Angaben", "Ihre Daten", "Ihre Kennungen"],
    department: ["Buchhaltung", "Abteilung Einkauf", "Kreditorenbuchhaltung", "Abt. Rechnungswesen"],
    description: ["Beschreibung", "Artikel", "Bezeichnung", "Leistung"],
    quantity: ["Menge", "Anz.", "Anzahl", "Stunden"],
    unitPrice: ["Einzelpreis", "E-Preis", "Preis", "Stückpreis"],
    amount: ["Betrag", "Gesamt", "Summe", "Gesamtpreis"],
    subtotal: ["Zwischensumme", "Nettobetrag", "Summe netto", "Gesamt netto", "Warenwert"],
    tax: ["MwSt. {r} %", "USt. {r}%", "zzgl. {r}% MwSt.", "Umsatzsteuer {r} %", "MWST {r}%"],
    total: ["Gesamtbetrag", "Rechnungsbetrag", "Summe brutto", "Gesamt", "Endbetrag"],
    prepaid: ["Anzahlung", "Bereits bezahlt", "abzgl. Anzahlung", "Geleistete Zahlung"],
    amountDue: ["Zahlbetrag", "Offener Betrag", "Zu zahlen", "Noch zu zahlen"],
    bank: ["Bankverbindung", "Bank", "Zahlung an", "Kontoverbindung"],
    bic: ["BIC", "SWIFT-BIC", "BIC/SWIFT"],
    accountNo: ["Kontonummer", "Konto-Nr."],
    phone: ["Tel.", "Telefon", "Fon"],
    page: ["Seite {p} von {n}", "Seite {p}/{n}", "{p} / {n}"],
    continued: ["Fortsetzung auf der nächsten Seite", "Übertrag", "Fortsetzung folgt"],
    currencyNote: ["Alle Beträge in {c}", "Währung: {c}", "Beträge in {c}"],
    terms: [
      "Zahlbar innerhalb von 14 Tagen ohne Abzug.",
      "Bei Zahlung innerhalb von 8 Tagen gewähren wir 2 % Skonto.",
      "Vielen Dank für Ihren Auftrag.",
      "Lieferdatum entspricht Rechnungsdatum.",
    ],
  },
  fr: {
    title: ["FACTURE", "Facture"],
    creditTitle: ["AVOIR", "Facture d'avoir", "Avoir"],
    number: ["N° de facture", "Facture n°", "Numéro de facture", "Facture N°", "Réf. facture"],
    creditNumber: ["Avoir n°", "N° d'avoir", "Numéro d'avoir"],
    date: ["Date de facture", "Date", "Date d'émission", "Date de facturation"],
    dueDate: ["Date d'échéance", "Échéance", "À payer avant le", "Date limite de paiement"],
    precedingDate: ["Date de facture associée", "Date de la facture d'origine", "Date de facture initiale"],
    purchaseOrder: ["Bon de commande", "N° de commande", "Votre commande", "Réf. commande"],
    customerNo: ["N° client", "Code client", "Réf. client"],
    reference: ["Référence de paiement", "Référence", "Libellé du virement"],
    billTo: ["Facturé à", "Client", "Destinataire", "Adresse de facturation"],
    yourIds: ["Vos identifiants", "Vos coordonnées", "Vos références"],
    department: ["Service comptabilité", "Service achats", "Comptabilité fournisseurs", "Direction financière"],
    description: ["Désignation", "Description", "Article", "Prestation"],
    quantity: ["Qté", "Quantité", "Qté."],
    unitPrice: ["Prix unitaire", "P.U. HT", "Prix U.", "PU HT"],
    amount: ["Montant", "Total HT", "Montant HT"],
    subtotal: ["Total HT", "Sous-total", "Montant HT", "Total hors taxes"],
    tax: ["TVA {r} %", "TVA ({r}%)", "TVA à {r} %", "Montant TVA {r}%"],
    total: ["Total TTC", "Montant TTC", "Total toutes taxes comprises", "TOTAL TTC"],
    prepaid: ["Acompte versé", "Déjà réglé", "Acompte"],
    amountDue: ["Net à payer", "Reste à payer", "Montant dû", "Solde à régler"],
    bank: ["Coordonnées bancaires", "Banque", "Règlement par virement", "RIB"],
    bic: ["BIC", "SWIFT", "Code BIC"],
    accountNo: ["N° de compte", "Compte"],
    phone: ["Tél.", "Tél :", "Téléphone"],
    page: ["Page {p} sur {n}", "Page {p}/{n}", "{p} / {n}"],
    continued: ["Suite page suivante", "À reporter", "Suite au verso"],
    currencyNote: ["Montants en {c}", "Devise : {c}", "Tous les montants sont en {c}"],
    terms: [
      "Paiement à 30 jours date de facture.",
      "Pas d'escompte pour paiement anticipé.",
      "En cas de retard, pénalités au taux de 3 fois le taux légal.",
      "Indemnité forfaitaire pour frais de recouvrement : 40 €.",
    ],
  },
  es: {
    title: ["FACTURA", "Factura"],
    creditTitle: ["FACTURA RECTIFICATIVA", "Abono", "Nota de crédito"],
    number: ["Número de factura", "Nº factura", "Factura n.º", "N.º de factura", "Factura Nº"],
    creditNumber: ["Nº rectificativa", "Abono n.º", "Número de abono"],
    date: ["Fecha de factura", "Fecha", "Fecha de emisión", "Fecha factura"],
    dueDate: ["Fecha de vencimiento", "Vencimiento", "Pagar antes del", "Fecha de pago"],
    precedingDate: ["Fecha de la factura original", "Fecha de la factura rectificada"],
    purchaseOrder: ["Número de pedido", "Pedido n.º", "Orden de compra", "Su pedido"],
    customerNo: ["N.º de cliente", "Código cliente", "Cliente n.º"],
    reference: ["Referencia de pago", "Concepto", "Referencia"],
    billTo: ["Facturar a", "Cliente", "Datos del cliente", "Destinatario"],
    yourIds: ["Sus datos", "Sus datos fiscales", "Sus referencias"],
    department: ["Departamento de compras", "Contabilidad", "Departamento financiero", "Cuentas a pagar"],
    description: ["Descripción", "Concepto", "Artículo", "Servicio"],
    quantity: ["Cant.", "Cantidad", "Uds."],
    unitPrice: ["Precio unitario", "Precio", "P. unit."],
    amount: ["Importe", "Total", "Subtotal"],
    subtotal: ["Base imponible", "Subtotal", "Importe neto", "Total sin IVA"],
    tax: ["IVA {r}%", "IVA ({r}%)", "Cuota IVA {r}%", "I.V.A. {r} %"],
    total: ["Total", "Total factura", "Importe total", "TOTAL"],
    prepaid: ["Anticipo", "Pagado a cuenta", "Entrega a cuenta"],
    amountDue: ["Importe a pagar", "Total a pagar", "Pendiente de pago", "Saldo pendiente"],
    bank: ["Datos bancarios", "Banco", "Forma de pago: transferencia", "Cuenta bancaria"],
    bic: ["BIC", "SWIFT", "BIC/SWIFT"],
    accountNo: ["Número de cuenta", "Cuenta"],
    phone: ["Tel.", "Teléfono", "Tlf."],
    page: ["Página {p} de {n}", "Pág. {p}/{n}", "{p} / {n}"],
    continued: ["Continúa en la página siguiente", "Suma y sigue", "Sigue"],
    currencyNote: ["Importes en {c}", "Moneda: {c}", "Divisa: {c}"],
    terms: [
      "Pago a 30 días fecha factura.",
      "Forma de pago: transferencia bancaria.",
      "Gracias por su confianza.",
      "Inscrita en el Registro Mercantil, tomo 1234, folio 56.",
    ],
  },
  nl: {
    title: ["FACTUUR", "Factuur"],
    creditTitle: ["CREDITNOTA", "Creditfactuur", "Creditnota"],
    number: ["Factuurnummer", "Factuurnr.", "Nummer", "Factuur nr."],
    creditNumber: ["Creditnotanummer", "Creditnota nr.", "Creditnr."],
    date: ["Factuurdatum", "Datum", "Datum factuur"],
    dueDate: ["Vervaldatum", "Te betalen voor", "Uiterste betaaldatum", "Betalen vóór"],
    precedingDate: ["Datum oorspronkelijke factuur", "Datum originele factuur"],
    purchaseOrder: ["Inkoopordernummer", "Ordernummer", "Uw bestelnummer", "Uw referentie"],
    customerNo: ["Klantnummer", "Debiteurnummer", "Klantnr."],
    reference: ["Betalingskenmerk", "Omschrijving", "Kenmerk"],
    billTo: ["Factuur aan", "Klant", "Factuuradres", "Aan"],
    yourIds: ["Uw gegevens", "Uw bedrijfsgegevens", "Uw referenties"],
    department: ["Afdeling inkoop", "Crediteurenadministratie", "Financiële administratie", "Afdeling boekhouding"],
    description: ["Omschrijving", "Artikel", "Dienst", "Product"],
    quantity: ["Aantal", "Aant.", "Uren"],
    unitPrice: ["Prijs", "Stukprijs", "Tarief", "Prijs per stuk"],
    amount: ["Bedrag", "Totaal", "Regeltotaal"],
    subtotal: ["Subtotaal", "Totaal excl. btw", "Netto bedrag", "Totaal exclusief BTW"],
    tax: ["Btw {r}%", "BTW {r}%", "Btw-bedrag {r}%", "{r}% btw"],
    total: ["Totaal", "Totaal incl. btw", "Factuurbedrag", "TOTAAL"],
    prepaid: ["Aanbetaling", "Reeds betaald", "Vooruitbetaald"],
    amountDue: ["Te betalen", "Openstaand bedrag", "Nog te betalen", "Totaal te voldoen"],
    bank: ["Bankgegevens", "Bank", "Betaalgegevens", "Rekening"],
    bic: ["BIC", "SWIFT", "BIC-code"],
    accountNo: ["Rekeningnummer", "Rekeningnr."],
    phone: ["Tel.", "Telefoon", "T"],
    page: ["Pagina {p} van {n}", "Pagina {p}/{n}", "{p} / {n}"],
    continued: ["Vervolg op volgende pagina", "Zie volgende pagina", "Transport"],
    currencyNote: ["Bedragen in {c}", "Valuta: {c}", "Alle bedragen in {c}"],
    terms: [
      "Gelieve binnen 14 dagen te betalen onder vermelding van het factuurnummer.",
      "Betalingstermijn: 30 dagen.",
      "Op al onze leveringen zijn de algemene voorwaarden van toepassing.",
    ],
  },
};

/** Locale-specific wording that differs from the language default (tax names, tax-id labels). */
export const TAX_WORDS: Record<string, readonly string[]> = {
  "en-AU": ["GST", "GST 10%", "GST ({r}%)", "Total GST"],
  "en-US": ["Sales Tax ({r}%)", "Tax", "Sales tax {r}%", "Tax ({r}%)"],
  "en-GB": ["VAT {r}%", "VAT ({r}%)", "VAT @ {r}%", "VAT"],
  "en-MY": ["SST {r}%", "Service Tax {r}%", "SST"],
  "de-CH": ["MWST {r}%", "MWST {r} %", "zzgl. MWST {r}%"],
};

export const TOTAL_WORDS: Record<string, readonly string[]> = {
  "en-AU": ["Total (inc. GST)", "Total inc GST", "TOTAL AUD", "Total"],
  "en-GB": ["Total", "Total (incl. VAT)", "TOTAL", "Invoice total"],
};

export const TAX_ID_WORDS: Record<string, readonly string[]> = {
  "en-GB": ["VAT No.", "VAT Reg. No.", "VAT Registration Number", "VAT number"],
  "en-AU": ["ABN", "ABN:", "A.B.N."],
  "de-DE": ["USt-IdNr.", "USt-ID", "Umsatzsteuer-ID", "USt-Id-Nr."],
  "de-CH": ["MWST-Nr.", "UID", "MWST"],
  "fr-FR": ["N° TVA intracommunautaire", "TVA intracom.", "N° TVA", "TVA"],
  "es-ES": ["NIF", "CIF", "NIF/IVA"],
  "nl-NL": ["Btw-nummer", "BTW-nr.", "Btw-id", "BTW"],
};

export interface ReceiptWords {
  subtotal: readonly string[];
  tax: readonly string[];
  taxIncluded: readonly string[];
  total: readonly string[];
  cash: readonly string[];
  change: readonly string[];
  card: readonly string[];
  receiptNo: readonly string[];
  date: readonly string[];
  time: readonly string[];
  cashier: readonly string[];
  thanks: readonly string[];
}

export const RECEIPT_WORDS: Record<Lang, ReceiptWords> = {
  en: {
    subtotal: ["Subtotal", "SUBTOTAL", "Sub Total"],
    tax: ["Tax", "TAX", "Sales Tax"],
    taxIncluded: ["Tax included", "Incl. tax"],
    total: ["TOTAL", "Total", "TOTAL AMOUNT", "AMOUNT DUE", "Total Due"],
    cash: ["CASH", "Cash", "Tendered", "Cash Tendered"],
    change: ["CHANGE", "Change", "Change Due"],
    card: ["VISA", "Mastercard", "EFTPOS", "Card"],
    receiptNo: ["Receipt No.", "Receipt #", "Trans #", "Bill No", "Ref"],
    date: ["Date:", "Date", "DATE:"],
    time: ["Time:", "Time", "TIME:"],
    cashier: ["Cashier:", "Served by", "Operator"],
    thanks: ["THANK YOU", "Thank you for shopping with us", "Please come again", "Thank you! See you soon"],
  },
  de: {
    subtotal: ["Zwischensumme", "Zw.-Summe"],
    tax: ["MwSt", "MwSt.", "USt"],
    taxIncluded: ["enth. MwSt", "darin MwSt", "inkl. MwSt"],
    total: ["SUMME", "Summe", "Gesamt", "ZU ZAHLEN", "Summe EUR"],
    cash: ["BAR", "Bar", "Gegeben"],
    change: ["Rückgeld", "Zurück", "RÜCKGELD"],
    card: ["EC-Karte", "Girocard", "Kartenzahlung"],
    receiptNo: ["Bon-Nr.", "Beleg-Nr.", "Bon", "Beleg"],
    date: ["Datum:", "Datum"],
    time: ["Uhrzeit:", "Zeit:"],
    cashier: ["Kasse", "Es bediente Sie", "Bediener"],
    thanks: ["Vielen Dank für Ihren Einkauf", "Danke und auf Wiedersehen", "Bis zum nächsten Mal!"],
  },
  fr: {
    subtotal: ["Sous-total", "SOUS-TOTAL"],
    tax: ["TVA", "T.V.A."],
    taxIncluded: ["dont TVA", "TVA incluse"],
    total: ["TOTAL", "TOTAL TTC", "Montant TTC", "Total à payer"],
    cash: ["ESPÈCES", "Espèces", "Reçu"],
    change: ["RENDU", "Monnaie rendue", "Rendu"],
    card: ["CB", "Carte bancaire", "Carte"],
    receiptNo: ["Ticket n°", "N° ticket", "Ticket", "Transaction"],
    date: ["Date :", "Le"],
    time: ["Heure :", "à"],
    cashier: ["Caisse", "Vendeur", "Hôtesse"],
    thanks: ["Merci de votre visite", "Merci et à bientôt", "Bonne journée"],
  },
  es: {
    subtotal: ["Subtotal", "SUBTOTAL", "Base imponible"],
    tax: ["IVA", "I.V.A."],
    taxIncluded: ["IVA incluido", "Cuota IVA"],
    total: ["TOTAL", "Total a pagar", "IMPORTE", "TOTAL EUR"],
    cash: ["EFECTIVO", "Entregado", "Efectivo"],
    change: ["CAMBIO", "Cambio", "Devolución"],
    card: ["Tarjeta", "TARJETA", "Visa"],
    receiptNo: ["Ticket nº", "Nº ticket", "Factura simplificada nº", "Nº operación"],
    date: ["Fecha:", "Fecha"],
    time: ["Hora:", "Hora"],
    cashier: ["Cajero:", "Le atendió", "Caja"],
    thanks: ["Gracias por su compra", "Gracias por su visita", "Vuelva pronto"],
  },
  nl: {
    subtotal: ["Subtotaal", "SUBTOTAAL"],
    tax: ["BTW", "Btw"],
    taxIncluded: ["Incl. btw", "Waarvan btw"],
    total: ["TOTAAL", "Totaal", "Te betalen", "TOTAAL EUR"],
    cash: ["CONTANT", "Contant", "Betaald"],
    change: ["WISSELGELD", "Terug", "Wisselgeld"],
    card: ["PIN", "Pinbetaling", "Maestro"],
    receiptNo: ["Bonnr.", "Bon", "Transactie", "Kassabon"],
    date: ["Datum:", "Datum"],
    time: ["Tijd:", "Tijd"],
    cashier: ["Kassa", "U werd geholpen door", "Medewerker"],
    thanks: ["Bedankt voor uw bezoek", "Tot ziens!", "Bedankt en graag tot ziens"],
  },
};

export const RECEIPT_TAX_WORDS: Record<string, readonly string[]> = {
  "en-AU": ["GST", "GST included", "Includes GST", "Total includes GST of"],
  "en-GB": ["VAT", "VAT 20%", "VAT included"],
  "en-US": ["Tax", "Sales Tax", "TAX"],
  "en-MY": ["SST 6%", "Service Tax 6%", "GST 6%", "SST"],
};

export const RECEIPT_TOTAL_WORDS: Record<string, readonly string[]> = {
  "en-MY": ["TOTAL", "TOTAL (RM)", "NET TOTAL", "TOTAL INCL. SST", "Grand Total"],
  "en-AU": ["TOTAL", "Total", "TOTAL AUD", "Amount Due"],
};

/** Labels of the payment blocks (PaymentLayout), as Malaysian tills and pay stations print them. */
export const PAYMENT_WORDS = {
  rounding: ["Rounding Adj", "Rounding", "ROUNDING ADJUSTMENTS", "Rounding Adjustment"],
  rounded: ["Total After Adj", "Grand Total", "Total Rounded", "TOTAL"],
  taxFirst: ["TOTAL (GST INCL)", "Total (VAT incl.)", "TOTAL (TAX INCL)"],
  cash: ["CASH", "Cash"],
  change: ["CHANGE", "Change", "CHANGE DUE"],
  stationTotal: ["Total amount", "Amount due", "Parking fee"],
  accepted: ["Accepted total", "Amount accepted", "Accepted"],
};
