/**
 * One delivery attempt over HTTP(S): POST the signed body, wait at most `timeoutMs` for the whole answer, follow no
 * redirect (a 3xx is a failure like any non-2xx), and read at most MAX_RESPONSE_BYTES of the answer's body (drained
 * so the connection can be reused) before the connection is dropped. The target is checked again here (address.ts), on the address the
 * socket connects to. Keep-alive agents reuse connections to a receiver; a new connection is checked again.
 */
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkedLookup, checkTarget, hostOf, type TargetPolicy } from "./address.js";

export const MAX_RESPONSE_BYTES = 4096;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface AttemptResult {
  /** True for a 2xx answer within the time limit. */
  ok: boolean;
  /** The HTTP status, when one came. */
  statusCode: number | null;
  /** Why it failed, for the delivery log: the status line, a timeout, a refused target, a connection error. */
  error: string | null;
}

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

export async function postSigned(
  target: string,
  body: string,
  headers: Record<string, string>,
  policy: TargetPolicy & { timeoutMs: number },
): Promise<AttemptResult> {
  const url = new URL(target);
  // An IP literal never goes through `lookup`: it is checked here instead.
  if (isIP(hostOf(url))) {
    try {
      await checkTarget(url, policy);
    } catch (err) {
      return { ok: false, statusCode: null, error: (err as Error).message };
    }
  }
  const client = url.protocol === "https:" ? https : http;
  const agent = url.protocol === "https:" ? agents["https:"] : agents["http:"];
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: "POST",
        agent,
        lookup: checkedLookup(policy) as never,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "docsift-webhooks",
        },
      },
      (response) => {
        // The status decides; the body is drained for the connection's reuse, up to MAX_RESPONSE_BYTES, then dropped.
        finish(outcome(response.statusCode ?? 0));
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("error", () => undefined);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, error: `no answer within ${policy.timeoutMs} ms` });
    }, policy.timeoutMs);
    request.on("error", (err) => finish({ ok: false, statusCode: null, error: err.message }));
    request.end(body);
  });
}

function outcome(status: number): AttemptResult {
  const ok = status >= 200 && status < 300;
  return { ok, statusCode: status, error: ok ? null : `answered HTTP ${status}` };
}
