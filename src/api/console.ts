/**
 * The review console (web/, built by `npm run build:web` to web/dist) served at /console. Static files, no auth of
 * their own: the console signs in with client credentials and calls the API with its token. Without a build,
 * /console answers 404 saying how to build it, and the API works as before.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { DocsiftError } from "../domain/errors.js";

/** web/dist from src/api (tsx) and from dist/api (built) alike: both sit two levels below the package root. */
export const CONSOLE_DIR = fileURLToPath(new URL("../../web/dist/", import.meta.url));

export async function registerConsole(app: FastifyInstance, dir = CONSOLE_DIR): Promise<void> {
  if (!existsSync(`${dir}index.html`)) {
    const missing = async () => {
      throw new DocsiftError("not_found", "The review console is not built; run `npm run build:web`.");
    };
    app.get("/console", { schema: { hide: true } }, missing);
    app.get("/console/*", { schema: { hide: true } }, missing);
    return;
  }
  // Relative asset URLs resolve against /console/, so the bare path redirects there.
  app.get("/console", { schema: { hide: true } }, async (_request, reply) => reply.redirect("/console/"));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: "/console/",
    // Hashed asset names never change; index.html must be revalidated to pick up a new build.
    setHeaders: (res, path) => {
      res.setHeader("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
}
