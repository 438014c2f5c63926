import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Document, Line, Word } from "../../src/document/model.js";
import { buildLayout } from "../../src/extract/layout.js";
import { merchant } from "../../src/extract/parties.js";

/**
 * The top of a till receipt as OCR delivers it: one left-aligned Line per row at row index * 18 px, words 8 px per
 * character wide. A row is its text, or [text, confidence] for words OCR doubted.
 */
function receipt(rows: Array<string | [string, number]>): Document {
  const width = 400;
  const height = 18 * rows.length + 40;
  const words: Word[] = [];
  const lines: Line[] = [];
  rows.forEach((row, r) => {
    const [text, confidence] = typeof row === "string" ? [row, 0.95] : row;
    const y0 = (20 + r * 18) / height;
    const y1 = (32 + r * 18) / height;
    const ids: number[] = [];
    let cursor = 40;
    for (const token of text.split(" ")) {
      const w = token.length * 8;
      words.push({
        id: words.length,
        text: token,
        box: { x0: cursor / width, y0, x1: (cursor + w) / width, y1 },
        source: "ocr",
        confidence,
      });
      ids.push(words.length - 1);
      cursor += w + 8;
    }
    lines.push({ wordIds: ids, box: { x0: 40 / width, y0, x1: (cursor - 8) / width, y1 } });
  });
  return { type: "jpeg", pages: [{ pageNum: 1, width, height, source: "ocr", words, lines }] };
}

/** Rows a receipt prints under its header: they end the address and are never part of it. */
const FOOTER = ["TEL: 03-8734 1234", "TAX INVOICE", "Date: 11/01/2019 14:05", "BREAD 1 2.50", "TOTAL 2.50"];

function party(rows: Array<string | [string, number]>) {
  return merchant(buildLayout(receipt([...rows, ...FOOTER])));
}

describe("merchant address", () => {
  it("stops after the postcode line and its region, before a till line without digits", () => {
    const { address } = party([
      "BLUE LEAF TRADING LTD",
      "LOT 5, MAPLE ROAD",
      "12345 SPRINGFIELD",
      "PREPAY CHIT NUMBER",
      "57361",
    ]);
    assert.equal(address.best?.value, "LOT 5, MAPLE ROAD, 12345 SPRINGFIELD");
  });

  it("keeps one region line after the postcode, then stops at the next", () => {
    const { address } = party(["BLUE LEAF TRADING LTD", "12 MAPLE ROAD", "40150 HILLTOWN", "NORTH PROVINCE", "SOUTH"]);
    assert.equal(address.best?.value, "12 MAPLE ROAD, 40150 HILLTOWN, NORTH PROVINCE");
  });

  it("drops a branch or possessive trading-name line above the street line", () => {
    const branch = party(["Corner Books Ltd", "Westfield Outlet", "No.41G, Market Road", "47400 Eastville"]);
    assert.equal(branch.address.best?.value, "No.41G, Market Road, 47400 Eastville");
    const possessive = party(["Chicken House Ltd", "Tony's 1 Riverside", "Unit G-13, Ground Floor", "50480 Lakeside"]);
    assert.equal(possessive.address.best?.value, "Unit G-13, Ground Floor, 50480 Lakeside");
  });

  it("ends on a line closing with a country", () => {
    const { address } = party(["BLUE LEAF TRADING LTD", "Hauptstraße 8", "10115 Berlin, Germany", "CITY MALL"]);
    assert.equal(address.best?.value, "Hauptstraße 8, 10115 Berlin, Germany");
  });

  it("keeps the address part of a line that goes on with a phone number", () => {
    const { address } = party([
      "BLUE LEAF TRADING LTD",
      "No.1, Maple Road 10/5",
      "81750 Hilltown. Tel No.: 07-387 3322",
    ]);
    assert.equal(address.best?.value, "No.1, Maple Road 10/5, 81750 Hilltown.");
  });

  it("skips a labelled site number and a broken web address", () => {
    const { address } = party([
      "SUN PETROL LTD",
      "Site: 1046",
      "176 MAPLE ROAD",
      "57100 HILLTOWN",
      "wwe .sunpetrol . com",
    ]);
    assert.equal(address.best?.value, "176 MAPLE ROAD, 57100 HILLTOWN");
  });

  it("prefers the block that reads as an address over a garbled line right under the name", () => {
    const { address } = party([
      "POPULAR BOOK CO. LTD",
      ["(COmmNGs es I S825-W", 0.3],
      "(GST Reg No. 001492992000)",
      "No 8 Maple Road 7/118B, Green Park",
      "56000 Hilltown",
    ]);
    assert.equal(address.best?.value, "No 8 Maple Road 7/118B, Green Park, 56000 Hilltown");
  });

  it("scores an address with misread signs and doubtful words below a clean one", () => {
    const clean = party(["BLUE LEAF TRADING LTD", "NO 4, MAPLE ROAD 10", "81700 HILLTOWN"]).address.best;
    const garbled = party(["BLUE LEAF TRADING LTD", ["NO 4, MAPLE R0AD 10", 0.4], "§1700 HILLT$WN"]).address.best;
    assert.ok(clean && garbled);
    assert.ok(clean.score > garbled.score + 0.5, `${clean.score} vs ${garbled.score}`);
  });

  it("scores item lines with prices below a street address", () => {
    const items = party(["BLUE LEAF TRADING LTD", "TAX INVOICE", "BRIEF CARD 1 X 3.9000 3.90"]).address.best;
    const street = party(["BLUE LEAF TRADING LTD", "12 MAPLE ROAD", "40150 HILLTOWN"]).address.best;
    assert.ok(street && items && street.score > items.score + 1);
  });
});

describe("merchant address around the name", () => {
  it("reads the address column of a row whose other column is a phone line", () => {
    const width = 400;
    const doc = receipt(["BLUE LEAF TRADING LTD", "UNIT 105, BLOCK A,", "NO. 9, MAPLE ROAD", ...FOOTER]);
    const page = doc.pages[0];
    assert.ok(page);
    // A second column on the row of the street line: "Careline : 1800 88 1231".
    const row = page.lines[2];
    assert.ok(row);
    const y = { y0: row.box.y0, y1: row.box.y1 };
    for (const [i, text] of ["Careline", ":", "1800", "88", "1231"].entries()) {
      const x0 = (250 + i * 30) / width;
      page.words.push({
        id: page.words.length,
        text,
        box: { x0, x1: x0 + 24 / width, ...y },
        source: "ocr",
        confidence: 0.95,
      });
      row.wordIds.push(page.words.length - 1);
    }
    row.box = { ...row.box, x1: (250 + 5 * 30) / width };
    const { address } = merchant(buildLayout(doc));
    assert.equal(address.best?.value, "UNIT 105, BLOCK A, NO. 9, MAPLE ROAD");
  });

  it("takes the address printed above the name when nothing below reads as one", () => {
    const { address } = party(["NO. 31G, MAPLE ROAD", "40170 HILLTOWN", "Owned By:", "BLUE LEAF SUPPLY LTD"]);
    assert.equal(address.best?.value, "NO. 31G, MAPLE ROAD, 40170 HILLTOWN");
  });

  it("leaves out a line carrying a registration number and a speck before an upper-case line", () => {
    const { address } = party([
      "BLUE LEAF TRADING LTD",
      "Co No: SA0127959-D",
      "LOT 485, MAPLE ROAD",
      "i 54200 HILL TOWN",
    ]);
    assert.equal(address.best?.value, "LOT 485, MAPLE ROAD, 54200 HILL TOWN");
  });
});

describe("merchant name", () => {
  it("drops quotes and bars OCR put around the name", () => {
    assert.equal(party(["“BLUE LEAF TRADING LTD", "12 MAPLE ROAD"]).name.best?.value, "BLUE LEAF TRADING LTD");
    assert.equal(party(["BLUE LEAF TRADING LTD |", "12 MAPLE ROAD"]).name.best?.value, "BLUE LEAF TRADING LTD");
  });

  it("drops a short lower-case speck word beside an upper-case name, not a particle", () => {
    assert.equal(party(["PRINT EXPERT LTD beg", "12 MAPLE ROAD"]).name.best?.value, "PRINT EXPERT LTD");
    assert.equal(party(["TASTE of THE WORLD LTD", "12 MAPLE ROAD"]).name.best?.value, "TASTE of THE WORLD LTD");
  });

  it("scores a name with a stray one-letter token below the same name without it", () => {
    const clean = party(["BLUE LEAF TRADING", "12 MAPLE ROAD"]).name.best;
    const stray = party(["Q BLUE LEAF TRADING", "12 MAPLE ROAD"]).name.best;
    assert.ok(clean && stray && clean.score > stray.score + 0.5, `${clean?.score} vs ${stray?.score}`);
  });
});

describe("merchant name below a logo and over lines", () => {
  /** What OCR makes of a logo: rows of short doubtful "words". */
  const LOGO: Array<[string, number]> = [
    ["ee", 0.22],
    ["Riese et", 0.1],
    ["Re ,", 0.3],
    ["oA ae", 0.3],
    ["hee", 0.25],
    ["Bae Sane", 0.2],
    ["AD 3", 0.2],
    ["eee", 0.08],
    ["RAS Pe", 0.15],
    ["Sep bly", 0.2],
  ];

  it("counts rows by the text they hold, so rows of logo specks do not push the name out of reach", () => {
    const { name } = party([...LOGO, "SUNNY REST AND SERVICE AREA", "LOT R1, MAPLE ROAD", "84600 HILLTOWN"]);
    assert.equal(name.best?.value, "SUNNY REST AND SERVICE AREA");
  });

  it("prefers a name read with confidence over a doubtful row above it", () => {
    const { name } = party([
      ["Se iene eee", 0.27],
      "Cashier [ANNE] Machine [003]",
      "Tel: 03-6258 0869",
      "GST No: 001329332224",
      "[19/06/17] [11:37]",
      "FIVE STAR CASH & CARRY",
      "G.23, Plaza Maple,",
      "47300 Hilltown",
    ]);
    assert.equal(name.best?.value, "FIVE STAR CASH & CARRY");
  });

  it("follows a name over an open bracket to the legal form that ends it", () => {
    const { name } = party([
      "AIK HUAT HARDWARE",
      ["ENTERPRISE (MAPLE", 0.8],
      "HILL). SUN BHD",
      "NO. 17-G, MAPLE ROAD",
      "40170 HILLTOWN",
    ]);
    assert.equal(name.best?.value, "AIK HUAT HARDWARE ENTERPRISE (MAPLE HILL). SDN BHD");
  });

  it("joins the legal name printed under a trading name, without its registration number", () => {
    const { name } = party(["BLUE LEAF STATIONER", "Blue Leaf Enterprise Sdn Bhd (82256-V)", "No.41G, Maple Road"]);
    assert.equal(name.best?.value, "BLUE LEAF STATIONER Blue Leaf Enterprise Sdn Bhd");
  });

  it("does not carry a name on to a line with digits or one that never reaches a legal form", () => {
    const address = party(["BLUE LEAF HARDWARE", "12 MAPLE ROAD SDN BHD", "40150 HILLTOWN"]).name.best?.value;
    assert.equal(address, "BLUE LEAF HARDWARE");
    const open = party(["BLUE LEAF HARDWARE", "(MAPLE BRANCH", "HILLTOWN", "12 MAPLE ROAD"]).name.best?.value;
    assert.equal(open, "BLUE LEAF HARDWARE");
  });
});

describe("merchant address after a registration line", () => {
  it("leaves out a registration number behind a label OCR glued to it", () => {
    const { address } = party([
      "BLUE LEAF TRADING SDN BHD",
      "Co-REGi:860671-D",
      "LOT 1851-A, MAPLE ROAD 6,",
      "43300 HILLTOWN",
    ]);
    assert.equal(address.best?.value, "LOT 1851-A, MAPLE ROAD 6, 43300 HILLTOWN");
  });
});

describe("receipt header repair against the rest of the header", () => {
  it("puts right a postcode whose first digit contradicts the state named after it", () => {
    const { address } = party(["BLUE LEAF TRADING SDN BHD", "NO 8, JALAN MERANTI 3,", "96000 KUALA LUMPUR"]);
    assert.equal(address.best?.value, "NO 8, JALAN MERANTI 3, 56000 KUALA LUMPUR");
  });

  it("maps a letter read for a digit of a postcode and leaves a postcode of the named state alone", () => {
    assert.equal(
      party(["BLUE LEAF TRADING SDN BHD", "NO 8, JALAN MERANTI 3,", "B1750 MASAI JOHOR"]).address.best?.value,
      "NO 8, JALAN MERANTI 3, 81750 MASAI JOHOR",
    );
    assert.equal(
      party(["BLUE LEAF TRADING SDN BHD", "NO 8, JALAN MERANTI 3,", "43000 KAJANG SELANGOR"]).address.best?.value,
      "NO 8, JALAN MERANTI 3, 43000 KAJANG SELANGOR",
    );
  });

  it("splits place words OCR ran together and repairs glyphs read for others ('rn' for 'm')", () => {
    const { address } = party(["BLUE LEAF TRADING SDN BHD", "NO 8, JALAN PERRNAS 3,", "81100 JOHOR BAHRUJOHOR"]);
    assert.equal(address.best?.value, "NO 8, JALAN PERMAS 3, 81100 JOHOR BAHRU JOHOR");
  });

  it("repairs a trade word of the name read as other glyphs ('N' for 'M')", () => {
    assert.equal(
      party(["99 SPEED NART S/B", "NO 8, JALAN MERANTI 3,", "43000 KAJANG"]).name.best?.value,
      "99 SPEED MART S/B",
    );
  });

  it("drops a shop's name line above the line the address starts on, not a building", () => {
    assert.equal(
      party(["BLUE LEAF TRADING SDN BHD", "ACME CHERAS", "NO 2A, JALAN MERANTI,", "55100 KUALA LUMPUR"]).address.best
        ?.value,
      "NO 2A, JALAN MERANTI, 55100 KUALA LUMPUR",
    );
    assert.equal(
      party(["BLUE LEAF TRADING SDN BHD", "PARADIGM MALL", "LOT 4F-27, 4TH FLOOR"]).address.best?.value,
      "PARADIGM MALL, LOT 4F-27, 4TH FLOOR",
    );
  });

  it("keeps the state printed on its own line after the town line, and spelt out at length", () => {
    assert.equal(
      party(["BLUE LEAF TRADING SDN BHD", "NO.17, JALAN BESAR,", "39100 BRINCHANG,", "CAMERON HIGHLANDS,", "PAHANG"])
        .address.best?.value,
      "NO.17, JALAN BESAR, 39100 BRINCHANG, CAMERON HIGHLANDS, PAHANG",
    );
    assert.equal(
      party([
        "BLUE LEAF TRADING SDN BHD",
        "NO: G3, JLN PJU 1A/3,",
        "ARA DAMANSARA, 47301",
        "PETALING JAYA, SELANGOR DARUL EHSAN.",
      ]).address.best?.value,
      "NO: G3, JLN PJU 1A/3, ARA DAMANSARA, 47301, PETALING JAYA, SELANGOR DARUL EHSAN.",
    );
  });

  it("keeps a chain store's outlet line printed under the postcode and state", () => {
    const { address } = party([
      "BLUE LEAF MART S/B",
      "LOT 12, JALAN MERANTI,",
      "41150 KLANG, SELANGOR",
      "1245-DESA HARTAMAS",
      "GST ID NO : 000181747712",
    ]);
    assert.equal(address.best?.value, "LOT 12, JALAN MERANTI, 41150 KLANG, SELANGOR, 1245-DESA HARTAMAS");
  });
});

describe("receipt name over two rows and around numbers", () => {
  it("joins the row a name continues on after an '&'", () => {
    const { name } = party(["HOME LEAF HARDWARE &", "ELECTRICAL", "NO 8, JALAN MERANTI 3,", "43000 KAJANG"]);
    assert.equal(name.best?.value, "HOME LEAF HARDWARE & ELECTRICAL");
  });

  it("takes the row above a row that is only a kind of business and a legal form", () => {
    const { name } = party(["LIAN CHI PU VEGETARIAN", "RESTAURANT SDN BHD", "(1095514-X)", "NO 8, JALAN MERANTI 3,"]);
    assert.equal(name.best?.value, "LIAN CHI PU VEGETARIAN RESTAURANT SDN BHD");
  });

  it("drops a till number before the name, a registration label row, and reads 'S/B' as OCR misreads it", () => {
    assert.equal(
      party(["#000002 BAIFU (M) SDN BHD", "COMPANY NO(814198-X)", "NO 8, JALAN MERANTI 3,"]).name.best?.value,
      "BAIFU (M) SDN BHD",
    );
    assert.equal(party(["99 SPEED MART 5/B", "NO 8, JALAN MERANTI 3,"]).name.best?.value, "99 SPEED MART S/B");
  });

  it("keeps a bracket OCR left open before a registration number in brackets", () => {
    const { name } = party(["THE STORE (MALAYSIA SDN BHD (8199K)", "NO 8, JALAN MERANTI 3,"]);
    assert.equal(name.best?.value, "THE STORE (MALAYSIA SDN BHD");
  });

  it("ends a name on its legal form, without the doubtful short tokens OCR read after it", () => {
    const { name } = party([["SHH MOTOR SDN BHD CA Fal", 0.7], "NO 8, JALAN MERANTI 3,"]);
    assert.equal(name.best?.value, "SHH MOTOR SDN BHD");
  });
});
