/**
 * Webhook benchmark (`npm run bench:webhooks`), embedded service (SQLite) in this process, receiver on 127.0.0.1
 * verifying every signature with the Standard Webhooks library:
 * - end to end: `--uploads N` text invoices, alternately from a tenant with an endpoint (all events) and one without,
 *   uploaded one after another: upload-to-FINALISED per tenant (p50), and for the webhook tenant the time from the
 *   state change (the event's timestamp) to the receiver (p50/p99; target p99 <= 1 s while the receiver is up);
 * - state change to delivery under load: `--burst N` finalisations written through the store (the state change with
 *   its outbox row, as a job writes it), interleaved with N of the tenant without endpoint: p50/p99;
 * - delivery throughput: N more written while the receiver hangs, then events per second until it has them all;
 * - added cost per upload: the same finalisation (result + FINALISED + outbox rows, one transaction) timed `--burst`
 *   times for each tenant, interleaved: the difference of the means (target <= 2 ms) and the ratio.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";
import { createClient } from "../src/auth/clients.js";
import { EVENT_TYPES } from "../src/domain/event-types.js";
import { startService } from "../src/runtime/process.js";
import { getToken, invoicePdf, requestJson, upload, uploadForm } from "../test/helpers/server.js";

const { values } = parseArgs({
  options: { uploads: { type: "string", default: "40" }, burst: { type: "string", default: "1000" } },
});
const UPLOADS = Number(values.uploads);
const BURST = Number(values.burst);

// Retries soon: attempts parked past the 10 s limit (the drain measurement) come back quickly.
Object.assign(process.env, {
  DOCSIFT_WEBHOOK_ALLOW_HTTP: "1",
  DOCSIFT_WEBHOOK_ALLOW_PRIVATE: "1",
  DOCSIFT_WEBHOOK_RETRY_BASE_MS: "200",
});

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "docsift-bench-hooks-"));
  const admin = { id: "bench-hooks", secret: "bench-hooks-secret-0123456789" };
  const service = await startService({
    dataDir,
    host: "127.0.0.1",
    port: 0,
    workers: 2,
    bootstrapClient: `${admin.id}:${admin.secret}`,
    logLevel: "warn",
  });
  let secret = "";
  const arrivals = new Map<string, { at: number; stateChangeAt: number; type: string; fileId: string }>();
  let deliveries = 0;
  /** While set, requests are parked unanswered (the receiver is slow), then all answered at once. */
  let parked: (() => void)[] | undefined;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        new Webhook(secret).verify(raw, headers);
      } catch {
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw) as { type: string; timestamp: string; data: { fileId: string } };
      deliveries++;
      const id = String(req.headers["webhook-id"]);
      if (!arrivals.has(id)) {
        arrivals.set(id, {
          at: Date.now(),
          stateChangeAt: Date.parse(body.timestamp),
          type: body.type,
          fileId: body.data.fileId,
        });
      }
      if (parked) parked.push(() => res.writeHead(204).end());
      else res.writeHead(204).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  try {
    const hooked = await createClient(service.store, { name: "hooked" });
    const plain = await createClient(service.store, { name: "plain" });
    const hookedToken = await getToken(service.url, hooked.clientId, hooked.clientSecret);
    const plainToken = await getToken(service.url, plain.clientId, plain.clientSecret);
    const created = await requestJson<{ secret: string }>(`${service.url}/webhooks`, {
      method: "POST",
      token: hookedToken,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        url: hookUrl,
        events: [...EVENT_TYPES],
      }),
    });
    if (created.status !== 201) throw new Error(`webhook not created: ${JSON.stringify(created.body)}`);
    secret = created.body.secret;

    // End to end.
    const pdf = await invoicePdf({ number: "B-1", date: "01.05.2024", total: "42.00" });
    const e2e: Record<"hooked" | "plain", number[]> = { hooked: [], plain: [] };
    const hookedFiles: string[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const which = i % 2 === 0 ? "hooked" : "plain";
      const token = which === "hooked" ? hookedToken : plainToken;
      const started = performance.now();
      const receipt = await upload({ url: service.url }, token, uploadForm(pdf, { fieldSet: "invoice" }));
      const fileId = String(receipt.body.fileId);
      const res = await requestJson(`${service.url}/result/final/${fileId}`, { token });
      if (res.body.status !== "FINALISED") throw new Error(`not finalised: ${JSON.stringify(res.body)}`);
      e2e[which].push(performance.now() - started);
      if (which === "hooked") hookedFiles.push(fileId);
    }
    const waitFor = async (predicate: () => boolean, what: string) => {
      const deadline = Date.now() + 120_000;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const delivered = (ids: string[]) => {
      const got = new Set([...arrivals.values()].filter((a) => a.type === "file.finalised").map((a) => a.fileId));
      return ids.every((id) => got.has(id));
    };
    await waitFor(() => delivered(hookedFiles), "the uploads' events");
    const uploadLatency = sortedOf(
      [...arrivals.values()].filter((a) => hookedFiles.includes(a.fileId)).map((a) => a.at - a.stateChangeAt),
    );

    // Throughput and the cost of the state change, through the store as a job writes it.
    const store = service.store;
    const insertFiles = async (tenantId: string, clientId: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const id = randomUUID();
        await store.files.insert({
          id,
          tenantId,
          clientId,
          workflow: "prediction",
          options: null,
          selection: { products: [], fieldSets: ["invoice"], fields: [] } as never,
          locale: null,
          tags: null,
          fileName: "bench.pdf",
          type: "pdf",
          pageCount: 1,
          size: 1000,
          parentId: null,
          uploadedAt: new Date().toISOString(),
        });
        ids.push(id);
      }
      return ids;
    };
    const hookedTenant = (await store.clients.get(hooked.clientId))?.tenantId as string;
    const plainTenant = (await store.clients.get(plain.clientId))?.tenantId as string;
    const burstHooked = await insertFiles(hookedTenant, hooked.clientId, BURST);
    const burstPlain = await insertFiles(plainTenant, plain.clientId, BURST);
    const results = (
      await requestJson<{ results: never }>(`${service.url}/result/final/${hookedFiles[0]}`, {
        token: hookedToken,
      })
    ).body.results;
    const cost: Record<"hooked" | "plain", number[]> = { hooked: [], plain: [] };
    const burstStarted = performance.now();
    for (let i = 0; i < BURST; i++) {
      for (const [which, id] of [
        ["hooked", burstHooked[i]],
        ["plain", burstPlain[i]],
      ] as const) {
        const t = performance.now();
        await store.files.finalise(id as string, results, new Date().toISOString());
        cost[which].push(performance.now() - t);
        // As between a service's jobs: the event loop turns (SQLite's driver is synchronous, so back-to-back awaits
        // would starve the delivery loop's sockets, which a real service never does).
        await new Promise((r) => setImmediate(r));
      }
    }
    const burstWriteMs = performance.now() - burstStarted;
    await waitFor(() => delivered(burstHooked), "the burst's events");
    const burstLatency = sortedOf(
      [...arrivals.values()].filter((a) => burstHooked.includes(a.fileId)).map((a) => a.at - a.stateChangeAt),
    );

    // Drain: a backlog written while the receiver hangs, then delivered as fast as the service can.
    const backlogFiles = await insertFiles(hookedTenant, hooked.clientId, BURST);
    parked = [];
    for (const id of backlogFiles) {
      await store.files.finalise(id, results, new Date().toISOString());
      await new Promise((r) => setImmediate(r));
    }
    const waiting = parked;
    parked = undefined;
    const released = performance.now();
    for (const answer of waiting) answer();
    await waitFor(() => delivered(backlogFiles), "the backlog's events");
    const drainMs = performance.now() - released;
    const ms = (x: number) => x.toFixed(2);
    const p50Hooked = quantile(sortedOf(e2e.hooked), 0.5);
    const p50Plain = quantile(sortedOf(e2e.plain), 0.5);
    console.log(`uploads: ${UPLOADS} (half with an endpoint), burst: ${BURST} finalisations per tenant`);
    console.log(
      `upload -> FINALISED p50: with endpoint ${ms(p50Hooked)} ms, without ${ms(p50Plain)} ms (ratio ${(p50Hooked / p50Plain).toFixed(3)})`,
    );
    console.log(
      `state change -> delivery (uploads): p50 ${ms(quantile(uploadLatency, 0.5))} ms, p99 ${ms(quantile(uploadLatency, 0.99))} ms, max ${ms(uploadLatency[uploadLatency.length - 1] ?? Number.NaN)} ms`,
    );
    console.log(
      `burst: ${BURST} finalisations with the receiver up, interleaved with ${BURST} of the tenant without endpoint, written in ${ms(burstWriteMs)} ms; state change -> delivery p50 ${ms(quantile(burstLatency, 0.5))} ms, p99 ${ms(quantile(burstLatency, 0.99))} ms`,
    );
    console.log(
      `drain: ${BURST} events written while the receiver hung, delivered in ${ms(drainMs)} ms once it answered: ${(BURST / (drainMs / 1000)).toFixed(0)} events/s`,
    );
    const hookedMean = mean(cost.hooked);
    const plainMean = mean(cost.plain);
    console.log(
      `finalise transaction: with endpoint mean ${ms(hookedMean)} ms (p50 ${ms(quantile(sortedOf(cost.hooked), 0.5))}), without ${ms(plainMean)} ms (p50 ${ms(quantile(sortedOf(cost.plain), 0.5))}); added cost per upload ${ms(hookedMean - plainMean)} ms (ratio ${(hookedMean / plainMean).toFixed(3)})`,
    );
    console.log(`deliveries received: ${deliveries} (unique events ${arrivals.size})`);
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
