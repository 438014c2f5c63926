/**
 * Parties of invoices read by OCR (issue #15 on scans): marks OCR read over a name's letters (an accent apart from its
 * letter, a speck read as ":"), a window letter's sender line whose small separators OCR lost or read as "-" or ":",
 * a display-size name wrapped over two lines whose words' ink is of unlike height (descenders over capitals), a
 * display name whose legal form OCR dropped while the sender line prints it, a footer's legal name wrapped after
 * "&", and a logo's lettering over the seller's block of the same name. Pages are built here as OCR gives them: word
 * boxes in pixels of a 200 dpi A4 scan, tilted by a slight skew, the box heights those of the ink (the real scans these
 * cases came from gave the heights used).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildLayout } from "../../src/extract/layout.js";
import { invoiceFields } from "../helpers/invoice-fields.js";
import { type Boxed, boxed, boxOf, line, type Read, scan } from "../helpers/scanned-page.js";

/** The rest of an invoice under its parties: number, date, a row, totals, and a footer. */
const BODY: Read[][] = [
  line("Invoice No.: R7439823277", 950, 420),
  line("Invoice date: 19 Oct 2021", 950, 460),
  line("Invoice R7439823277", 120, 640, 34),
  line("1 Team plan (monthly) 2 £120.00 £240.00", 130, 760),
  line("Subtotal £240.00", 950, 900),
  line("VAT 20 % £48.00", 950, 940),
  line("Total £288.00", 950, 980),
  line("Thank you for your business.", 120, 2200),
];

describe("parties of scanned invoices", () => {
  it("reads a name whole when OCR read marks over its letters", () => {
    const document = scan(
      [
        [
          ["Conseil", 95, 113, 48],
          ["Rivière", 344, 109, 46],
          ["SAS", 582, 106, 44],
          ["Facture", 1334, 88, 47],
        ],
        line("Billed to:", 120, 300),
        [
          ["Harbourside", 120, 340, 29],
          ["Consulting", 297, 335, 33],
          ["Pty", 454, 335, 28],
          ["Ltd", 507, 332, 23],
        ],
        line("12 Queen Street", 120, 380),
        line("Sydney NSW 2000", 120, 420),
        ...BODY,
      ],
      [
        // An accent read apart from its letter and specks read as "=" and ":", each over a word's letters.
        ["=", 200, 113, 9, 0.65],
        ["ax", 442, 107, 11, 0.48],
        [":", 383, 336, 4, 0.79],
      ],
    );
    const got = invoiceFields(document);
    assert.equal(got.get("supplier.name"), "Conseil Rivière SAS");
    assert.equal(got.get("customer.name"), "Harbourside Consulting Pty Ltd");
    const rows = buildLayout(document).pages[0]?.rows.map((row) => row.map((s) => s.text).join(" | ")) ?? [];
    assert.equal(rows[0], "Conseil Rivière SAS | Facture");
  });

  it("keeps a sender line whole beside a display name's lower line when a small mark is read above its letters", () => {
    // A scan's reading of a window letter's top: the display name "Alpenland Metallbau" over "(haftungsbeschränkt)"
    // on the right, level with the sender line on the left, whose dots OCR read as "-"; a "=" over the x-height
    // letters "ra" of the display line, on no word's box. Placed first, the "=" opened the row that split the sender
    // line into three segments.
    const got = invoiceFields(
      boxed([
        [
          ["Alpenland", 919, 101, 1230, 158, 0.96],
          ["Metallbau", 1259, 104, 1561, 150, 0.96],
        ],
        [["=", 1444, 234, 1462, 241, 0.71]],
        [["-", 679, 249, 681, 251, 0.93]],
        [
          ["Alpenland", 123, 235, 239, 258, 0.96],
          ["Metallbau", 251, 236, 362, 255, 0.93],
          ["UG", 374, 238, 406, 256, 0.93],
          ["(haftungsbeschränkt)", 417, 238, 667, 262, 0.92],
          ["(", 923, 230, 938, 280, 0.93],
          ["haftu", 947, 230, 1106, 275, 0.92],
          ["ng", 1115, 243, 1186, 286, 0.96],
          ["sbesc", 1193, 233, 1363, 277, 0.93],
          ["h", 1370, 234, 1402, 277, 0.91],
          ["ra", 1410, 245, 1467, 278, 0.97],
          ["n", 1475, 246, 1507, 278, 0.93],
          ["kt)", 1514, 235, 1595, 286, 0.96],
        ],
        [
          ["Industriestraße", 124, 264, 300, 284, 0.96],
          ["106", 312, 267, 352, 284, 0.93],
          ["43646", 378, 267, 450, 285, 0.97],
          ["Dresden", 461, 268, 555, 286, 0.96],
        ],
        [["-", 364, 275, 366, 277, 0.9]],
        [
          ["Hansa", 124, 305, 207, 326, 0.96],
          ["Druck", 220, 305, 299, 328, 0.93],
          ["e.K.", 310, 307, 358, 327, 0.92],
        ],
        [
          ["Industriestraße", 124, 336, 332, 360, 0.97],
          ["100", 345, 338, 393, 360, 0.97],
        ],
        [
          ["21560", 124, 368, 200, 390, 0.96],
          ["Dresden", 212, 368, 318, 390, 0.96],
        ],
        [
          ["Rechnungsnr.:", 950, 420, 1120, 444, 0.95],
          ["KLBH6408-0627", 1340, 420, 1560, 444, 0.95],
        ],
        [
          ["Rechnungsdatum:", 950, 460, 1160, 484, 0.95],
          ["21.09.2024", 1340, 460, 1480, 484, 0.95],
        ],
        [
          ["Gesamtbetrag", 950, 900, 1130, 924, 0.95],
          ["119,00", 1340, 900, 1430, 924, 0.95],
          ["EUR", 1440, 900, 1490, 924, 0.95],
        ],
      ]),
    );
    assert.equal(got.get("customer.name"), "Hansa Druck e.K.");
  });

  for (const [how, separator] of [
    ["read as a dash", "-"],
    ["read as a colon", ":"],
    ["lost", ""],
  ] as const) {
    it(`names the supplier from a sender line whose separators OCR ${how}`, () => {
      const sender = ["Thames Engineering Ltd", "200 High Street", "Leeds LS1 4AB"].join(
        separator ? ` ${separator} ` : " ",
      );
      const got = invoiceFields(
        scan([
          line(sender, 120, 260, 18),
          line("Pennine Joinery Limited", 120, 300),
          line("52 Station Road", 120, 340),
          line("Birmingham B20 8NQ", 120, 380),
          ...BODY,
        ]),
      );
      assert.equal(got.get("supplier.name"), "Thames Engineering Ltd");
      assert.equal(got.get("customer.name"), "Pennine Joinery Limited");
    });
  }

  it("names the supplier from a sender line in small type whose words OCR boxed taller than the address under it", () => {
    // Read on a page levelled by 1°, tesseract gave the sender line's words boxes 29-35 px tall over an address in
    // larger type boxed 21-23 px; its characters still take less width than the address's.
    const sender = line("Thames Engineering Ltd | 200 High Street | Leeds LS1 4AB", 120, 260, 17).map((read): Boxed => {
      const [text, x0, y0, x1, y1, confidence] = boxOf(read);
      return [text, x0, y0 - 7, x1, y1 + 7, confidence];
    });
    const rest = [
      line("Pennine Joinery Limited", 120, 300, 22),
      line("52 Station Road", 120, 340, 22),
      line("Birmingham B20 8NQ", 120, 380, 22),
      ...BODY,
    ];
    const got = invoiceFields(boxed([sender, ...rest.map((read) => read.map(boxOf))]));
    assert.equal(got.get("supplier.name"), "Thames Engineering Ltd");
    assert.equal(got.get("customer.name"), "Pennine Joinery Limited");
  });

  it("does not read the addressee's company right under a sender line as the sender line's wrapped rest", () => {
    const got = invoiceFields(
      scan([
        line("Granite Industries LLC - 120 Elm Street - Denver, CO 80202", 120, 260, 18),
        line("Evergreen Industries Inc.", 120, 290, 20),
        line("310 Oak Avenue", 120, 318, 20),
        line("Denver, CO 80202", 120, 346, 20),
        ...BODY,
      ]),
    );
    assert.equal(got.get("supplier.name"), "Granite Industries LLC");
    assert.equal(got.get("customer.name"), "Evergreen Industries Inc.");
  });

  it("reads the town a sender line wraps after its postcode as its rest, not as the addressee", () => {
    const got = invoiceFields(
      scan([
        line("Laboratoires Rivière SA : 102 chemin des Vignes : 13001", 120, 256, 18),
        line("Marseille", 120, 284, 23),
        line("Laboratoires Moreau SASU", 120, 322, 22),
        line("6 avenue Victor Hugo", 120, 350, 22),
        line("59000 Lille", 120, 378, 22),
        ...BODY,
      ]),
    );
    assert.equal(got.get("customer.name"), "Laboratoires Moreau SASU");
    assert.equal(got.get("supplier.name"), "Laboratoires Rivière SA");
  });

  it("does not read a person's name right under a sender line in its type as the sender line's wrapped rest", () => {
    const got = invoiceFields(
      scan([
        line("Redbrick Consulting LLP - 43 Baker Street - Leeds", 120, 256, 22),
        line("Isla Evans", 120, 284, 22),
        line("95 Baker Street", 120, 314, 22),
        line("London", 120, 344, 22),
        line("JZ5 7AS", 120, 374, 22),
        ...BODY,
      ]),
    );
    assert.equal(got.get("customer.name"), "Isla Evans");
    assert.equal(got.get("supplier.name"), "Redbrick Consulting LLP");
  });

  it("reads the end of a town a sender line leaves unfinished as its rest, not as the addressee's first line", () => {
    const got = invoiceFields(
      scan([
        line("Isartal Consulting e.K. - Schillerstraße 17 - 60311 Frankfurt am", 120, 256, 18),
        line("Main", 120, 280, 18),
        line("Sonnenschein Medien UG (haftungsbeschränkt)", 120, 312, 22),
        line("Lindenallee 36", 120, 342, 22),
        line("15292 Berlin", 120, 372, 22),
        ...BODY,
      ]),
    );
    assert.equal(got.get("customer.name"), "Sonnenschein Medien UG (haftungsbeschränkt)");
  });

  it("reads a display-size name wrapped over two lines as one name when descenders make one line's ink taller", () => {
    const got = invoiceFields(
      scan([
        [
          ["Evergreen", 970, 150, 69],
          ["Supply", 1270, 152, 68],
        ],
        [
          ["Co.", 970, 235, 48],
          ["Inc.", 1060, 235, 48],
        ],
        line("Bill to", 120, 340),
        line("Pioneer Supply Co. LLC", 120, 380),
        line("5415 Elm Street", 120, 420),
        line("Denver, CO 80202", 120, 460),
        ...BODY,
      ]),
    );
    assert.equal(got.get("supplier.name"), "Evergreen Supply Co. Inc.");
  });

  it("takes the legal form a sender line prints where OCR lost it from the display name", () => {
    const got = invoiceFields(
      scan([
        // "Ltd", wrapped alone under the display name, was not read at all.
        [
          ["Outback", 940, 150, 56],
          ["Trading", 1140, 150, 56],
          ["Pty", 1340, 152, 56],
        ],
        line("Outback Trading Pty Ltd · 188 Queen Street · Sydney NSW 2000", 120, 300, 18),
        line("Jack Kelly", 120, 340),
        line("Unit 20, 14 King William Rd", 120, 380),
        line("Adelaide SA 5000", 120, 420),
        ...BODY,
      ]),
    );
    assert.equal(got.get("supplier.name"), "Outback Trading Pty Ltd");
    assert.equal(got.get("customer.name"), "Jack Kelly");
  });

  it("takes an Australian legal form whole when OCR lost the display name's line holding it", () => {
    const got = invoiceFields(
      scan([
        line("Coastal Consulting", 870, 150, 56),
        line("Coastal Consulting Pty Ltd · Unit 9, 347 King William Rd · Hobart TAS 7000", 120, 300, 18),
        line("Banksia Trading Pty. Ltd.", 120, 340),
        line("298 Hay Street", 120, 380),
        line("Brisbane QLD 4000", 120, 420),
        ...BODY,
      ]),
    );
    assert.equal(got.get("supplier.name"), "Coastal Consulting Pty Ltd");
    assert.equal(got.get("customer.name"), "Banksia Trading Pty. Ltd.");
  });

  it("reads a footer's legal name wrapped after its '&' in a narrow column", () => {
    const got = invoiceFields(
      scan([
        line("Nordlicht Metallbau GmbH & Co. KG · Hauptstraße 54b · 44521 Stuttgart", 120, 260, 18),
        line("Bergmann Elektro GmbH", 120, 300),
        line("Lindenallee 93", 120, 340),
        line("29724 Köln", 120, 380),
        ...BODY.slice(0, -1),
        [
          ...line("Nordlicht Metallbau GmbH &", 190, 2150, 19),
          ...line("Geschäftsführer: Felix Richter", 560, 2150, 19),
        ],
        [...line("Co. KG", 190, 2180, 19), ...line("Amtsgericht München HRB 45585", 560, 2180, 19)],
        line("Hauptstraße 54b", 190, 2210, 19),
      ]),
    );
    assert.equal(got.get("supplier.name"), "Nordlicht Metallbau GmbH & Co. KG");
  });
  it("does not take the addressee for display type when OCR stretched one word's box on a skewed page", () => {
    // tesseract's single-block reading of a window letter turned by 0.8° boxed "Muster" 42 px tall beside "GmbH"'s
    // 20 px: the line's median then made the addressee twice the body's height, over the sender's name at the top.
    const document = scan([
      line("Alphabet Fuhrparkmanagement GmbH", 500, 100, 20),
      line("Lilienthalallee 26, 80786 München", 500, 125, 20),
      line("USt-IdNr. DE238574172", 500, 150, 20),
      [...line("Muster GmbH", 225, 530, 20), ...line("Rechnungsnummer: 2015738820", 930, 530, 20)],
      [...line("z. Hd. Herr Mustermann", 225, 560, 20), ...line("München, den 01.11.2024", 930, 560, 20)],
      line("Musterweg 1", 225, 590, 20),
      line("60325 Frankfurt am Main", 225, 620, 20),
      line("Rechnung", 700, 700, 30),
      line("Nettobetrag 376,37", 200, 900, 20),
      line("MwSt. 19,00% 71,51", 200, 930, 20),
      line("Bruttobetrag 447,88", 200, 960, 20),
    ]);
    const muster = document.pages[0]?.words.find((w) => w.text === "Muster");
    assert.ok(muster);
    muster.box = { ...muster.box, y0: muster.box.y0 - 22 / 2400 };
    const got = invoiceFields(document);
    assert.equal(got.get("supplier.name"), "Alphabet Fuhrparkmanagement GmbH");
    assert.equal(got.get("customer.name"), "Muster GmbH");
  });

  it("names the supplier from the block its own mailbox closes when a logo's lettering is the display line", () => {
    // A born-digital invoice's logo is a picture; its scan's OCR reads the picture's lettering as the top line.
    const got = invoiceFields(
      scan([
        line("HOTEL PARIS", 130, 300, 40),
        [...line("FACTURE", 1300, 300, 30)],
        line("20/09/2023", 1350, 350),
        line("nº 2023-6013", 1340, 390),
        line("Société Hôtelière du Pacano", 130, 520),
        line("2, rue de la Paix", 130, 560),
        line("75000 Paris", 130, 600),
        line("France", 130, 640),
        line("+33 1 01 12 34 56", 130, 680),
        line("info@hotel-du-pacano.fr", 130, 720),
        line("Securibox SARL", 1100, 730),
        line("27, Rue de Bassano", 1100, 770),
        line("75008 Paris", 1100, 810),
        line("France", 1100, 850),
        line("Montant Total HT 1.245,30 €", 1000, 1500),
        line("Total TVA 123,54 €", 1000, 1540),
        line("Montant Total TTC 1.368,84 €", 1000, 1580),
      ]),
    );
    assert.equal(got.get("supplier.name"), "Société Hôtelière du Pacano");
    assert.equal(got.get("customer.name"), "Securibox SARL");
  });
  it("reads a display name whole when its legal form wraps alone under it in taller ink", () => {
    // Boxes as OCR gave them on a scan turned 2.5°: brackets and descenders give "(haftungsbeschränkt)" ink half
    // again as tall as the name over it.
    const got = invoiceFields(
      boxed([
        [
          ["Alpenland", 191, 85, 492, 152, 0.96],
          ["Technik", 513, 101, 739, 154, 0.93],
          ["UG", 763, 114, 843, 160, 0.92],
          ["RECHNUNG", 1271, 141, 1601, 199, 0.96],
        ],
        [["(haftungsbeschränkt)", 194, 146, 840, 231, 0.9]],
        [
          ["Rechnung", 189, 239, 335, 271, 0.96],
          ["an:", 346, 253, 391, 271, 0.96],
          ["Rechnungsnr.", 928, 287, 1077, 314, 0.92],
          ["2025488861", 1258, 300, 1423, 330, 0.96],
        ],
        [
          ["Paul", 189, 269, 239, 293, 0.96],
          ["Fischer", 253, 271, 343, 298, 0.96],
        ],
        [
          ["Gartenweg", 186, 301, 330, 332, 0.93],
          ["125", 340, 309, 388, 330, 0.96],
          ["Rechnungsdatum:", 926, 332, 1128, 362, 0.9],
          ["25.07.2025", 1255, 346, 1404, 378, 0.96],
        ],
        [
          ["11769", 184, 330, 266, 354, 0.96],
          ["Hamburg", 277, 335, 396, 367, 0.96],
        ],
        [
          ["Gesamtbetrag", 926, 900, 1100, 928, 0.95],
          ["119,00", 1255, 905, 1345, 933, 0.95],
          ["EUR", 1355, 906, 1405, 934, 0.95],
        ],
      ]),
    );
    assert.equal(got.get("supplier.name"), "Alpenland Technik UG (haftungsbeschränkt)");
    assert.equal(got.get("customer.name"), "Paul Fischer");
  });

  it("takes the seller's block that a logo's lettering names, not the lettering alone", () => {
    // A scan of a page whose logo (a picture on the born-digital page) OCR read as "halvard-" top right, over the
    // seller's block "HALVARD NORDIC" on the right, level with the customer's block on the left.
    const got = invoiceFields(
      scan([
        line("Invoice 104882", 120, 90, 30),
        [["halvard-", 1240, 150, 44, 0.78]],
        line("March 3, 2026", 120, 160),
        [...line("Brightwater Industries", 120, 330), ...line("HALVARD NORDIC", 1240, 330)],
        [...line("Harbour Road, 21", 120, 370), ...line("Kongens gate 14", 1240, 370)],
        [...line("48436 Leeds", 120, 410), ...line("0153 Oslo", 1240, 410)],
        line("Norway", 1240, 450),
        line("Description Quantity Unit Price Amount", 120, 700),
        line("Desk chair, blue 3 191.00 573.00", 120, 740),
        line("Subtotal 573.00", 950, 900),
        line("VAT 25% 143.25", 950, 940),
        line("Total 716.25", 950, 980),
      ]),
    );
    assert.equal(got.get("supplier.name"), "HALVARD NORDIC");
    assert.equal(got.get("customer.name"), "Brightwater Industries");
  });

  it("names the supplier from its mailbox block when a logo's lettering, close above it, took the block's address", () => {
    // The lettering's reading runs on into the block under it and keeps its address, passing over the block's name
    // (the words and boxes of a scan this came from).
    const got = invoiceFields(
      scan([
        [
          ["HOTEL", 182, 295, 34, 0.93],
          ["Ke", 338, 299, 13, 0.53],
          ["PARIS", 407, 301, 33, 0.97],
        ],
        [
          ["***", 328, 282, 69, 0.92],
          ["20/09/2023", 1452, 355, 31, 0.97],
        ],
        [
          ["nº", 1428, 395, 21, 0.49],
          ["2023-6013", 1464, 397, 25, 0.97],
        ],
        line("Société Hôtelière du Pacano", 173, 476),
        line("2, rue de la Paix", 173, 518),
        line("75000 Paris", 172, 557),
        line("France", 171, 596),
        line("+33 1 01 12 34 56", 169, 638),
        line("info@hotel-du-pacano.fr", 168, 676),
        line("Securibox SARL", 1150, 745),
        line("27, Rue de Bassano", 1150, 785),
        line("75008 Paris", 1150, 825),
        line("France", 1150, 865),
        line("Montant Total HT 1.245,30 €", 1000, 1400),
        line("Total TVA 123,54 €", 1000, 1440),
        line("Montant Total TTC 1.368,84 €", 1000, 1480),
      ]),
    );
    assert.equal(got.get("supplier.name"), "Société Hôtelière du Pacano");
    assert.equal(got.get("supplier.address"), "2, rue de la Paix, 75000 Paris, France");
    // The lettering passed over is nobody's: the customer is the block on the right.
    assert.equal(got.get("customer.name"), "Securibox SARL");
  });

  it("takes the block a logo's lettering names when the block's lines were taken for the lettering's address", () => {
    // The same logo close above the seller's block: the lines under the lettering read as its address.
    const got = invoiceFields(
      scan([
        [["halvard-", 1240, 80, 44, 0.78]],
        [...line("Brightwater Industries", 120, 200), ...line("HALVARD NORDIC", 1240, 200)],
        [...line("Harbour Road, 21", 120, 240), ...line("Kongens gate 14", 1240, 240)],
        [...line("48436 Leeds", 120, 280), ...line("0153 Oslo", 1240, 280)],
        line("Norway", 1240, 320),
        ...BODY,
      ]),
    );
    assert.equal(got.get("supplier.name"), "HALVARD NORDIC");
    assert.equal(got.get("supplier.address"), "Kongens gate 14, 0153 Oslo, Norway");
  });
});
