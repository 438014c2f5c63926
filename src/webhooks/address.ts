/**
 * What a webhook URL may point at (SSRF). The URL must be https (http only when the operator allows it) and every
 * address its host resolves to must be public unicast: loopback, private, link-local (cloud metadata at
 * 169.254.169.254 among them), carrier-grade NAT, unique-local, multicast, reserved and the IPv6 forms embedding such an
 * IPv4 address are refused unless the operator allows private targets. The check runs at creation and again at every
 * delivery, and the delivery connects to the very address checked (`checkedLookup`), so a DNS answer that changes
 * between the check and the connection (rebinding) cannot redirect it. ipaddr.js classifies the ranges.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { DocsiftError } from "../domain/errors.js";

export interface TargetPolicy {
  /** DOCSIFT_WEBHOOK_ALLOW_HTTP=1: plain http URLs accepted. */
  allowHttp: boolean;
  /** DOCSIFT_WEBHOOK_ALLOW_PRIVATE=1: loopback and private addresses accepted (tests, internal receivers). */
  allowPrivate: boolean;
}

const MAX_URL_LENGTH = 2048;

/** The URL parsed and its scheme, length and credentials checked; the addresses are checked by `checkTarget`. */
export function parseWebhookUrl(text: unknown, policy: TargetPolicy): URL {
  const refuse = (why: string) => new DocsiftError("bad_request", `url ${why}.`);
  if (typeof text !== "string" || text.length === 0) throw refuse("must be a non-empty string");
  if (text.length > MAX_URL_LENGTH) throw refuse(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse("is not an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) {
    throw refuse(
      policy.allowHttp ? "must be http or https" : "must be https (http needs DOCSIFT_WEBHOOK_ALLOW_HTTP=1)",
    );
  }
  if (url.username || url.password) throw refuse("must not carry credentials");
  return url;
}

/** True for a public unicast address, the only kind a webhook may reach by default. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

function refused(host: string, address: string): DocsiftError {
  return new DocsiftError(
    "bad_request",
    `url host ${host} resolves to ${address}, a loopback, private, link-local or reserved address (allowed only with DOCSIFT_WEBHOOK_ALLOW_PRIVATE=1).`,
  );
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}

/** The host's addresses, every one of them checked; throws `bad_request` naming the first refused. */
export async function checkTarget(url: URL, policy: TargetPolicy): Promise<LookupAddress[]> {
  const host = hostOf(url);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new DocsiftError("bad_request", `url host ${host} does not resolve.`);
  }
  if (addresses.length === 0) throw new DocsiftError("bad_request", `url host ${host} does not resolve.`);
  if (!policy.allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw refused(host, bad.address);
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request: resolves the host, refuses it unless every address passes, and hands the socket the
 * first checked address, so the connection goes where the check looked.
 */
export function checkedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    checkTarget(new URL(`http://${hostname.includes(":") ? `[${hostname}]` : hostname}/`), policy).then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(Object.assign(err, { code: "EWEBHOOKTARGET" }), ""),
    );
  };
}
