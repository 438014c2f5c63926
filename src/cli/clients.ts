/** `docsift clients create|list|revoke`: the OAuth2 client registry in the data directory (works while serving). */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { createClient } from "../auth/clients.js";
import { SCOPES } from "../auth/scopes.js";
import { openStorage, storageOptionsFromEnv } from "../store/open.js";

const HELP = `Usage: docsift clients <create|list|revoke> [options]

  create --name NAME [--scopes S1,S2] [--tenant ID] [--json]
      Create a client. Scopes default to all (${SCOPES.join(", ")}). Without --tenant the client gets a new
      tenant named after it; --tenant ID joins an existing tenant (clients of a tenant see each other's files).
      Prints the client id and secret; the secret is shown only now and stored scrypt-hashed.
  list [--json]
      List clients (never their secrets).
  revoke ID
      Revoke a client: its tokens stop working within seconds and it cannot get new ones.

Common: --data DIR (env DOCSIFT_DATA, default ./data)
`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scopes: { type: "string", multiple: true },
      tenant: { type: "string" },
      data: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [action, ...rest] = positionals;
  if (values.help || !action) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const { store } = await openStorage(
    resolve(values.data ?? process.env.DOCSIFT_DATA ?? "./data"),
    storageOptionsFromEnv(),
  );
  try {
    switch (action) {
      case "create": {
        if (!values.name) {
          process.stderr.write("clients create needs --name NAME\n");
          return 2;
        }
        const created = await createClient(store, {
          name: values.name,
          scopes: values.scopes,
          tenantId: values.tenant,
        });
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
        const [id] = rest;
        if (!id) {
          process.stderr.write("clients revoke needs a client id\n");
          return 2;
        }
        if (!(await store.clients.revoke(id))) {
          process.stderr.write(`No active client "${id}".\n`);
          return 1;
        }
        process.stdout.write(`revoked ${id}\n`);
        return 0;
      }
      default:
        process.stderr.write(`Unknown action "${action}".\n\n${HELP}`);
        return 2;
    }
  } finally {
    await store.close();
  }
}
