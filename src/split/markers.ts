/**
 * Page markers: "Page 1 of 3", "Seite 2 von 2", "Página 1 de 2", "Pag. 2/3", "Blatt 2", and bare "1 / 2" in a page
 * margin. A marker tells where a page sits in its document, the strongest evidence split detection has.
 */
import type { PageLine } from "./page-text.js";

export interface PageMarker {
  /** This page's number within its document. */
  page: number;
  /** The document's page count when printed ("of 3"), else null. */
  of: number | null;
  /** True for a marker with a page word; bare "1/2" in the margins is weaker evidence. */
  labelled: boolean;
}

/** Page words in the languages documents come in; abbreviations with an optional dot. */
const PAGE_WORD = String.raw`(?:page|seite|blatt|p[aá]gina|p[aá]g\.?|blad|folio|sheet|pg\.?|halaman|bl\.|s\.)`;
/** "of" in those languages, or a slash. */
const OF_WORD = String.raw`(?:of|von|sur|de|van|di|aus|dari|\/)`;

const LABELLED = new RegExp(
  String.raw`(?:^|[^\p{L}])${PAGE_WORD}\s*:?\s*(\d{1,3})(?:\s*${OF_WORD}\s*(\d{1,3}))?(?![\d/.,:])`,
  "iu",
);
/** A bare "2 / 3" or "2/3" standing alone (not part of a date such as 02/03/2024 or a fraction inside a text). */
const BARE = /(?:^|\s)-?\s*(\d{1,2})\s?\/\s?(\d{1,2})\s*-?(?=\s*$)/;

/** Share of the page height at top and bottom where markers are printed. */
const TOP_MARGIN = 0.14;
const BOTTOM_MARGIN = 0.84;

function plausible(page: number, of: number | null): boolean {
  if (page < 1 || page > 200) return false;
  return of === null || (of >= page && of <= 200);
}

/** The page's marker, preferring a labelled one; a marker must sit in the top or bottom margin of the page. */
export function findMarker(lines: readonly PageLine[]): PageMarker | null {
  let bare: PageMarker | null = null;
  for (const line of lines) {
    const inMargin = line.y0 <= TOP_MARGIN || line.y1 >= BOTTOM_MARGIN;
    const labelled = LABELLED.exec(line.text);
    if (labelled) {
      const page = Number(labelled[1]);
      const of = labelled[2] === undefined ? null : Number(labelled[2]);
      // "Page 2" alone inside the body is too often something else ("see page 2"); with "of n" it is a marker anywhere.
      if (plausible(page, of) && (inMargin || of !== null)) return { page, of, labelled: true };
    }
    if (!bare && inMargin && line.text.length <= 40) {
      const m = BARE.exec(line.text);
      if (m) {
        const page = Number(m[1]);
        const of = Number(m[2]);
        if (plausible(page, of) && of <= 50) bare = { page, of, labelled: false };
      }
    }
  }
  return bare;
}
