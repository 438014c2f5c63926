/**
 * GET /result/image under load, over real HTTP with real renders: rendered pages are cached on disk and identical
 * requests share one render; past DOCSIFT_RENDER_QUEUE waiting renders the answer is 503 with Retry-After; a client
 * that hangs up takes its waiting render with it; and renders never hold up extraction, which has its own threads.
 * The slow page is real vector content (100,000 filled rectangles: a couple of seconds to render).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { deflateSync } from "node:zlib";
import { rawPdf } from "../helpers/hostile-files.js";
import { invoicePdf, requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

/** `pages` pages sharing one content stream: a line of text over `rects` small filled rectangles. */
function slowPdf(pages: number, rects = 100_000): Buffer {
  let ops = "BT /F1 14 Tf 60 760 Td (Invoice INV-77 Total 12.50 EUR) Tj ET\n";
  for (let i = 0; i < rects; i++) ops += `${(i * 7) % 590} ${(i * 13) % 830} 5 5 re f\n`;
  const data = deflateSync(Buffer.from(ops));
  const content = Buffer.concat([
    Buffer.from(`<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, "latin1"),
    data,
    Buffer.from("\nendstream", "latin1"),
  ]);
  const contentRef = `${4 + pages} 0 R`;
  const page = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentRef} >>`;
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i} 0 R`).join(" ");
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ...Array.from({ length: pages }, () => page),
    content,
  ]);
}

describe("page images", () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    // One render thread (the default) and one waiting render at most, so a few requests saturate renders.
    process.env.DOCSIFT_RENDER_QUEUE = "1";
    server = await startTestServer({ workers: 1 });
    token = await server.token();
  });
  after(async () => {
    await server.stop();
    delete process.env.DOCSIFT_RENDER_QUEUE;
  });

  /** Uploads `pdf` and waits until its own extraction is over, so only what the test does next runs. */
  const uploaded = async (pdf: Uint8Array): Promise<string> => {
    const res = await upload(server, token, uploadForm(pdf, { fieldSet: "invoice" }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const fileId = String(res.body.fileId);
    const done = await requestJson(`${server.url}/result/final/${fileId}`, { token });
    assert.ok(["FINALISED", "FAILED"].includes(String(done.body.status)), JSON.stringify(done.body));
    return fileId;
  };

  const image = (fileId: string, page: number, signal?: AbortSignal): Promise<Response> =>
    fetch(`${server.url}/result/image/${fileId}?page=${page}`, {
      headers: { authorization: `Bearer ${token}` },
      signal,
    });

  const counter = async (name: string): Promise<number> => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    const line = (await res.text()).split("\n").find((l) => l.startsWith(`${name} `));
    return Number(line?.split(" ")[1] ?? Number.NaN);
  };

  /** Polls `check` until it holds; a state never reached fails the test instead of hanging it. */
  const until = async (check: () => Promise<boolean>): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (!(await check())) {
      assert.ok(Date.now() < deadline, "the awaited state never came");
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  test("a rendered page is cached on disk: asking again renders nothing; identical requests share one render", async () => {
    const fileId = await uploaded(await invoicePdf({ number: "PI-1", date: "2024-03-01", total: "10.00", pages: 2 }));
    const renders = await counter("docsift_page_renders_total");
    const hits = await counter("docsift_page_cache_hits_total");

    const [a, b] = await Promise.all([image(fileId, 2), image(fileId, 2)]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const png = Buffer.from(await a.arrayBuffer());
    assert.deepEqual(Buffer.from(await b.arrayBuffer()), png);
    assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
    assert.equal(await counter("docsift_page_renders_total"), renders + 1, "identical requests rendered twice");
    assert.deepEqual(await readFile(join(server.dataDir, "page-cache", fileId, "2-150.png")), png);

    const again = await image(fileId, 2);
    assert.equal(again.status, 200);
    assert.deepEqual(Buffer.from(await again.arrayBuffer()), png);
    assert.equal(await counter("docsift_page_renders_total"), renders + 1, "a cached page was rendered again");
    assert.equal(await counter("docsift_page_cache_hits_total"), hits + 1);
  });

  test("deleting a file removes its cached page images", async () => {
    const fileId = await uploaded(await invoicePdf({ number: "PI-3", date: "2024-03-02", total: "12.00" }));
    assert.equal((await image(fileId, 1)).status, 200);
    const cached = join(server.dataDir, "page-cache", fileId, "1-150.png");
    await readFile(cached);
    const res = await fetch(`${server.url}/files/${fileId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 204);
    await assert.rejects(readFile(cached), { code: "ENOENT" });
  });

  test("past the render queue's bound the answer is 503 unavailable with Retry-After", async () => {
    const fileId = await uploaded(slowPdf(3));
    const rejected = await counter("docsift_page_renders_rejected_total");
    const renders = await counter("docsift_page_renders_total");
    const running = image(fileId, 1);
    await until(async () => (await counter("docsift_page_renders_total")) > renders);
    const waiting = image(fileId, 2);
    await until(async () => (await counter("docsift_page_render_backlog")) === 2);
    const refused = await requestJson(`${server.url}/result/image/${fileId}?page=3`, { token });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.error, "unavailable");
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.equal(await counter("docsift_page_renders_rejected_total"), rejected + 1);
    assert.equal((await running).status, 200);
    assert.equal((await waiting).status, 200);
  });

  test("a waiting render whose client hangs up never runs", async () => {
    const fileId = await uploaded(slowPdf(3));
    const renders = await counter("docsift_page_renders_total");
    const running = image(fileId, 1);
    await until(async () => (await counter("docsift_page_renders_total")) > renders);
    const hangUp = new AbortController();
    const abandoned = image(fileId, 2, hangUp.signal).catch((err: unknown) => err);
    await until(async () => (await counter("docsift_page_render_backlog")) === 2);
    hangUp.abort();
    assert.ok((await abandoned) instanceof Error);
    await until(async () => (await counter("docsift_page_render_backlog")) === 1);
    assert.equal((await running).status, 200);
    // Renders run one at a time in order: had page 2 stayed queued, it would run before page 3.
    assert.equal((await image(fileId, 3)).status, 200);
    assert.equal(await counter("docsift_page_renders_total"), renders + 2, "the abandoned render ran");
    await assert.rejects(readFile(join(server.dataDir, "page-cache", fileId, "2-150.png")), { code: "ENOENT" });
  });

  test("an upload is extracted while renders keep the render threads busy", async () => {
    const slow = await uploaded(slowPdf(2));
    const renders = await counter("docsift_page_renders_total");
    let rendersDone = 0;
    const flood = [1, 2].map((page) =>
      image(slow, page).then((res) => {
        rendersDone++;
        return res.status;
      }),
    );
    await until(async () => (await counter("docsift_page_renders_total")) > renders);
    const invoice = await invoicePdf({ number: "PI-2", date: "2024-03-02", total: "20.00" });
    const res = await upload(server, token, uploadForm(invoice, { fieldSet: "invoice" }));
    const result = await requestJson(`${server.url}/result/final/${String(res.body.fileId)}`, { token });
    assert.equal(result.body.status, "FINALISED", JSON.stringify(result.body));
    assert.equal(rendersDone, 0, "the upload waited for the renders");
    assert.deepEqual(await Promise.all(flood), [200, 200]);
  });
});
