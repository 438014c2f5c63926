import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { describe, test } from "node:test";
import { DEFAULT_MAX_QUEUE } from "../../src/api/queue-bound.js";
import { DEFAULT_RATE_LIMITS } from "../../src/api/rate-limit-hook.js";
import {
  ConfigError,
  DEFAULT_INSPECT_LIMITS,
  DEFAULT_JOB_LIMITS,
  DEFAULT_PG_QUEUE_TUNING,
  DEFAULT_RESULT_WAIT_MS,
  fromServiceConfig,
  loadConfig,
  remoteConfig,
  storageConfig,
} from "../../src/runtime/config.js";
import { DEFAULT_PAGE_IMAGE_SETTINGS } from "../../src/workflows/page-images.js";

/** Asserts that `env` is refused with a ConfigError naming `name` and quoting `value`. */
function refused(env: Record<string, string>, name: string, value: string, flags = {}): void {
  assert.throws(
    () => loadConfig(flags, env),
    (err: unknown) => err instanceof ConfigError && err.message.includes(name) && err.message.includes(`"${value}"`),
    `${JSON.stringify(env)} ${JSON.stringify(flags)}`,
  );
}

describe("loadConfig", () => {
  test("an empty environment gives every default", () => {
    const config = loadConfig({}, {});
    assert.deepEqual(config.storage, {
      dataDir: "./data",
      databaseUrl: undefined,
      blobUrl: undefined,
      s3: { region: "us-east-1", endpoint: undefined, forcePathStyle: false },
    });
    assert.deepEqual(config.http, {
      host: "127.0.0.1",
      port: 8080,
      resultWaitMs: DEFAULT_RESULT_WAIT_MS,
      bootstrapClient: undefined,
      rateLimits: DEFAULT_RATE_LIMITS,
      maxQueue: DEFAULT_MAX_QUEUE,
      trustProxy: undefined,
    });
    assert.deepEqual(config.jobs, {
      run: true,
      threads: availableParallelism(),
      limits: DEFAULT_JOB_LIMITS,
      inspectLimits: DEFAULT_INSPECT_LIMITS,
      retentionDays: undefined,
      orphanGraceMs: 3_600_000,
      queue: DEFAULT_PG_QUEUE_TUNING,
    });
    assert.deepEqual(config.pageImages, DEFAULT_PAGE_IMAGE_SETTINGS);
    assert.deepEqual(config.ocr, {
      engine: undefined,
      fallback: true,
      reread: true,
      pageTimeoutMs: 60_000,
      searchPath: "",
    });
    assert.equal(config.logLevel, "info");
  });

  test("each variable sets its value; empty counts as unset", () => {
    const config = loadConfig(
      {},
      {
        PORT: "9000",
        HOST: "",
        DOCSIFT_WORKERS: "3",
        DOCSIFT_RATE_LIMIT: "off",
        DOCSIFT_UPLOAD_RATE_LIMIT: "5/10s",
        DOCSIFT_TOKEN_RATE_LIMIT: "",
        DOCSIFT_MAX_QUEUE: "off",
        DOCSIFT_TRUST_PROXY: "true",
        DOCSIFT_RETENTION_DAYS: "0.5",
        DOCSIFT_ORPHAN_GRACE_S: "2",
        DOCSIFT_JOB_TIMEOUT_MS: "1000",
        DOCSIFT_RENDER_QUEUE: "0",
        DOCSIFT_OCR_ENGINE: "tesseract-js",
        DOCSIFT_OCR_FALLBACK: "none",
        DOCSIFT_OCR_REREAD: "off",
        DOCSIFT_JOB_RETRIES: "9",
        PGBOSS_SCHEMA: "jobs",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        LOG_LEVEL: "silent",
      },
    );
    assert.equal(config.http.port, 9000);
    assert.equal(config.http.host, "127.0.0.1");
    assert.equal(config.jobs.threads, 3);
    assert.deepEqual(config.http.rateLimits, {
      requests: undefined,
      uploads: { count: 5, windowMs: 10_000 },
      token: DEFAULT_RATE_LIMITS.token,
    });
    assert.equal(config.http.maxQueue, 0);
    assert.equal(config.http.trustProxy, true);
    assert.equal(config.jobs.retentionDays, 0.5);
    assert.equal(config.jobs.orphanGraceMs, 2000);
    assert.deepEqual(config.jobs.limits, { ...DEFAULT_JOB_LIMITS, taskTimeoutMs: 1000 });
    assert.equal(config.pageImages.maxQueued, 0);
    assert.deepEqual([config.ocr.engine, config.ocr.fallback, config.ocr.reread], ["tesseract-js", false, false]);
    assert.deepEqual(config.jobs.queue, { ...DEFAULT_PG_QUEUE_TUNING, retryLimit: 9, schema: "jobs" });
    assert.deepEqual(config.storage.s3, {
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9000",
      forcePathStyle: true,
    });
    assert.equal(config.logLevel, "silent");
  });

  test("a flag wins over its variable, and a bad flag is named as the flag", () => {
    const env = { PORT: "9000", DOCSIFT_WORKERS: "many", DOCSIFT_DATA: "/from/env" };
    const config = loadConfig({ port: "9001", workers: "2", data: "/from/flag", "no-worker": true }, env);
    assert.equal(config.http.port, 9001);
    assert.equal(config.jobs.threads, 2);
    assert.equal(config.storage.dataDir, "/from/flag");
    assert.equal(config.jobs.run, false);
    refused({}, "--port", "70000", { port: "70000" });
  });

  test("a bad value is a ConfigError naming the variable and the value", () => {
    const cases: [string, string][] = [
      ["PORT", "abc"],
      ["DOCSIFT_WORKERS", "0"],
      ["DOCSIFT_RESULT_WAIT_MS", "-1"],
      ["DOCSIFT_TOKEN_RATE_LIMIT", "lots"],
      ["DOCSIFT_MAX_QUEUE", "-3"],
      ["DOCSIFT_MAX_QUEUE", "many"],
      ["DOCSIFT_RETENTION_DAYS", "soon"],
      ["DOCSIFT_ORPHAN_GRACE_S", "0"],
      ["DOCSIFT_JOB_TIMEOUT_MS", "fast"],
      ["DOCSIFT_JOB_MEMORY_MB", "-5"],
      ["DOCSIFT_INSPECT_TIMEOUT_MS", "x"],
      ["DOCSIFT_INSPECT_MEMORY_MB", "0"],
      ["DOCSIFT_RENDER_THREADS", "0"],
      ["DOCSIFT_RENDER_QUEUE", "1.5"],
      ["DOCSIFT_PAGE_CACHE_MB", "big"],
      ["DOCSIFT_OCR_ENGINE", "magic"],
      ["DOCSIFT_OCR_FALLBACK", "always"],
      ["DOCSIFT_OCR_REREAD", "always"],
      ["DOCSIFT_OCR_TIMEOUT_MS", "never"],
      ["DOCSIFT_JOB_EXPIRE_SECONDS", "0"],
      ["DOCSIFT_QUEUE_MAINTENANCE_SECONDS", "x"],
      ["DOCSIFT_QUEUE_POLL_SECONDS", "-1"],
      ["DOCSIFT_JOB_RETRIES", "1.5"],
      ["DOCSIFT_JOB_RETRY_DELAY_SECONDS", "0"],
      ["S3_FORCE_PATH_STYLE", "yes"],
      ["LOG_LEVEL", "loud"],
    ];
    for (const [name, value] of cases) refused({ [name]: value }, name, value);
  });
});

describe("fromServiceConfig (the library's startService)", () => {
  test("its fields win, a field left out takes its default, not its variable", () => {
    const env = { DATABASE_URL: "postgres://elsewhere/db", DOCSIFT_MAX_QUEUE: "5", DOCSIFT_RETENTION_DAYS: "3" };
    const config = fromServiceConfig({ dataDir: "/d", host: "127.0.0.1", port: 0, workers: 2 }, env);
    assert.equal(config.storage.databaseUrl, undefined);
    assert.equal(config.http.maxQueue, DEFAULT_MAX_QUEUE);
    assert.equal(config.jobs.threads, 2);
    assert.equal(config.http.port, 0);
    // No field for these: they still come from the environment.
    assert.equal(config.jobs.retentionDays, 3);
    refused({ DOCSIFT_RENDER_THREADS: "none" }, "DOCSIFT_RENDER_THREADS", "none");
    assert.throws(
      () => fromServiceConfig({ dataDir: "/d", host: "h", port: 0, logLevel: "chatty" }, {}),
      (err: unknown) => err instanceof ConfigError && /logLevel/.test(err.message),
    );
  });
});

describe("storageConfig and remoteConfig (the other commands)", () => {
  test("storage: flag before variable; path style follows a custom endpoint unless set", () => {
    const storage = storageConfig(
      { "database-url": "postgres://flag/db" },
      { DATABASE_URL: "postgres://env/db", BLOB_URL: "s3://b/p", AWS_ENDPOINT_URL: "http://minio:9000" },
    );
    assert.equal(storage.databaseUrl, "postgres://flag/db");
    assert.equal(storage.blobUrl, "s3://b/p");
    assert.equal(storage.s3.forcePathStyle, true);
    const aws = storageConfig({}, { AWS_DEFAULT_REGION: "eu-west-1", S3_FORCE_PATH_STYLE: "true" });
    assert.deepEqual(aws.s3, { region: "eu-west-1", endpoint: undefined, forcePathStyle: true });
  });

  test("remote: an API key or an id and a secret; a bad one is named", () => {
    assert.deepEqual(remoteConfig({ DOCSIFT_API_KEY: "id:se:cret" }), {
      baseUrl: "http://127.0.0.1:8080",
      clientId: "id",
      clientSecret: "se:cret",
    });
    assert.throws(() => remoteConfig({ DOCSIFT_API_KEY: "nocolon" }), /DOCSIFT_API_KEY/);
    assert.throws(() => remoteConfig({ DOCSIFT_CLIENT_ID: "id" }), /DOCSIFT_API_KEY=id:secret/);
    assert.throws(() => remoteConfig({ DOCSIFT_API_KEY: "a:b", DOCSIFT_URL: "not a url" }), /DOCSIFT_URL/);
  });
});

describe("README", () => {
  test('"Configuration" lists every variable config.ts reads', () => {
    const source = readFileSync(new URL("../../src/runtime/config.ts", import.meta.url), "utf8");
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const start = readme.indexOf("## Configuration");
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const names = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]*)|"([A-Z][A-Z0-9_]*)"/g)].map((m) => m[1] ?? m[2]));
    // PATH is where tesseract is looked for, not a docsift setting.
    names.delete("PATH");
    const missing = [...names].filter((name) => !section.includes(`\`${name}\``));
    assert.deepEqual(missing, []);
  });
});
