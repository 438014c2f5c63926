/**
 * A real webhook receiver for the tests: a node http server on 127.0.0.1 that checks every delivery's signature with
 * the Standard Webhooks library from npm (not docsift's code) and records what it got. `answer` decides each
 * response's status (500 while a test wants the endpoint down).
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  type: string;
  fileId: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> & { fileId: string } };
  raw: string;
  headers: IncomingHttpHeaders;
  /** Which of the receiver's secrets verified it. */
  verifiedWith: string[];
}

export interface Receiver {
  url: string;
  /** Every delivery answered 2xx (duplicates included), in arrival order. */
  received: Received[];
  /** Requests answered with something else. */
  refused: number;
  /** Deliveries whose signature no secret verified (must stay 0). */
  forged: number;
  /** The secrets a delivery may be signed with; set after creating the endpoint. */
  secrets: string[];
  answer: (delivery: Received) => number;
  /** Requests left unanswered so far. */
  held: number;
  /** While this returns true for a request, it is left unanswered (a receiver that hangs). */
  holdWhile: (delivery: Received) => boolean;
  /** Deliveries by `webhook-id`, first arrival of each. */
  unique(): Received[];
  /** Resolves once `predicate` holds over the received deliveries, or rejects after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let server: Server;
  const receiver: Receiver = {
    url: "",
    received: [],
    refused: 0,
    forged: 0,
    secrets: [],
    answer: () => 200,
    holdWhile: () => false,
    held: 0,
    unique() {
      const seen = new Map<string, Received>();
      for (const r of receiver.received) if (!seen.has(r.id)) seen.set(r.id, r);
      return [...seen.values()];
    },
    async until(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) {
          throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
      );
      const verifiedWith = receiver.secrets.filter((secret) => {
        try {
          new Webhook(secret).verify(raw, headers);
          return true;
        } catch {
          return false;
        }
      });
      if (verifiedWith.length === 0) {
        receiver.forged++;
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw) as Received["body"];
      const delivery: Received = {
        id: String(req.headers["webhook-id"]),
        type: body.type,
        fileId: body.data.fileId,
        body,
        raw,
        headers: req.headers,
        verifiedWith,
      };
      if (receiver.holdWhile(delivery)) {
        receiver.held++;
        return;
      }
      const status = receiver.answer(delivery);
      if (status >= 200 && status < 300) receiver.received.push(delivery);
      else receiver.refused++;
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "not now");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
