/**
 * Label dictionaries: the words printed next to a value that say what it is, in English, German, French, Spanish,
 * Dutch (and Malay for receipts). Phrases are matched on folded text with spaces and punctuation removed, so
 * "Sub-Total", "SUB TOTAL" and "Subtotal:" are one entry. A trailing "|0.6" gives a weaker weight to generic words
 * that also appear in other contexts ("date", "nr"). Longer and closer matches win over shorter ones, which is how
 * "total tax" beats "total" and "sub total" beats "total".
 */
import { fold } from "./text.js";

export type LabelRole =
  | "total"
  | "subtotal"
  | "tax"
  | "amountDue"
  | "paid"
  | "cash"
  | "change"
  | "rounding"
  | "discount"
  | "quantity"
  | "unitPrice"
  | "invoiceNumber"
  | "creditNumber"
  | "receiptNumber"
  | "genericNumber"
  | "invoiceDate"
  | "genericDate"
  | "dueDate"
  | "otherDate"
  | "purchaseOrder"
  | "customerNumber"
  | "taxId"
  | "customerTaxId"
  | "companyReg"
  | "iban"
  | "bic"
  | "bsb"
  | "accountNo"
  | "bankCode"
  | "paymentReference"
  | "currency"
  | "time"
  | "supplier"
  | "customer"
  | "contact"
  | "name"
  | "address"
  | "page";

const PHRASES: Record<LabelRole, readonly string[]> = {
  total: [
    "invoice total", "total invoice amount", "total amount due|0.9", "total aud", "total gbp", "total chf", "summe eur", "total toutes taxes comprises", "total a payer", "total à payer", "montant total ttc", "importe", "total factura", "totaal eur", "factuurbedrag", "totaalbedrag incl btw", "totaal incl btw", "zu zahlen|0.7", "total amount payable", "total inc gst", "total inc. gst", "total (inc gst)", "total incl vat",
    "total", "grand total", "total amount", "amount total", "total sales", "total sale", "net total|0.8", "nett total|0.8",
    "total payable", "amount payable", "total incl gst", "total inclusive gst", "total incl tax", "total including tax",
    "total including gst", "total inc gst", "total incl vat", "total rm", "total (rm)", "total amt", "rounded total",
    "total after rounding", "total rounded", "rounded", "total after adj", "total after adjustment", "after rounding",
    "nett", "net", "total nett", "nett amount", "grand total (rm)", "total payable (rm)", "total gross", "gross total", "gross amount", "invoice total", "total invoice", "total due|0.9",
    "total eur", "total usd", "jumlah", "jumlah besar", "jumlah keseluruhan", "jumlah bersih",
    "gesamtbetrag", "gesamtsumme", "bruttobetrag", "rechnungsbetrag", "endbetrag", "summe", "gesamt", "brutto",
    "rechnungsbetrag brutto", "summe inkl ust", "summe inkl mwst", "gesamtbetrag inkl ust", "gesamt inkl mwst", "rechnungssumme", "gesamtbetrag brutto", "summe brutto", "bruttosumme", "gesamtbetrag eur", "betrag",
    "total ttc", "montant ttc", "montant total", "total general", "totaal", "totaalbedrag", "totaal incl btw",
    "bedrag incl btw", "importe total", "total factura", "total a pagar|0.9", "totale", "sum", "summa",
  ],
  subtotal: [
    "sub total", "zw summe", "zwischensumme netto", "nettobetrag", "net", "net amount", "sous-total", "montant ht", "total sin iva", "importe neto", "subtotaal", "totaal excl btw", "netto bedrag", "totaal exclusief btw", "bedrag excl btw", "line total|0.3",
    "subtotal", "sub total", "sub-total (ex)", "total excl gst", "total excluding gst", "total excl tax", "total excl vat",
    "total before tax", "net amount", "net total amount", "total net", "amount excl tax", "total ex gst", "total ex tax",
    "total (excluding gst)", "sub total (excluding gst)", "total sales (excluding gst)", "total excluding tax",
    "nettobetrag", "summe netto", "gesamtbetrag netto", "netto", "nettosumme", "gesamt netto", "zwischensumme",
    "summe positionen", "rechnungssumme ohne ust", "summe ohne ust", "gesamtbetrag ohne ust", "betrag netto", "netto betrag", "rechnungsbetrag netto", "warenwert", "summe der positionen", "positionssumme", "nettowert",
    "total ht", "montant ht", "sous total", "total hors taxes", "subtotaal", "totaal excl btw", "bedrag excl btw",
    "base imponible", "importe neto", "total neto", "jumlah kecil",
  ],
  tax: [
    "vat @", "vat", "tax included|0.8", "incl tax|0.6", "enth mwst", "darin mwst", "inkl mwst|0.7", "dont tva", "tva incluse", "iva incluido", "waarvan btw", "incl btw|0.6", "gst included", "includes gst", "total includes gst of", "vat included", "montant tva", "cuota iva", "i.v.a.", "t.v.a.", "mwst", "service tax",
    "tax", "total tax", "tax total", "gst total", "total gst amount", "vat total", "gst payable", "gst", "total gst", "vat", "total vat", "sales tax", "tax amount", "gst amount", "vat amount",
    "sst", "service tax", "gst 6%", "gst @6%", "gst 6", "mwst", "ust", "umsatzsteuer", "mehrwertsteuer",
    "steuerbetrag", "zuzugl ust", "zzgl ust", "zzgl mwst", "zuzuglich ust", "zuzuglich mwst", "zuzügl ust", "zuzüglich mwst", "summe ust", "summe mwst", "umsatzsteuerbetrag", "ust betrag", "mwst betrag", "steuer",
    "versicherungssteuer", "tva", "total tva", "montant tva", "total taxes", "taxes", "btw", "totaal btw", "iva",
    "total iva", "cuota iva", "impuestos", "cukai",
  ],
  amountDue: [
    "amount due", "balance due", "total due", "please pay", "zahlbetrag", "offener betrag", "zu zahlen", "noch zu zahlen", "net a payer", "reste a payer", "montant du", "solde a regler", "importe a pagar", "total a pagar", "pendiente de pago", "saldo pendiente", "te betalen", "openstaand", "nog te betalen", "resterend bedrag",
    "amount due", "balance due", "total due", "due", "amount to pay", "to pay", "please pay", "balance", "outstanding",
    "zahlbetrag", "zu zahlen", "zu zahlender betrag", "faelliger betrag", "fälliger betrag", "offener betrag",
    "restbetrag", "noch zu zahlen", "zahlbar", "net a payer", "net à payer", "a payer", "à payer", "montant du",
    "montant dû", "reste a payer", "reste à payer", "te betalen", "totaal te betalen", "openstaand bedrag",
    "importe a pagar", "total a pagar", "a pagar",
  ],
  paid: [
    "less deposit", "amount paid", "prepayment", "paid to date", "anzahlung", "bereits bezahlt", "abzgl anzahlung", "geleistete zahlung", "acompte verse", "acompte versé", "deja regle", "déjà réglé", "anticipo", "pagado a cuenta", "entrega a cuenta", "aanbetaling", "reeds betaald", "vooruitbetaald","paid", "amount paid", "bereits gezahlt", "anzahlung", "vorauszahlung", "acompte", "deja paye", "déjà payé", "betaald", "prepaid", "deposit", "payment received"],
  cash: [
    "eftpos", "ec-karte", "girocard", "kartenzahlung", "cb", "carte bancaire", "carte", "tarjeta", "entregado", "pin", "pinbetaling", "maestro", "betaald|0.7", "gegeben", "especes", "espèces", "recu|0.5", "reçu|0.5","cash", "tunai", "tendered", "cash tendered", "amount tendered", "tender", "paid amount", "payment", "visa", "mastercard", "master", "card", "credit card", "debit card", "bar", "bargeld", "gegeben", "especes", "espèces", "contant", "efectivo", "received", "customer paid", "cash received"],
  change: [
    "change due", "ruckgeld", "rückgeld", "zuruck", "zurück", "rendu", "monnaie rendue", "cambio", "devolucion", "devolución", "wisselgeld", "terug","change", "change due", "baki", "rückgeld", "rueckgeld", "wechselgeld", "zurück", "rendu", "monnaie", "wisselgeld", "cambio", "vuelto", "balance change"],
  rounding: ["rounding", "rounding adj", "rounding adjustment", "round", "round adj", "adj", "pembundaran", "rundung"],
  discount: ["discount", "disc", "diskaun", "rabatt", "skonto", "remise", "korting", "descuento", "less", "savings", "promo"],
  quantity: ["qty", "quantity", "total qty", "total quantity", "items", "no of items", "total items", "menge", "anzahl", "quantite", "quantité", "aantal", "cantidad", "kuantiti", "pcs"],
  unitPrice: ["unit price", "price", "u/price", "s/price", "einzelpreis", "preis", "nettopreis", "prix unitaire", "prix", "stukprijs", "precio", "harga"],
  invoiceNumber: [
    "inv number", "inv. number", "invoice no.", "rechnungs-nr", "re.-nr", "re-nr", "n° de facture", "facture n°", "numero de facture", "numéro de facture", "facture no", "ref facture", "réf. facture", "numero de factura", "número de factura", "nº factura", "n.º de factura", "factura nº", "factura n.º", "factuurnummer", "factuur nr", "factuurnr",
    "invoice no", "invoice number", "invoice #", "invoice", "inv no", "invoice num", "tax invoice no", "bill no",
    "rechnungsnummer", "rechnung nr", "rechnungs nr", "rechnung", "re nr", "rechnungsnr", "beleg nr", "belegnummer",
    "handelsrechnung nr", "handelsrechnung", "baurechnung", "schlussrechnung", "teilrechnung", "abschlagsrechnung", "facture", "facture n", "facture no", "n de facture",
    "numero de facture", "no de facture", "facture numero", "factuur", "factuurnummer", "factuur nr", "factuurnr",
    "factura", "numero de factura", "factura n", "n factura", "no factura", "no. factura", "fattura", "fattura n",
    "invoice id", "document no", "doc no", "bill number",
  ],
  creditNumber: [
    "credit note no", "credit note #", "credit memo no", "gutschrift nr", "gutschriftsnummer", "korrektur-nr", "korrektur nr", "avoir n°", "n° d'avoir", "numero d'avoir", "numéro d'avoir", "abono n.º", "numero de abono", "número de abono", "nº rectificativa", "creditnota nr", "creditnotanummer","credit note", "credit note no", "credit note number", "gutschrift", "gutschrift nr", "gutschriftsnummer", "rechnungskorrektur", "rechnungskorrektur nr", "korrekturrechnung", "stornorechnung", "avoir", "avoir n", "facture d'avoir", "creditnota", "creditnota nr", "nota de credito", "nota de crédito"],
  receiptNumber: [
    "receipt no", "trans #", "bon-nr", "bon nr", "beleg-nr", "ticket n°", "n° ticket", "ticket nº", "nº ticket", "factura simplificada nº", "factura simplificada", "nº operacion", "nº operación", "bonnr", "transactie", "transaction","receipt no", "receipt number", "receipt #", "receipt", "bill no|0.8", "check no", "transaction no", "trans no", "txn no", "order no|0.6", "doc no", "document no", "slip no", "invoice no", "inv no", "cash bill no", "no resit", "resit no", "bon nr", "bonnummer", "beleg nr", "ticket", "ticket no", "n ticket", "ref no|0.7", "tax invoice no", "cb no", "serial no|0.7"],
  genericNumber: ["no|0.5", "nr|0.5", "n|0.4", "#|0.5", "number|0.6", "nummer|0.6", "numero|0.6", "num|0.5", "ref|0.4", "reference|0.4"],
  invoiceDate: [
    "date d'émission", "fecha de emisión", "fecha factura", "fecha de factura", "factuurdatum", "datum factuur", "ausstellungsdatum", "belegdatum", "date of issue", "issue date",
    "invoice date", "date of invoice", "date of issue", "issue date", "issued", "issued on", "tax point", "tax date",
    "rechnungsdatum", "datum der rechnung", "belegdatum", "ausstellungsdatum", "rechnungs datum", "vom|0.7",
    "date de facture", "date de facturation", "date facture", "date d'emission", "date d'émission", "facture du",
    "factuurdatum", "datum factuur", "fecha de factura", "fecha factura", "fecha de emision", "fecha de emisión",
    "bill date", "document date", "receipt date", "transaction date", "trans date", "sale date", "tarikh",
  ],
  genericDate: ["date|0.8", "datum|0.8", "fecha|0.8", "dated|0.8", "data|0.6", "tgl|0.6", "tanggal|0.6", "le|0.3", "on|0.3"],
  dueDate: [
    "fällig bis", "faellig bis", "fallig am", "fallig bis", "date limite de paiement", "à payer avant le", "a payer avant le", "payable avant le", "pagar antes del", "pagar antes de", "fecha de pago|0.8", "fecha limite de pago", "vervaldatum", "betalen voor", "betalen vóór", "uiterste betaaldatum", "te betalen voor", "te betalen vóór", "scadenza", "data di scadenza", "payment due by", "please pay by",
    "due date", "payment due", "due", "due by", "pay by", "payable by", "date due", "payment due date", "due on",
    "faellig", "fällig", "faellig am", "fällig am", "fälligkeitsdatum", "faelligkeitsdatum", "fälligkeit", "faelligkeit",
    "zahlbar bis", "bis zum|0.8", "zahlungsziel", "zahlbar bis zum", "zu zahlen bis", "bitte zahlen sie bis", "date d'echeance", "date d'échéance",
    "echeance", "échéance", "a payer avant", "à payer avant", "payable avant", "vervaldatum", "vervaldag",
    "te betalen voor", "fecha de vencimiento", "vencimiento",
  ],
  otherDate: [
    "delivery date", "date of delivery", "ship date", "shipping date", "order date", "service date", "period",
    "lieferdatum", "liefer- und leistungsdatum", "leistungsdatum", "leistungszeitraum", "lieferzeitraum",
    "bestelldatum", "auftragsdatum", "date de livraison", "date de commande", "date de prestation", "leverdatum",
    "besteldatum", "fecha de entrega", "fecha de pedido", "printed", "print date", "valid until", "gültig bis",
    "expiry", "exp", "from", "to", "bis", "von", "du", "au", "start", "end",
  ],
  purchaseOrder: [
    "p.o. no", "po #", "your order no", "bestell-nr", "ihre auftragsnr", "n° de commande", "réf. commande", "ref commande", "votre commande", "numero de pedido", "número de pedido", "pedido n.º", "su pedido", "orden de compra", "inkoopordernummer", "inkooporder", "uw bestelling", "bestelnummer", "ordernummer",
    "purchase order", "purchase order no", "po", "po no", "po number", "p o", "order no|0.8", "order number|0.8",
    "your order", "your reference|0.7", "customer order", "bestellung", "bestellnummer", "bestell nr", "ihre bestellung",
    "bestellnr", "auftragsnummer", "auftrag nr", "ihr auftrag", "ihre referenz|0.7", "bon de commande", "commande",
    "n de commande", "numero de commande", "votre commande", "votre reference|0.8", "votre référence|0.8",
    "bestelnummer", "inkoopordernummer", "uw referentie|0.7", "pedido", "numero de pedido", "orden de compra",
  ],
  customerNumber: [
    "customer no", "customer id", "client ref", "kunden-nr", "debitor", "debitorennummer", "n° client", "code client", "réf. client", "ref client", "n.º de cliente", "codigo cliente", "código cliente", "cliente n.º", "klantnummer", "klantnr", "debiteurnummer","customer no", "customer number", "customer id", "account number|0.5", "kundennummer", "kunden nr", "kundennr", "n client", "numero client", "code client", "klantnummer", "numero de cliente", "member", "member no"],
  taxId: [
    "vat reg no", "vat registration number", "vat number", "a.b.n.", "abn:", "ust-idnr", "ust-id", "umsatzsteuer-id", "ust-id-nr", "mwst-nr", "n° tva intracommunautaire", "tva intracom", "n° tva", "nif/iva", "btw-nummer", "btw-nr", "btw-id", "btw nummer",
    "vat", "vat no", "vat number", "vat reg no", "vat registration number", "vat id", "tax id", "tax no", "tax number",
    "gst", "gst no", "gst id", "gst reg no", "gst reg", "gst reg #", "gst registration no", "sst", "sst no", "sst id",
    "sst reg no", "abn", "acn", "ein", "tin", "ust id", "ust idnr", "ust id nr", "ustidnr", "ust-id", "ust-idnr",
    "umsatzsteuer id", "umsatzsteuer identifikationsnummer", "umsatzsteuer-id", "ust identnr", "steuernummer",
    "steuer nr", "st nr", "uid", "uid nr", "mwst nr", "tva", "n tva", "tva intracommunautaire", "numero de tva",
    "n tva intracom", "identifiant tva", "no tva", "btw", "btw nr", "btw nummer", "btw-id", "nif", "cif", "nif/cif",
    "che", "vat reg", "company vat", "siret|0.5", "siren|0.5",
  ],
  customerTaxId: ["n tva client", "tva client", "customer vat", "customer vat no", "your vat no", "buyer vat", "ust id kunde", "ihre ust id", "ihre ust-idnr", "kunden ust id", "btw klant", "nif cliente", "votre n tva"],
  companyReg: ["co reg", "co reg no", "company reg", "company no", "reg no", "registration no", "roc", "business reg", "hrb", "handelsregister", "registergericht", "amtsgericht", "kvk", "rcs", "siret", "siren", "ape"],
  iban: ["iban", "iban nr", "iban no", "international bank account number", "compte iban"],
  bic: ["bic", "swift", "swift code", "bic code", "bic/swift", "swift/bic", "bic swift", "swift bic", "code bic", "bic-code"],
  bsb: ["bsb", "bsb no", "bsb number", "bsb code"],
  accountNo: [ "acc no", "account number", "konto-nr", "kontonummer", "n° de compte", "numero de cuenta", "número de cuenta", "cuenta bancaria", "rekeningnummer", "rekeningnr",
    "account no", "account number", "acct no", "account", "acc no", "a/c no", "a/c", "bank account", "konto",
    "kontonummer", "konto nr", "kto", "kto nr", "n de compte", "numero de compte", "compte", "rekeningnummer",
    "rekening", "rekeningnr", "numero de cuenta", "cuenta", "no akaun", "akaun",
  ],
  bankCode: ["routing", "routing no", "routing number", "aba", "aba routing", "sort code", "blz", "bankleitzahl", "bank code", "transit", "transit no", "ifsc", "code banque", "code guichet"],
  paymentReference: [
    "payment ref", "please quote", "bitte angeben", "libelle du virement", "libellé du virement", "referencia de pago", "concepto|0.7", "betalingskenmerk", "betalingsreferentie", "kenmerk", "o.v.v.", "onder vermelding van",
    "payment reference", "reference", "ref", "please quote", "remittance reference", "payment ref", "reference number",
    "verwendungszweck", "zahlungsreferenz", "referenz", "betreff|0.6", "reference de paiement", "référence de paiement",
    "reference", "référence", "communication", "betalingskenmerk", "kenmerk", "omschrijving", "referencia", "concepto",
  ],
  currency: [
    "all amounts in", "amounts shown in", "amounts in", "alle betrage in", "alle beträge in", "betrage in", "beträge in", "montants en", "tous les montants sont en", "importes en", "bedragen in", "alle bedragen in","currency", "währung", "waehrung", "devise", "monnaie", "valuta", "moneda", "mata wang"],
  time: [
    "uhrzeit", "zeit", "heure", "hora", "tijd","time", "zeit", "uhrzeit", "heure", "tijd", "hora", "masa", "waktu"],
  supplier: [
    "from", "rechnungsersteller", "rechnungsaussteller", "auftragnehmer", "verkaeufer/leistungserbringer", "supplier", "seller", "vendor", "issued by", "bill from", "sold by", "verkaeufer", "verkäufer", "lieferant",
    "leistungserbringer", "rechnungssteller", "absender", "fournisseur", "vendeur", "emetteur", "émetteur",
    "leverancier", "verkoper", "proveedor", "vendedor", "emisor", "payee", "beneficiary", "zahlungsempfänger",
  ],
  customer: [
    "bill to", "billed to", "invoice to", "rechnung an", "empfanger", "empfänger", "facturé à", "facture à", "adresse de facturation", "facturar a", "datos del cliente", "destinatario", "factuur aan", "factuuradres", "gefactureerd aan", "klant",
    "bill to", "billed to", "invoice to", "sold to", "to", "customer", "client", "buyer", "auftraggeber",
    "recipient", "attention", "attn", "kaeufer", "käufer", "kunde", "rechnungsempfaenger", "rechnungsempfänger",
    "leistungsempfaenger", "leistungsempfänger", "käufer/leistungsempfänger", "rechnungsadresse", "empfänger",
    "an", "adresse de facturation", "facturé à", "facture a", "destinataire", "acheteur", "klant", "afnemer",
    "factuuradres", "cliente", "facturar a", "comprador",
  ],
  contact: ["tel", "telephone", "phone", "ph", "fax", "hp", "mobile", "email", "e-mail", "mail", "web", "website", "www", "telefon", "tél", "telefoon", "telefono", "contact", "kontakt", "ansprechpartner"],
  name: ["name", "firma", "company", "company name", "business name", "raison sociale", "nom", "denomination", "naam", "bedrijfsnaam", "nombre", "razon social", "nama"],
  address: ["address", "anschrift", "adresse", "adres", "direccion", "dirección", "alamat", "street", "strasse"],
  page: ["page", "seite", "blatt", "pagina", "página", "halaman"],
};

export interface LabelEntry {
  role: LabelRole;
  weight: number;
  /** Number of words the phrase had, used to prefer the more specific of two matches ending at the same word. */
  words: number;
}

function compile(): Map<string, LabelEntry[]> {
  const map = new Map<string, LabelEntry[]>();
  for (const [role, phrases] of Object.entries(PHRASES) as Array<[LabelRole, readonly string[]]>) {
    for (const phrase of phrases) {
      const [text = "", weightText] = phrase.split("|");
      const key = fold(text);
      if (!key) continue;
      const entry: LabelEntry = {
        role,
        weight: weightText ? Number(weightText) : 1,
        words: text.trim().split(/[\s\-/]+/).length,
      };
      const list = map.get(key) ?? [];
      if (!list.some((e) => e.role === role)) list.push(entry);
      map.set(key, list);
    }
  }
  return map;
}

/** Folded phrase -> roles it can label. */
export const LABELS: ReadonlyMap<string, readonly LabelEntry[]> = compile();

/** Longest phrase in characters after folding: bounds the backwards walk over words. */
export const MAX_LABEL_CHARS = Math.max(...[...LABELS.keys()].map((k) => k.length));
