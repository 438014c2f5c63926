/**
 * POST /oauth2/token: the client-credentials grant (RFC 6749 4.4). Credentials by HTTP Basic or in a form/JSON body;
 * errors keep the service's `{error, message}` shape and add OAuth2's `error_description` (the same text), which
 * existing clients print. POST /oauth/token is the same route under the path older clients of this interface use
 * (`audience` accepted and ignored).
 *
 * Credentials never belong in a URL (proxies and access logs keep URLs): a request carrying them in the query is
 * refused, and the query string of these paths is never logged.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ClientChecks } from "../../auth/clients.js";
import type { KeySet } from "../../auth/signing-key.js";
import { issueToken } from "../../auth/tokens.js";
import { DocsiftError } from "../../domain/errors.js";
import { errorResponses, errorSchema } from "../schemas.js";

/** The token paths: the current one and the one older clients send to. */
export const TOKEN_PATHS = ["/oauth2/token", "/oauth/token"] as const;

const CREDENTIAL_PARAMS = ["client_id", "client_secret"];

/** The request as logged on the token paths: the query string (where a careless client puts secrets) left out. */
function requestWithoutQuery(request: FastifyRequest): Record<string, unknown> {
  const query = request.url.indexOf("?");
  return {
    method: request.method,
    url: query < 0 ? request.url : `${request.url.slice(0, query)}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

function refuseCredentialsInQuery(request: FastifyRequest): void {
  const query = request.url.indexOf("?");
  if (query < 0) return;
  const params = new URLSearchParams(request.url.slice(query + 1));
  if (CREDENTIAL_PARAMS.some((name) => params.has(name))) {
    throw new DocsiftError(
      "bad_request",
      "Client credentials in the URL are refused (URLs end up in logs): send them as HTTP Basic or in the POST body, " +
        "and issue a new secret if this one was sent before.",
    );
  }
}

const tokenErrorSchema = {
  ...errorSchema,
  properties: {
    ...errorSchema.properties,
    error_description: { type: "string", description: "OAuth2's name for `message` (the same text)." },
  },
};

const tokenErrorResponses = (...statuses: number[]): Record<number, object> =>
  Object.fromEntries(
    Object.entries(errorResponses(...statuses)).map(([status, schema]) => [status, { ...schema, ...tokenErrorSchema }]),
  );

interface TokenBody {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  scope?: string;
  audience?: string;
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = header ? /^Basic\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const sep = decoded.indexOf(":");
  if (sep < 0) throw new DocsiftError("invalid_client", "The Basic credentials are not client_id:client_secret.");
  // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
  const formDecode = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return { id: formDecode(decoded.slice(0, sep)), secret: formDecode(decoded.slice(sep + 1)) };
}

export async function tokenRoutes(app: FastifyInstance, opts: { clients: ClientChecks; keys: KeySet }): Promise<void> {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  // Error answers also carry OAuth2's error_description, which existing clients read.
  app.addHook("onSend", async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== "string") return payload;
    const body: unknown = JSON.parse(payload);
    if (typeof body !== "object" || body === null || !("message" in body)) return payload;
    return JSON.stringify({ ...body, error_description: body.message });
  });

  const logSerializers = { req: requestWithoutQuery };
  for (const path of TOKEN_PATHS) {
    // Other methods answer here too, so that no request to these paths is logged with its query by the 404 handler.
    app.route({
      method: ["GET", "PUT", "PATCH", "DELETE"],
      url: path,
      logSerializers,
      schema: { hide: true },
      handler: async (request) => {
        refuseCredentialsInQuery(request);
        throw new DocsiftError("bad_request", `Request a token with POST ${path}.`);
      },
    });
  }

  const route = {
    logSerializers,
    onRequest: async (request: FastifyRequest) => refuseCredentialsInQuery(request),
    config: { rateLimit: "token" as const },
    schema: {
      tags: ["auth"],
      summary: "Get an access token (OAuth2 client credentials)",
      description:
        "Client-credentials grant. Send the client id and secret as HTTP Basic (`Authorization: Basic base64(id:secret)`) " +
        "with form `grant_type=client_credentials`, or as `client_id`/`client_secret` in a form or JSON body. " +
        "`audience` is accepted and ignored; `scope` (space-separated) narrows the token to a subset of the client's scopes. " +
        "The token is a JWT (EdDSA) valid for 3600 s. Errors: 400 `bad_request`, 401 `invalid_client`.",
      consumes: ["application/x-www-form-urlencoded", "application/json"],
      body: {
        type: "object",
        properties: {
          grant_type: { type: "string", enum: ["client_credentials"] },
          client_id: { type: "string", maxLength: 200 },
          client_secret: { type: "string", maxLength: 500 },
          scope: { type: "string", maxLength: 500 },
          audience: { type: "string", maxLength: 500 },
        },
      },
      response: {
        200: {
          type: "object",
          properties: {
            access_token: { type: "string" },
            token_type: { type: "string", enum: ["Bearer"] },
            expires_in: { type: "integer" },
            scope: { type: "string", description: "Space-separated scopes the token carries." },
          },
          required: ["access_token", "token_type", "expires_in", "scope"],
        },
        ...tokenErrorResponses(400, 401, 403, 429),
      },
    },
  };
  const handler = async (request: FastifyRequest<{ Body: TokenBody | undefined }>, reply: FastifyReply) => {
    const body = request.body ?? {};
    if (body.grant_type !== "client_credentials") {
      throw new DocsiftError("bad_request", 'grant_type must be "client_credentials".');
    }
    const basic = basicCredentials(request.headers.authorization);
    const id = basic?.id ?? body.client_id;
    const secret = basic?.secret ?? body.client_secret;
    if (!id || !secret) {
      reply.header("www-authenticate", 'Basic realm="docsift"');
      throw new DocsiftError("invalid_client", "Send client_id and client_secret (HTTP Basic or in the body).");
    }
    const principal = await opts.clients.authenticate(id, secret);
    if (body.scope !== undefined && body.scope.trim() !== "") {
      const asked = body.scope.split(/\s+/).filter((s) => s.length > 0);
      const missing = asked.filter((s) => !(principal.scopes as string[]).includes(s));
      if (missing.length > 0) throw new DocsiftError("forbidden", `This client does not hold ${missing.join(", ")}.`);
      principal.scopes = principal.scopes.filter((s) => asked.includes(s));
    }
    reply.header("cache-control", "no-store");
    return issueToken(opts.keys, principal);
  };
  app.post<{ Body: TokenBody | undefined }>("/oauth2/token", route, handler);
  app.post<{ Body: TokenBody | undefined }>(
    "/oauth/token",
    { ...route, schema: { ...route.schema, summary: "The same, at the path older clients use" } },
    handler,
  );
}
