/**
 * `docsift webhooks list|create|delete|deliveries`: the webhook endpoints of a running service, as the tenant of the
 * credentials sees them (scope webhooks:manage).
 */
import { DocsiftApiError, type DocsiftClient, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../client/index.js";
import { choiceOption, integerOption, parseCommandLine, UsageError } from "./args.js";
import { printJsonLine, REMOTE_ENV_HELP, type RemoteAction, runRemoteAction } from "./remote-client.js";

const HELP = `Usage: docsift webhooks list
       docsift webhooks create URL [--event TYPE]... [--description TEXT]
       docsift webhooks delete WEBHOOKID...
       docsift webhooks deliveries WEBHOOKID [--status S] [--limit N]

Your tenant's webhook endpoints. Deliveries are signed per Standard Webhooks.

  list         one JSON line per endpoint: id, url, events, enabled, disabledReason, ...
  create       registers URL and prints it as JSON with its signing "secret": shown this once, keep it
               --event TYPE        ${WEBHOOK_EVENT_TYPES.join(", ")}; repeatable (default: all)
               --description TEXT  a note for you
  delete       deletes each endpoint and its delivery log; prints {id, deleted}
  deliveries   one JSON line per delivery, newest first: id, eventId, type, fileId, status, attempts,
               lastStatusCode, lastAttemptAt, lastError, nextAttemptAt
               --status S   pending, delivered or failed
               --limit N    at most N deliveries (default: all)

  -h, --help   show this help

${REMOTE_ENV_HELP}

Exit status: 0 done, 1 an endpoint is unknown or a request failed, 2 bad usage.
`;

async function create(client: DocsiftClient, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { event: { type: "string", multiple: true }, description: { type: "string" } },
    true,
  );
  const [url, ...extra] = positionals;
  if (url === undefined || extra.length > 0) throw new UsageError("Name exactly one URL.");
  const events = (values.event as string[] | undefined)?.map(
    (e) => choiceOption("--event", e, WEBHOOK_EVENT_TYPES) as WebhookEventType,
  );
  printJsonLine(
    await client.createWebhook({
      url,
      events: events ?? WEBHOOK_EVENT_TYPES,
      description: values.description as string | undefined,
    }),
  );
  return 0;
}

async function deliveries(client: DocsiftClient, argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { status: { type: "string" }, limit: { type: "string" } },
    true,
  );
  if (positionals.length !== 1) throw new UsageError("Name exactly one WEBHOOKID.");
  const limit = integerOption("--limit", values.limit as string | undefined, 1);
  const status = choiceOption(
    "--status",
    values.status as string | undefined,
    ["pending", "delivered", "failed"] as const,
  );
  let printed = 0;
  for await (const delivery of client.webhookDeliveries(positionals[0] as string, { status })) {
    if (limit !== undefined && printed >= limit) break;
    printJsonLine(delivery);
    printed++;
  }
  return 0;
}

async function remove(client: DocsiftClient, ids: string[]): Promise<number> {
  if (ids.length === 0) throw new UsageError("Name at least one WEBHOOKID.");
  let code = 0;
  for (const id of ids) {
    const deleted = await client.deleteWebhook(id);
    printJsonLine({ id, deleted });
    if (!deleted) code = 1;
  }
  return code;
}

/** An endpoint that is not there (or not the tenant's) is printed as the service's error, exit 1. */
function notFoundPrinted(action: RemoteAction): RemoteAction {
  return async (client, args) => {
    try {
      return await action(client, args);
    } catch (err) {
      if (!(err instanceof DocsiftApiError && err.code === "not_found")) throw err;
      printJsonLine(err.toJSON());
      return 1;
    }
  };
}

async function list(client: DocsiftClient, argv: string[]): Promise<number> {
  parseCommandLine(argv, {});
  for await (const hook of client.webhooks()) printJsonLine(hook);
  return 0;
}

export function run(argv: string[]): Promise<number> {
  return runRemoteAction(HELP, argv, {
    list: notFoundPrinted(list),
    create: notFoundPrinted(create),
    delete: notFoundPrinted((client, rest) => remove(client, parseCommandLine(rest, {}, true).positionals)),
    deliveries: notFoundPrinted(deliveries),
  });
}
