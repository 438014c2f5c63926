/** `docsift clients create|list|revoke`: the OAuth2 client registry in the data directory (works while serving). */
import { resolve } from "node:path";
import { type CreateClientOptions, createClient, parseScopes } from "../auth/clients.js";
import { SCOPES, TENANT_SCOPES } from "../auth/scopes.js";
import { openStorage } from "../store/open.js";
import { HELP_OPTION, parseCommandLine, STORAGE_HELP, STORAGE_OPTIONS, storageFrom, UsageError } from "./args.js";

const HELP = `Usage: docsift clients <create|list|revoke> [options]

  create --name NAME [--scopes S1,S2] [--tenant ID] [--json]
      Create a client. Scopes: ${SCOPES.join(", ")}.
      The default is the tenant's work: ${TENANT_SCOPES.join(", ")}. metrics:read (GET /metrics)
      shows every tenant's activity: give it to the monitoring's client only. Without --tenant the client gets a new
      tenant named after it; --tenant ID joins an existing tenant (clients of a tenant see each other's files).
      Prints the client id and secret; the secret is shown only now and stored scrypt-hashed.
  list [--json]
      List clients (never their secrets).
  revoke ID
      Revoke a client: its tokens stop working within seconds and it cannot get new ones.

Storage options (environment variable in brackets), as for serve:
${STORAGE_HELP}
`;

type Action =
  | { action: "create"; options: CreateClientOptions }
  | { action: "list" }
  | { action: "revoke"; id: string };

/** The action and its arguments, checked before any storage is opened (a wrong --scopes is a usage error). */
function actionOf(
  positionals: readonly string[],
  values: { name?: string; scopes?: string[]; tenant?: string },
): Action {
  const [action, id] = positionals;
  if (action === "list") return { action };
  if (action === "revoke") {
    if (!id) throw new UsageError("clients revoke needs a client id");
    return { action, id };
  }
  if (action !== "create") throw new UsageError(`unknown action "${action}": create, list or revoke`);
  if (!values.name) throw new UsageError("clients create needs --name NAME");
  let scopes: string[] | undefined;
  try {
    scopes = values.scopes === undefined ? undefined : parseScopes(values.scopes);
  } catch (err) {
    throw new UsageError(`--scopes: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { action, options: { name: values.name, scopes, tenantId: values.tenant } };
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      name: { type: "string" },
      scopes: { type: "string", multiple: true },
      tenant: { type: "string" },
      json: { type: "boolean", default: false },
      ...STORAGE_OPTIONS,
      ...HELP_OPTION,
    },
    true,
  );
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const command = actionOf(positionals, values);
  const { dataDir, storage } = storageFrom(values);
  const { store } = await openStorage(resolve(dataDir), storage);
  try {
    switch (command.action) {
      case "create": {
        const created = await createClient(store, command.options);
        if (values.json) {
          process.stdout.write(
            `${JSON.stringify({ clientId: created.clientId, clientSecret: created.clientSecret })}\n`,
          );
        } else {
          process.stdout.write(
            `client id:     ${created.clientId}\nclient secret: ${created.clientSecret}\ntenant:        ${created.tenantId}\nscopes:        ${created.scopes.join(" ")}\n(the secret is shown only now)\n`,
          );
        }
        return 0;
      }
      case "list": {
        const clients = (await store.clients.list()).map((c) => ({
          clientId: c.id,
          name: c.name,
          tenantId: c.tenantId,
          scopes: c.scopes,
          createdAt: c.createdAt,
          revokedAt: c.revokedAt,
        }));
        if (values.json) process.stdout.write(`${JSON.stringify(clients)}\n`);
        else {
          for (const c of clients) {
            process.stdout.write(
              `${c.clientId}  ${c.name}  tenant=${c.tenantId}  scopes=${c.scopes.join(",")}${c.revokedAt ? `  revoked ${c.revokedAt}` : ""}\n`,
            );
          }
        }
        return 0;
      }
      case "revoke": {
        const { id } = command;
        if (!(await store.clients.revoke(id))) {
          process.stderr.write(`No active client "${id}".\n`);
          return 1;
        }
        process.stdout.write(`revoked ${id}\n`);
        return 0;
      }
    }
  } finally {
    await store.close();
  }
}
