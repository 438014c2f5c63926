/**
 * Whose a value is, by the heading its column opens under: "Vos identifiants", "Your details", "Ihre Angaben" head the
 * addressee's numbers, "Nos références", "Our details", "Unsere Angaben" the sender's. A pure reading of the layout.
 */
import type { Layout, LineSegment } from "./layout.js";

/** Second-person possessives that open a heading (en, fr, de, nl, es, it, pt). */
const YOURS = new Set(["your", "vos", "votre", "ihre", "ihr", "uw", "su", "sus", "vostro", "vostra", "vostri", "seu"]);
/** First-person plural possessives: the sender speaking of itself. */
const OURS = new Set([
  "our",
  "nos",
  "notre",
  "unsere",
  "unser",
  "onze",
  "nuestro",
  "nuestra",
  "nostro",
  "nostri",
  "nosso",
]);

/** Rows above the value searched for its heading: a heading sits over a block of a few label-value lines. */
const ROWS_UP = 8;
/** Words a heading holds at most ("Vos identifiants", "Your company details"). */
const HEADING_WORDS = 4;
/** How far, as a share of the page's width, a heading's left edge may stand from the value's line. */
const COLUMN_ALIGN = 0.04;

export type HeadingOwner = "addressee" | "sender";

function headingOwner(segment: LineSegment): HeadingOwner | null {
  if (segment.words.length > HEADING_WORDS || /\d/.test(segment.text)) return null;
  const first = segment.folded.find((w) => w !== "") ?? "";
  if (YOURS.has(first)) return "addressee";
  return OURS.has(first) ? "sender" : null;
}

/**
 * A line of a heading's block: a label and its value ("GLN : 3654789851", "SIREN 987 654 321" where OCR lost the
 * colon). A line of words alone ("info@acme.example", a slogan) is no such line: the block is another's.
 */
function labelValueLine(segment: LineSegment): boolean {
  return /[:\d]/.test(segment.text);
}

/**
 * The owner the nearest possessive heading above `segment`'s line in its column names ("Vos identifiants" over
 * "N° TVA : FR 05 987 654 321"), or null when no such heading opens the column within a few rows, or when a line
 * between them is no label-value line: a letterhead's slogan ("Your trusted partner") heads no block of numbers.
 */
export function columnHeadingOwner(layout: Layout, segment: LineSegment): HeadingOwner | null {
  const page = layout.pages.find((p) => p.pageNum === segment.pageNum);
  if (!page) return null;
  for (let row = segment.row - 1; row >= Math.max(0, segment.row - ROWS_UP); row--) {
    for (const above of page.rows[row] ?? []) {
      if (Math.abs(above.box.x0 - segment.box.x0) > COLUMN_ALIGN) continue;
      const owner = headingOwner(above);
      if (owner) return owner;
      if (!labelValueLine(above)) return null;
    }
  }
  return null;
}
