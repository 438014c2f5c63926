/**
 * `docsift watch` as a long-running process against a real server: it picks up files dropped into the folder,
 * writes `<file>.json` and summary lines, stops cleanly on SIGINT, and after a restart uploads nothing twice, even when
 * its state file is lost.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, test } from "node:test";
import { invoicePdf, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let dir: string;

interface WatchEvent {
  event: string;
  file?: string;
  fileId?: string;
  status?: string;
  known?: number;
  resumed?: number;
}

interface Watching {
  child: ChildProcess;
  events: WatchEvent[];
  /** Resolves with the first event (past or future) matching `match`. */
  next(match: (e: WatchEvent) => boolean): Promise<WatchEvent>;
  /** SIGINT, then the exit code. */
  stop(): Promise<number | null>;
}

function startWatch(): Watching {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli/main.ts",
      "watch",
      dir,
      "--product",
      "receipts",
      "--interval",
      "250",
      "--stable",
      "250",
    ],
    {
      env: {
        ...process.env,
        DOCSIFT_URL: server.url,
        DOCSIFT_API_KEY: `${server.admin.clientId}:${server.admin.clientSecret}`,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const events: WatchEvent[] = [];
  const waiters: Array<{ match: (e: WatchEvent) => boolean; resolve: (e: WatchEvent) => void }> = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const event = JSON.parse(line) as WatchEvent;
    events.push(event);
    for (const w of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(event);
    }
  });
  return {
    child,
    events,
    next: (match) => {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return Promise.race([
        new Promise<WatchEvent>((resolve) => waiters.push({ match, resolve })),
        exited.then((code) => assert.fail(`watch exited (${code}) first; events: ${JSON.stringify(events)}`)),
      ]);
    },
    stop: () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

const receipt = "/work/shared/data/receipts-dev/X51005433514.jpg";
const summaryRows = async () => (await readFile(join(dir, "docsift-summary.csv"), "utf8")).trim().split("\n");

before(async () => {
  server = await startTestServer({ workers: 1 });
  dir = await mkdtemp(join(tmpdir(), "docsift-watch-"));
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

test("watch uploads new files once, writes results and summary lines, and resumes after restarts", {
  timeout: 180_000,
}, async () => {
  // Run 1: a scanned receipt is picked up; stop right after its upload, while OCR may still be running.
  const first = startWatch();
  await first.next((e) => e.event === "ready");
  await copyFile(receipt, join(dir, "lunch.jpg"));
  await writeFile(join(dir, "ignored.txt"), "not a document type the watcher uploads");
  const uploaded = await first.next((e) => e.event === "uploaded" && e.file === "lunch.jpg");
  assert.equal(await first.stop(), 0, "SIGINT stops cleanly");
  assert.equal(first.events.at(-1)?.event, "stopped");
  const state = JSON.parse(await readFile(join(dir, ".docsift-watch.json"), "utf8")) as {
    files: Record<string, { fileId: string; status: string }>;
  };
  assert.equal(state.files["lunch.jpg"]?.fileId, uploaded.fileId, "the receipt is remembered");

  // Run 2: the receipt is not uploaded again; its result arrives (now, or already in run 1); a new PDF is picked up.
  const second = startWatch();
  const ready = await second.next((e) => e.event === "ready");
  assert.equal(ready.known, 1);
  const finishedInFirst = first.events.some((e) => e.event === "done" && e.file === "lunch.jpg");
  assert.equal(ready.resumed, finishedInFirst ? 0 : 1, "a pending result is resumed, a finished one is not");
  if (!finishedInFirst) await second.next((e) => e.event === "done" && e.file === "lunch.jpg");
  const lunch = JSON.parse(await readFile(join(dir, "lunch.jpg.json"), "utf8")) as {
    fileId: string;
    status: string;
    results: { fields: { name: string; value: unknown }[] };
  };
  assert.equal(lunch.fileId, uploaded.fileId);
  assert.equal(lunch.status, "FINALISED");
  assert.ok(lunch.results.fields.some((f) => f.name === "receipt.total"));

  await writeFile(join(dir, "invoice.pdf"), await invoicePdf({ number: "W-1", date: "2024-07-01", total: "12.00" }));
  const done = await second.next((e) => e.event === "done" && e.file === "invoice.pdf");
  assert.equal(done.status, "FINALISED");
  assert.equal(await second.stop(), 0);
  assert.equal(
    second.events.filter((e) => e.event === "uploaded" && e.file === "lunch.jpg").length,
    0,
    "no re-upload after the restart",
  );

  // Run 3: nothing new, nothing uploaded.
  const third = startWatch();
  assert.equal((await third.next((e) => e.event === "ready")).known, 2);
  assert.equal(await third.stop(), 0);
  assert.equal(third.events.filter((e) => e.event === "uploaded").length, 0);

  const rows = await summaryRows();
  assert.match(rows[0] ?? "", /^file,fileId,status,receipt\.merchantName,/);
  assert.equal(rows.length, 3, "one summary line per file");
  assert.ok(rows.some((r) => r.startsWith(`lunch.jpg,${uploaded.fileId},FINALISED,`)));
  assert.ok(rows.some((r) => r.startsWith(`invoice.pdf,${done.fileId},FINALISED`)));
  assert.equal(
    ((await readFile(join(dir, ".docsift-watch.json"), "utf8")).match(/"fileId"/g) ?? []).length,
    2,
    "ignored.txt is not tracked",
  );

  // Run 4: the state file is lost (a crash before it was saved): the files are sent again with the same
  // Idempotency-Key, so the service answers with the first uploads' receipts and stores nothing new.
  await rm(join(dir, ".docsift-watch.json"));
  const fourth = startWatch();
  const again = await fourth.next((e) => e.event === "uploaded" && e.file === "lunch.jpg");
  const invoiceAgain = await fourth.next((e) => e.event === "uploaded" && e.file === "invoice.pdf");
  assert.equal(await fourth.stop(), 0);
  assert.equal(again.fileId, uploaded.fileId, "the same file version maps to its first upload");
  assert.equal(invoiceAgain.fileId, done.fileId);
});
