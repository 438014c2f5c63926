/**
 * Parties of invoices read by OCR (issue #15 on scans): marks OCR read over a name's letters (an accent apart from its
 * letter, a speck read as ":"), a window letter's sender line whose small separators OCR lost or read as "-" or ":",
 * a display-size name wrapped over two lines whose words' ink is of unlike height (descenders over capitals), a
 * display name whose legal form OCR dropped while the sender line prints it, and a footer's legal name wrapped after
 * "&". Pages are built here as OCR gives them: word boxes in pixels of a 200 dpi A4 scan, tilted by a slight skew,
 * the box heights those of the ink (the real scans these cases came from gave the heights used).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Word } from "../../src/document/model.js";
import { buildLayout } from "../../src/extract/layout.js";
import { invoiceFields } from "../helpers/invoice-fields.js";

const WIDTH = 1700;
const HEIGHT = 2400;
/** dy/dx of the scan: enough for extraction to regroup rows on levelled coordinates. */
const SKEW = 0.008;

/** A word as OCR read it: its text, left edge, top and height in pixels (its width from its letters), confidence. */
type Read = readonly [text: string, x: number, top: number, height: number, confidence?: number];

/** A word as OCR boxed it: its text, its box's corners in pixels, its confidence. */
type Boxed = readonly [text: string, x0: number, y0: number, x1: number, y1: number, confidence: number];

/** A page of words as OCR boxed them, each array one OCR line. */
function boxed(lines: readonly (readonly Boxed[])[]): Document {
  const words: Word[] = [];
  const ids = lines.map((line) =>
    line.map(([text, x0, y0, x1, y1, confidence]) => {
      const box = { x0: x0 / WIDTH, y0: y0 / HEIGHT, x1: x1 / WIDTH, y1: y1 / HEIGHT };
      words.push({ id: words.length, text, box, source: "ocr", confidence });
      return words.length - 1;
    }),
  );
  const box = { x0: 0, y0: 0, x1: 1, y1: 1 };
  return {
    type: "png",
    pages: [
      {
        pageNum: 1,
        width: WIDTH,
        height: HEIGHT,
        source: "ocr",
        words,
        lines: ids.map((wordIds) => ({ wordIds, box })),
      },
    ],
  };
}

/**
 * An OCR'd page tilted by SKEW: each line's words as given (their widths from their letters); marks
 * (`[text, x, top, height, confidence]`) as lines of their own, before the print.
 */
function scan(lines: readonly (readonly Read[])[], marks: readonly Read[] = []): Document {
  const boxOf = ([text, x, top, height, confidence = 0.95]: Read): Boxed => {
    const width = Math.max(6, text.length * height * 0.45);
    const y = top + SKEW * (x + width / 2);
    return [text, x, y, x + width, y + height, confidence];
  };
  return boxed([...marks.map((m) => [boxOf(m)]), ...lines.map((line) => line.map(boxOf))]);
}

/** Words of a line of body text (24 px) from `x`, one space apart. */
function line(text: string, x: number, top: number, height = 24): Read[] {
  const out: Read[] = [];
  let cursor = x;
  for (const token of text.split(" ")) {
    out.push([token, cursor, top, height]);
    cursor += token.length * height * 0.45 + height * 0.5;
  }
  return out;
}

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
});
