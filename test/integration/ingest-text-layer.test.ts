/**
 * Text layers that break a step of reading them (issue #15): no such page may fail its file. Each PDF is written
 * object by object with pdf-lib's low-level API, as real producers write them: a Type0/Identity-H font whose
 * glyphs without Unicode come out as NUL (Chromium/Skia) or as other control characters, a font with no ToUnicode
 * at all, a font that gives its glyphs no width, a Type3 font. Every one ends FINALISED through `ingest`, through
 * the service and through `docsift extract`, its fields read, with a `text_layer_degraded` warning where a step
 * degraded. A tesseract CLI that crashes leaves the page to tesseract.js and an `ocr_fallback` warning (in a
 * `docsift extract` process of its own: PATH is read when the CLI engine loads).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PDFDocument, PDFName, type PDFRef } from "pdf-lib";
import { ingest } from "../../src/ingest/index.js";
import { fakeTesseractDir } from "../helpers/faults.js";
import { makeTextPdf, SAMPLE_LINES, scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

/** The invoice every fixture prints; `\0` marks a glyph the font maps to no Unicode value. */
const LINES: { text: string; x: number; y: number; size: number }[] = [
  { text: "Acme Supplies Ltd", x: 50, y: 790, size: 16 },
  { text: "12 High Street, London EC1A 1BB", x: 50, y: 772, size: 11 },
  { text: "INVOICE", x: 420, y: 790, size: 18 },
  { text: "Invoice number: INV-7781\0", x: 350, y: 740, size: 11 },
  { text: "Invoice date: 2024-03-05", x: 350, y: 724, size: 11 },
  { text: "Bill to: Contoso GmbH, Hauptstrasse 5, 10115 Berlin", x: 50, y: 690, size: 11 },
  { text: "Description", x: 50, y: 640, size: 11 },
  { text: "Amount", x: 480, y: 640, size: 11 },
  { text: "Consulting services", x: 50, y: 620, size: 11 },
  { text: "12.50", x: 480, y: 620, size: 11 },
  { text: "Total\0", x: 400, y: 560, size: 11 },
  { text: "12.50", x: 480, y: 560, size: 11 },
];

/** Helvetica's widths (per 1000 em) of the printable ASCII characters 32..126. */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

const hex = (n: number, digits: number): string => n.toString(16).toUpperCase().padStart(digits, "0");

/**
 * A one-page PDF whose content stream draws LINES with font /F1 (a line `inF2` picks with /F2), each character's
 * code given by `code` (`inF2.code`).
 */
async function pdfWith(
  font: (doc: PDFDocument) => PDFRef,
  code: (char: string) => string,
  drawn: typeof LINES = LINES,
  inF2?: { font: (doc: PDFDocument) => PDFRef; code: (char: string) => string; lines: (text: string) => boolean },
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const ctx = doc.context;
  page.node.set(PDFName.of("Resources"), ctx.obj({ Font: { F1: font(doc), ...(inF2 ? { F2: inF2.font(doc) } : {}) } }));
  const ops = drawn.map((l) => {
    const f2 = inF2?.lines(l.text) === true;
    const hexText = [...l.text].map(f2 ? inF2!.code : code).join("");
    return `BT /${f2 ? "F2" : "F1"} ${l.size} Tf ${l.x} ${l.y} Td <${hexText}> Tj ET`;
  });
  page.node.set(PDFName.of("Contents"), ctx.register(ctx.stream(ops.join("\n"))));
  return doc.save();
}

/** A ToUnicode CMap of two-byte codes: each [code, unicode] pair. */
function toUnicode(doc: PDFDocument, pairs: readonly [number, number][]): PDFRef {
  const chunks: string[] = [];
  // A CMap's bfchar block holds at most 100 entries.
  for (let i = 0; i < pairs.length; i += 100) {
    const block = pairs.slice(i, i + 100);
    chunks.push(
      `${block.length} beginbfchar\n${block.map(([c, u]) => `<${hex(c, 4)}> <${hex(u, 4)}>`).join("\n")}\nendbfchar`,
    );
  }
  const body = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ...chunks,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  return doc.context.register(doc.context.stream(body));
}

/**
 * A Type0 font as Chromium/Skia writes one (Identity-H, two-byte glyph codes, widths per glyph), not embedded, so
 * pdf.js renders it with its own Helvetica-compatible font. `codeOf` gives each printable ASCII character's glyph
 * code; the ToUnicode map, when given, maps those codes back.
 */
function type0Font(codeOf: (c: number) => number, withToUnicode: boolean, invisible: readonly number[] = []) {
  return (doc: PDFDocument): PDFRef => {
    const ctx = doc.context;
    const descriptor = ctx.register(
      ctx.obj({
        Type: "FontDescriptor",
        FontName: "ArialMT",
        Flags: 32,
        FontBBox: [-665, -325, 2000, 1040],
        ItalicAngle: 0,
        Ascent: 905,
        Descent: -212,
        CapHeight: 716,
        StemV: 80,
      }),
    );
    const widths = [
      ...HELVETICA_WIDTHS.flatMap((w, i) => [codeOf(32 + i), [w]]),
      ...invisible.flatMap((u) => [u, [0]]),
    ];
    const cid = ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "CIDFontType2",
        BaseFont: "ArialMT",
        CIDSystemInfo: {
          Registry: ctx.obj("(Adobe)" as never),
          Ordering: ctx.obj("(Identity)" as never),
          Supplement: 0,
        },
        FontDescriptor: descriptor,
        DW: 1000,
        W: widths,
      }),
    );
    const pairs = [
      ...HELVETICA_WIDTHS.map((_, i): [number, number] => [codeOf(32 + i), 32 + i]),
      ...invisible.map((u): [number, number] => [u, u]),
    ];
    return ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "Type0",
        BaseFont: "ArialMT",
        Encoding: "Identity-H",
        DescendantFonts: [cid],
        ...(withToUnicode ? { ToUnicode: toUnicode(doc, pairs) } : {}),
      }),
    );
  };
}

/** Chromium's case: glyph 0 (no Unicode) comes out of pdf.js as NUL; glyphs 1-3 have no ToUnicode entry either. */
async function nulPdf(): Promise<Uint8Array> {
  const lines = LINES.map((l) => (l.text.startsWith("Bill to") ? { ...l, text: `\u0001${l.text}\u0002\u0003` } : l));
  return pdfWith(
    type0Font((c) => c, true),
    (ch) => hex(ch.charCodeAt(0), 4),
    lines,
  );
}

/** No ToUnicode at all and glyph codes unrelated to Unicode (a subset font's glyph ids): the page is OCR'd. */
function unmappedPdf(): Promise<Uint8Array> {
  const codeOf = (c: number): number => c - 29;
  return pdfWith(type0Font(codeOf, false), (ch) => hex(ch === "\0" ? 0 : codeOf(ch.charCodeAt(0)), 4));
}

/** Helvetica, as a simple font with its widths (`zero`: every glyph of width 0, so pdf.js reports runs of width 0). */
function helvetica(zero: boolean) {
  return (doc: PDFDocument): PDFRef =>
    doc.context.register(
      doc.context.obj({
        Type: "Font",
        Subtype: "Type1",
        BaseFont: "Helvetica",
        FirstChar: 32,
        LastChar: 126,
        Widths: HELVETICA_WIDTHS.map((w) => (zero ? 0 : w)),
      }),
    );
}

/** Zero-width space, soft hyphen, zero-width joiner: characters of no width (glyph code = Unicode value). */
const INVISIBLE = [0x200b, 0xad, 0x200d];

/**
 * Runs of no width: zero-width characters inside words and a run of nothing else (a Type0 font mapping them), and
 * the amounts in a simple font that gives its glyphs no width (pdf.js then gives each glyph as a run of width 0,
 * all at the line's start).
 */
function zeroWidthPdf(): Promise<Uint8Array> {
  const lines = LINES.map((l) =>
    l.text.startsWith("Invoice number")
      ? { ...l, text: "Invoice\u200b number: INV-\u00ad7781\u200d \u200b\u200b" }
      : l.text.startsWith("Consulting")
        ? { ...l, text: "Consul\u00adting ser\u200bvices" }
        : l,
  );
  return pdfWith(
    type0Font((c) => c, true, INVISIBLE),
    (ch) => (ch === "\0" ? "" : hex(ch.charCodeAt(0), 4)),
    lines,
    {
      font: helvetica(true),
      code: (ch) => hex(ch.charCodeAt(0), 2),
      lines: (text) => text === "12.50",
    },
  );
}

/** Glyph names of the Adobe standard encoding for printable ASCII (what a Type3 font's Differences name). */
const GLYPH_NAMES: Record<string, string> = {
  " ": "space",
  ",": "comma",
  "-": "hyphen",
  ".": "period",
  ":": "colon",
  ...Object.fromEntries(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"].map((n, i) => [String(i), n]),
  ),
};
const glyphName = (ch: string): string => GLYPH_NAMES[ch] ?? ch;

/** A Type3 font: each glyph a procedure drawing a filled box, named by the standard glyph names (no ToUnicode). */
function type3Pdf(): Promise<Uint8Array> {
  const chars = [...new Set(LINES.flatMap((l) => [...l.text.replace(/\0/g, "")]))].sort();
  const codes = new Map(chars.map((ch, i) => [ch, 1 + i]));
  const font = (doc: PDFDocument): PDFRef => {
    const ctx = doc.context;
    const procs = Object.fromEntries(
      chars.map((ch) => [
        glyphName(ch),
        ctx.register(ctx.stream(ch === " " ? "278 0 d0" : "556 0 0 0 500 700 d1 50 0 400 700 re f")),
      ]),
    );
    return ctx.register(
      ctx.obj({
        Type: "Font",
        Subtype: "Type3",
        FontBBox: [0, 0, 556, 700],
        FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
        CharProcs: procs,
        Encoding: { Type: "Encoding", Differences: [1, ...chars.map((ch) => PDFName.of(glyphName(ch)))] },
        FirstChar: 1,
        LastChar: chars.length,
        Widths: chars.map((ch) => (ch === " " ? 278 : 556)),
        Resources: {},
      }),
    );
  };
  return pdfWith(font, (ch) => (ch === "\0" ? "" : hex(codes.get(ch)!, 2)));
}

interface Case {
  name: string;
  bytes: () => Promise<Uint8Array>;
  /** Codes of the warnings expected on page 1. */
  warnings: string[];
  /** Whether its text layer carries the invoice (an OCR'd page of unreadable glyphs reads no fields). */
  readable: boolean;
}

const CASES: Case[] = [
  { name: "nul-and-controls.pdf", bytes: nulPdf, warnings: ["text_layer_degraded"], readable: true },
  { name: "zero-width.pdf", bytes: zeroWidthPdf, warnings: ["text_layer_degraded"], readable: true },
  { name: "type3.pdf", bytes: type3Pdf, warnings: [], readable: true },
  { name: "unmapped-glyphs.pdf", bytes: unmappedPdf, warnings: [], readable: false },
];

interface ResultBody {
  status: string;
  error?: { error: string; message: string };
  results?: {
    fields: { name: string; value: unknown }[];
    warnings?: { code: string; page: number | null; message: string }[];
  };
}

function checkResult(c: Case, body: ResultBody): void {
  assert.equal(body.status, "FINALISED", `${c.name}: ${JSON.stringify(body)}`);
  const warnings = body.results?.warnings ?? [];
  assert.deepEqual(
    warnings.map((w) => [w.code, w.page]),
    c.warnings.map((code) => [code, 1]),
    `${c.name}: ${JSON.stringify(warnings)}`,
  );
  for (const w of warnings) assert.match(w.message, /^Page 1: /);
  if (!c.readable) return;
  const value = (name: string) => body.results?.fields.find((f) => f.name === name)?.value;
  assert.equal(value("invoice.number"), "INV-7781", c.name);
  assert.equal(value("invoice.date"), "2024-03-05", c.name);
  assert.equal(value("invoice.total"), "12.50", c.name);
}

describe("text layers that break a step: the page degrades, the file finalises", () => {
  const files = new Map<string, Uint8Array>();
  before(async () => {
    for (const c of CASES) files.set(c.name, await c.bytes());
  });

  it("ingest reads each page, NUL and control characters left out of the words", async () => {
    for (const c of CASES) {
      const document = await ingest(files.get(c.name)!);
      const words = document.pages.flatMap((p) => p.words.map((w) => w.text));
      assert.ok(
        words.every((w) => !/\p{Cc}/u.test(w)),
        `${c.name}: ${JSON.stringify(words)}`,
      );
      if (c.readable) {
        assert.equal(document.pages[0]?.source, "text", c.name);
        assert.ok(words.includes("INV-7781") && words.includes("Total"), `${c.name}: ${words.join(" ")}`);
        const number = document.pages[0]!.words.find((w) => w.text === "INV-7781")!;
        // Printed at x 350 + "Invoice number: " (about 84 points at 11 pt) on a 595-point page.
        assert.ok(number.box.x0 > 0.7 && number.box.x0 < 0.78 && number.box.x1 < 0.9, JSON.stringify(number));
      }
      assert.deepEqual(
        (document.warnings ?? []).map((w) => w.code),
        c.warnings,
        `${c.name}: ${JSON.stringify(document.warnings)}`,
      );
    }
  });

  describe("through the service", () => {
    let server: TestServer;
    let token: string;
    before(async () => {
      server = await startTestServer({ workers: 1 });
      token = await server.token();
    });
    after(() => server.stop());

    it("every file ends FINALISED with its fields and warnings", async () => {
      for (const c of CASES) {
        const res = await upload(
          server,
          token,
          uploadForm(files.get(c.name)!, { products: "invoices" }, { fileName: c.name }),
        );
        assert.equal(res.status, 200, `${c.name}: ${JSON.stringify(res.body)}`);
        const result = await requestJson<ResultBody>(`${server.url}/result/final/${String(res.body.fileId)}`, {
          token,
        });
        checkResult(c, result.body);
      }
    });
  });

  describe("through docsift extract", () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "docsift-text-layer-"));
      for (const [name, bytes] of files) await writeFile(join(dir, name), bytes);
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it("prints every file FINALISED with its warnings", () => {
      const out = docsift(
        {},
        "extract",
        "--product",
        "invoices",
        "--format",
        "jsonl",
        ...CASES.map((c) => join(dir, c.name)),
      );
      assert.equal(out.status, 0, out.stderr);
      const lines = out.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as ResultBody & { file: string });
      assert.equal(lines.length, CASES.length);
      for (const [i, c] of CASES.entries()) checkResult(c, lines[i]!);
    });
  });
});

describe("OCR by the fallback engine is said in the warnings", () => {
  let fake: string;
  let scan: string;
  before(async () => {
    fake = await fakeTesseractDir("ulimit -c 0\nkill -SEGV $$");
    scan = join(fake, "scan.jpg");
    await writeFile(scan, await scanAsJpeg((await makeTextPdf([SAMPLE_LINES])).bytes));
  });
  after(() => rm(fake, { recursive: true, force: true }));

  it("docsift extract: a crashing tesseract CLI leaves the page to tesseract.js and an ocr_fallback warning", () => {
    const out = docsift(
      { PATH: `${fake}${delimiter}${process.env.PATH ?? ""}` },
      "extract",
      "--product",
      "invoices",
      "--format",
      "jsonl",
      scan,
    );
    assert.equal(out.status, 0, out.stderr);
    const line = JSON.parse(out.stdout.trim()) as ResultBody;
    assert.equal(line.status, "FINALISED");
    assert.deepEqual(
      line.results?.warnings?.map((w) => [w.code, w.page]),
      [["ocr_fallback", 1]],
    );
    assert.match(line.results?.warnings?.[0]?.message ?? "", /^Page 1: OCR with tesseract-cli failed .* tesseract-js/);
    const value = (name: string) => line.results?.fields.find((f) => f.name === name)?.value;
    assert.equal(value("invoice.number"), "INV-2024-0042");
  });
});

const MAIN = join(import.meta.dirname, "../../src/cli/main.ts");

function docsift(env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", MAIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: 300_000,
  });
}
