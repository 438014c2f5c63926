/**
 * Times of day -> "HH:MM": "14:05", "14:05:33", "2:05 PM", "2:05pm", "2 p.m.", "3:05 p. m.", "1:05 PTG", "14h05",
 * "14 h 05", "14.05 Uhr", "14 Uhr". A bare "14.05" is refused: on a document it is far more often an amount.
 */
import { trimEdges } from "./trim.js";

const CLOCK =
  /^(\d{1,2})(?:(?:\s?:\s?|\s?h\s?|\.)(\d{2})(?:(?::|\s?min\s?)(\d{2})(?:\s?s)?)?)?(?:\s?(uhr|hrs?|h|[ap]\.?\s?m\.?|pg|ptg))?$/i;

/** Malay receipts print PG (pagi, morning) and PTG (petang, afternoon) where English prints AM and PM. */
const MERIDIEM: Readonly<Record<string, "am" | "pm">> = { am: "am", pm: "pm", pg: "am", ptg: "pm" };

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** Parses the whole string as one time of day, or returns null. */
export function parseTime(text: string): string | null {
  const cleaned = trimEdges(text).replace(/\.$/, "");
  const match = CLOCK.exec(cleaned);
  if (match === null) return null;
  const [, hourText = "", minuteText, secondText, suffixText] = match;
  const suffix = suffixText?.toLowerCase().replace(/[.\s]/g, "");
  const separator = cleaned.slice(hourText.length).trimStart()[0] ?? "";
  // Without minutes a number is a time only with a unit after it ("14 Uhr", "2 pm"); "14.05" needs "Uhr" or "h".
  if (minuteText === undefined && suffix === undefined) return null;
  if (separator === "." && suffix !== "uhr" && suffix !== "h") return null;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59 || (secondText !== undefined && Number(secondText) > 59)) return null;
  const meridiem = suffix === undefined ? undefined : MERIDIEM[suffix];
  if (meridiem !== undefined) {
    // 12-hour clocks run 12, 1 ... 11 in most places and 0 ... 11 in some (fr-CA, ja).
    if (hour > 12) return null;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hour > 23) return null;
  return `${pad(hour)}:${pad(minute)}`;
}
