/**
 * OCR faults in the running service: `docsift serve` child processes with their own PATH (the processing threads
 * inherit it): no tesseract at all, a tesseract that crashes with SIGSEGV, one that exits 1 with garbage. A scan
 * still finalises through tesseract.js (a warning per page that fell back); with the fallback turned off the file
 * ends FAILED `ocr_failed` with the binary's failure as the reason.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ChildServer, fakeTesseractDir, startChildServer } from "../helpers/faults.js";
import { makeImagePdf, scanAsJpeg } from "../helpers/pdf-fixtures.js";
import { invoicePdf, requestJson, upload, uploadForm } from "../helpers/server.js";

interface Outcome {
  status: string;
  number: string | null;
  error?: { error: string; message: string };
}

/** Uploads the scan and waits for its final state. */
async function extractScan(server: ChildServer, scan: Uint8Array): Promise<Outcome> {
  const token = await server.token();
  const receipt = await upload(server, token, uploadForm(scan, { fieldSet: "invoice" }));
  assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
  const res = await requestJson<{
    status: string;
    results?: { fields: { name: string; value: string | null }[] };
    error?: { error: string; message: string };
  }>(`${server.url}/result/final/${String(receipt.body.fileId)}`, { token });
  assert.equal(res.status, 200);
  const number = res.body.results?.fields.find((f) => f.name === "invoice.number")?.value ?? null;
  return { status: res.body.status, number, error: res.body.error };
}

const FALLBACK_WARNING = "DOCSIFT_OCR_FALLBACK";

describe("OCR faults in the service", { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  const servers: ChildServer[] = [];
  let scan: Uint8Array;
  /** A directory with nothing in it: a PATH on which no tesseract can be found. */
  let emptyDir: string;

  const serve = async (env: Record<string, string>): Promise<ChildServer> => {
    const server = await startChildServer({ env });
    servers.push(server);
    return server;
  };

  before(async () => {
    const pdf = await invoicePdf({ number: "OCR-4711", date: "2024-03-15", total: "1234.56" });
    scan = await makeImagePdf([await scanAsJpeg(pdf)]);
    emptyDir = await mkdtemp(join(tmpdir(), "docsift-empty-path-"));
    dirs.push(emptyDir);
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it("no tesseract on PATH: tesseract.js reads the scan, no fallback needed", async () => {
    const server = await serve({ PATH: emptyDir });
    const outcome = await extractScan(server, scan);
    assert.equal(outcome.status, "FINALISED", JSON.stringify(outcome));
    assert.equal(outcome.number, "OCR-4711");
    assert.ok(!server.stderr().includes(FALLBACK_WARNING), "tesseract.js was chosen up front");
  });

  it("DOCSIFT_OCR_ENGINE=tesseract-cli but the binary is missing: falls back per page with a warning", async () => {
    const server = await serve({ PATH: emptyDir, DOCSIFT_OCR_ENGINE: "tesseract-cli" });
    const outcome = await extractScan(server, scan);
    assert.equal(outcome.status, "FINALISED", JSON.stringify(outcome));
    assert.equal(outcome.number, "OCR-4711");
    assert.match(server.stderr(), /DOCSIFT_OCR_FALLBACK.*Could not run tesseract \(ENOENT\)/);
  });

  it("a tesseract that crashes with SIGSEGV: falls back to tesseract.js and finalises", async () => {
    const fake = await fakeTesseractDir("ulimit -c 0\nkill -SEGV $$");
    dirs.push(fake);
    const server = await serve({ PATH: `${fake}${delimiter}${process.env.PATH ?? ""}` });
    const outcome = await extractScan(server, scan);
    assert.equal(outcome.status, "FINALISED", JSON.stringify(outcome));
    assert.equal(outcome.number, "OCR-4711");
    assert.match(server.stderr(), /DOCSIFT_OCR_FALLBACK.*tesseract killed by SIGSEGV/);
  });

  it("DOCSIFT_OCR_FALLBACK=none and a tesseract that exits 1 with garbage: FAILED ocr_failed with the reason", async () => {
    const fake = await fakeTesseractDir("echo 'garbage, not TSV'\necho 'Error: simulated engine failure' >&2\nexit 1");
    dirs.push(fake);
    const server = await serve({
      PATH: `${fake}${delimiter}${process.env.PATH ?? ""}`,
      DOCSIFT_OCR_FALLBACK: "none",
    });
    const outcome = await extractScan(server, scan);
    assert.equal(outcome.status, "FAILED", JSON.stringify(outcome));
    assert.equal(outcome.error?.error, "ocr_failed");
    assert.match(outcome.error?.message ?? "", /tesseract exit 1.*simulated engine failure/);
    assert.equal(server.child.exitCode, null, "the server is still running");
  });
});
