/**
 * The language of a page's second OCR reading, chosen from its first, English reading (src/ingest/ocr/languages.ts).
 * The readings below are what `tesseract --psm 6 -l eng` makes of scanned pages: accents lost ("Miinchen",
 * "GoethestraBe"), words split, and more figures than words.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pageLanguage } from "../../src/ingest/ocr/languages.js";

const words = (text: string) => text.split(/\s+/).map((w) => ({ text: w }));

/**
 * A German invoice of many priced rows, read with English: figures shrink franc's margin over English (0.014 here)
 * below the 0.02 that once decided.
 */
const GERMAN_ROWS = `Rec hnung Hoffmann Technik UG (haftungsbeschrankt) LindenstraBe 12 50667 Koln Deutschland Fon +49 221 5550182
UStID: DE 812 440 913 Hoffmann Technik UG (haftungsbeschrankt) LindenstraBe 12 - 50667 Kdin Belegdatum: 3.9.2024
Rechnung an: Rechnungsnummer: 5520913 Weber Logistik GmbH Debitor: 31022 Am Hafen 8 28195 Bremen Deutschland
Betrage in EUR Artikel Anzahl E-Preis Gesamtpreis
Wartung Server 12 88,50 1.062,00
S oftwarelizenz (jahrlich) 1 49,00 49,00
Netzwerkkabel CAT6 5m 30 3,29 98,70
Monitor 27 Zoll 4 219,90 879,60
Reisekosten 1 66,00 66,00
Burostuhl, ergonomisch 6 124,00 744,00
Versandkosten 1 25,98 25,98
Projektmanagement 3 678,55 2.035,65
Grafikdesign Logo 14 59,84 837,76
Wartung Webseite 14 2.714,11 37.997,54
Cloud-Hosting (monatlich) 13 590,01 7.670,13
Druckerpapier A4 (5 Pakete) 15 9,38 140,70
Summe netto: 2.925,28 Umsatzsteuer 19 %: 555,80 Rechnungsbetrag: 3.481,08 Seite 1 von1
Telefon 449 221 5550182 IBAN: DE12 3704 0044 0532 0130 00 BIC: COBADEFF XXX 50667 Koln Deutschland`;

/** A Spanish invoice whose dates and items print "de" ("3 de marzo de 2023", "caja de 5"): "de" once voted Dutch. */
const SPANISH_DE = `Marta Lopez Factu ra Plaza de Espafa 14 28013 Madrid Tel. +34 915 510 465 Jorge Navarro Calle de Toledo 36, 2°
50001 Zaragoza Fecha factura Factura n.& Fecha de pago 3 de marzo de 2023 RE-40417 3 de abril de 2023
Servicio Cant. Precio Subtotal Mantenimiento web 12 26,00 312,00 SP-10071 Papel A4 (caja de 5) 2 19,40 38,80
Cable de red CAT6 5 m 4 13,99 55,96 Alojamiento en la nube (mensual) 1 36,63 36,63 Gastos de envio 1 9,00 9,00
Curso de formacion 3 70,68 212,04 Base imponible 664,43 € Cuota IVA 21% 139,53 € Total 803,96 €`;

const ENGLISH_RECEIPT = `TESCO STORES LTD 21 High Street Leeds LS1 4AB VAT No GB 220 4302 31 MILK 2L 1.45 BREAD 1.10
BANANAS 0.89 CHEESE 3.20 TOTAL 6.64 CASH 10.00 CHANGE 3.36 Thank you for shopping with us 12/03/2019 14:22`;

const MALAYSIAN_RECEIPT = `KEDAI RUNCIT ANEKA SDN BHD (123456-X) NO 12 JALAN TAMAN MELATI 3 TAMAN MELATI 53100 KUALA
LUMPUR TEL 03-4108 1234 RESIT TUNAI TARIKH 12/03/2019 MILO 3IN1 12.90 ROTI 2.50 JUMLAH 15.40 TUNAI 20.00 BAKI 4.60
TERIMA KASIH SILA DATANG LAGI`;

/**
 * A Portuguese invoice read with English (accents lost: "Preco", "Manutencao"): "de" on every line and "IVA" voted
 * Spanish while no Portuguese word was counted.
 */
const PORTUGUESE_ROWS = `Fornecedor Lda FATURA FT 2026/118 Rua das Flores 92 4050-262 Porto Data 12/03/2026 NIF 509 442 013
# Produto Quantidade Preco unitario IVA Montante 1 Servicos de consultoria LK-63631 1 96,21 23% 96,21
2 Papel A4 (caixa de 5) GU-61104 40 17,15 23% 686,00 3 Desconto comercial 10% 23% -3,90
4 Manutencao do site GK-94748 1 362,16 23% 362,16 5 Servicos de consultoria 36 260,17 23% 9 366,12
6 Licenca de software anual EW-74738 39 53,00 23% 2 067,00 7 Portes XH-03693 1 78,00 23% 78,00
Total sem IVA 12 651,75 IVA 23% 2 909,90 Total 15 561,65 Vencimento 11/04/2026`;

/** An Italian invoice read with English ("quantita", "Quantita" for "quantità"). */
const ITALIAN_ROWS = `Rossi Forniture S.r.l. Via Roma 12 20121 Milano FATTURA N. 2026/88 Data 03/03/2026 P.IVA IT01234567890
Descrizione Quantita Prezzo unitario Sconto Importo Manutenzione impianto annuale 2 100,00 200,00
Licenza software 1 49,00 49,00 Carta A4 (confezione da 5) 10 3,90 39,00 Spese di spedizione 1 9,00 9,00
Totale imponibile 297,00 IVA 22% 65,34 Totale fattura 362,34 Scadenza 02/04/2026 Codice IBAN IT60X0542811101000000123456`;

describe("the language of a page's second reading", () => {
  it("reads Portuguese and Italian pages read with English as themselves, not Spanish", () => {
    assert.equal(pageLanguage(words(PORTUGUESE_ROWS)), "por");
    assert.equal(pageLanguage(words(ITALIAN_ROWS)), "ita");
  });

  it("reads a German page of many figures read with English as German", () => {
    assert.equal(pageLanguage(words(GERMAN_ROWS)), "deu");
  });

  it("reads a Spanish page that prints 'de' on every line as Spanish, not Dutch", () => {
    assert.equal(pageLanguage(words(SPANISH_DE)), "spa");
  });

  it("leaves English and Malay receipts to English", () => {
    assert.equal(pageLanguage(words(ENGLISH_RECEIPT)), undefined);
    assert.equal(pageLanguage(words(MALAYSIAN_RECEIPT)), undefined);
  });
});
