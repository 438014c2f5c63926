/**
 * Invoice XML read safely into a small element tree. An e-invoice never needs a DTD, so any DOCTYPE or ENTITY
 * declaration is refused before parsing (billion laughs, external entities), and the parser itself expands no entity
 * at all: only XML's five predefined escapes and character references are decoded, here, on the text read.
 * Namespace prefixes are dropped: CII and UBL each use one vocabulary, whatever prefixes a generator picks.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export interface XmlElement {
  name: string;
  text: string;
  attributes: Readonly<Record<string, string>>;
  children: readonly XmlElement[];
}

export class InvalidXml extends Error {}

const TEXT = "#text";

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  preserveOrder: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
});

const PREDEFINED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEscapes(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (all, ref: string) => {
    if (!ref.startsWith("#")) return PREDEFINED[ref] ?? all;
    const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** preserveOrder output: an array of `{tag: [children], ":@": attributes}` and `{"#text": text}` items. */
function toElements(items: unknown): XmlElement[] {
  if (!Array.isArray(items)) return [];
  const out: XmlElement[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const name = Object.keys(item).find((k) => k !== ":@" && k !== TEXT);
    if (name === undefined) continue;
    const children = toElements(item[name]);
    const text = Array.isArray(item[name])
      ? (item[name] as unknown[]).flatMap((c) => (isRecord(c) && typeof c[TEXT] === "string" ? [c[TEXT]] : [])).join("")
      : "";
    const group = item[":@"];
    const attributes: Record<string, string> = {};
    if (isRecord(group))
      for (const [k, v] of Object.entries(group)) if (typeof v === "string") attributes[k] = decodeEscapes(v);
    out.push({ name, text: decodeEscapes(text), attributes, children });
  }
  return out;
}

/** The document element of `xml`; InvalidXml for a DTD, an entity declaration or text that is not well-formed XML. */
export function parseXml(xml: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new InvalidXml("the XML declares a DTD or entities, which are refused");
  let parsed: unknown;
  try {
    const valid = XMLValidator.validate(xml);
    if (valid !== true) throw new InvalidXml(`the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
    parsed = parser.parse(xml);
  } catch (err) {
    throw err instanceof InvalidXml ? err : new InvalidXml(`the XML cannot be parsed: ${String(err)}`);
  }
  const root = toElements(parsed)[0];
  if (!root) throw new InvalidXml("the XML has no document element");
  return root;
}

/**
 * Elements at a path of child names below `from`; a step may list alternatives ("A|B"), which is how one reader
 * serves ZUGFeRD 1's and 2's names for the same thing.
 */
export function all(from: XmlElement | undefined, path: string): XmlElement[] {
  let current = from ? [from] : [];
  for (const step of path.split("/")) {
    const names = step.split("|");
    current = current.flatMap((e) => e.children.filter((c) => names.includes(c.name)));
  }
  return current;
}

export function first(from: XmlElement | undefined, path: string): XmlElement | undefined {
  return all(from, path)[0];
}

/** Trimmed text of the first element at `path`; null when absent or empty. */
export function textAt(from: XmlElement | undefined, path: string): string | null {
  const text = first(from, path)?.text.trim() ?? "";
  return text === "" ? null : text;
}
