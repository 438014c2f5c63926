/**
 * The review console end to end in Debian's Chromium (playwright-core, no downloaded browser): sign in, open the
 * task, correct a value with the keyboard and the line items in their table (a cell edited, a row added), approve,
 * and see the file's result FINALISED with those values. Saves a screenshot of the task view to
 * test/e2e/out/console.png. Builds the console first when web/dist is missing.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { build } from "vite";
import { CONSOLE_DIR } from "../../src/api/console.js";
import { invoicePdf, requestJson, startTestServer, type TestServer, upload, uploadForm } from "../helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const OUT = fileURLToPath(new URL("./out/", import.meta.url));
const WEB_CONFIG = fileURLToPath(new URL("../../web/vite.config.ts", import.meta.url));

let server: TestServer;
let browser: Browser;

before(async () => {
  // What `npm run build:web` does, for a fresh checkout.
  if (!existsSync(`${CONSOLE_DIR}index.html`)) await build({ configFile: WEB_CONFIG, logLevel: "warn" });
  server = await startTestServer({ workers: 1, resultWaitMs: 20_000 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a reviewer signs in, corrects a value and the line items, approves; the file is FINALISED with them", async () => {
  const token = await server.token();
  const pdf = await invoicePdf({ number: "INV-2041", date: "02.05.2024", total: "1,980.00" });
  const receipt = await upload(
    server,
    token,
    uploadForm(
      pdf,
      {
        fieldSet: "invoice",
        workflowId: "validate",
        workflowOptions: JSON.stringify({
          prediction: {
            fieldset: "invoice",
            conditions: [{ type: "field-value-range", field: "invoice.total", min: 0, max: 1000 }],
            createTask: { priority: 80 },
          },
        }),
      },
      { fileName: "acme-invoice.pdf" },
    ),
  );
  assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
  const fileId = String(receipt.body.fileId);

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/console`);
  await page.getByLabel("Client id").fill(server.admin.clientId);
  await page.getByLabel("Client secret").fill(server.admin.clientSecret);
  await page.keyboard.press("Enter");

  // The task appears once the job has run (r refreshes the queue).
  const row = page.locator(".task", { hasText: "acme-invoice.pdf" });
  for (let i = 0; i < 60 && (await row.count()) === 0; i++) {
    await page.waitForTimeout(250);
    await page.keyboard.press("r");
  }
  await row.waitFor();
  assert.match((await row.textContent()) ?? "", /invoice\.total/);
  await page.keyboard.press("Enter");

  // The first breached field is selected; its box is drawn over the page image.
  const total = page.locator('.field.selected[data-field="invoice.total"]');
  await total.waitFor();
  assert.match((await total.textContent()) ?? "", /1980\.00/);
  assert.match((await total.textContent()) ?? "", /value outside 0 … 1000/);
  await page.locator(".page img").first().waitFor();
  await page.locator(".box.breached.active").waitFor();

  await page.keyboard.press("e");
  const input = page.getByLabel("Value of invoice.total");
  await input.waitFor();
  await input.fill("980.00");
  await input.press("Enter");
  await page.locator(".field.changed", { hasText: "980.00" }).waitFor();

  // The line items are a table: edit a cell, add a row and fill it.
  const items = page.locator('.field[data-field="invoice.lineItems"]');
  await items.click();
  const description = page.getByLabel("Row 1 description");
  assert.equal(await description.inputValue(), "Consulting services");
  await description.fill("Consulting services, May");
  await items.getByRole("button", { name: "+ Add row" }).click();
  await page.getByLabel("Row 2 description").fill("Travel");
  await page.getByLabel("Row 2 amount").fill("20.00");
  await page.locator('.field.changed[data-field="invoice.lineItems"]').waitFor();

  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: `${OUT}console.png` });

  await page.getByRole("button", { name: /Correct & approve \(2\)/ }).click();
  await page.getByText("Nothing to review.").waitFor();

  const result = await requestJson<{ status: string; results?: { fields: Record<string, unknown>[] } }>(
    `${server.url}/result/final/${fileId}`,
    { token },
  );
  assert.equal(result.body.status, "FINALISED", JSON.stringify(result.body));
  const field = result.body.results?.fields.find((f) => f.name === "invoice.total");
  assert.deepEqual([field?.value, field?.confidence, field?.reviewed], ["980.00", 1, true]);
  const reviewed = result.body.results?.fields.find((f) => f.name === "invoice.lineItems");
  const rows = reviewed?.value as Record<string, unknown>[];
  assert.deepEqual(
    rows.map((r) => [r.description, r.amount, r.confidence]),
    [
      ["Consulting services, May", "1980.00", 1],
      ["Travel", "20.00", 1],
    ],
  );
  assert.equal(reviewed?.reviewed, true);
  await page.close();
});
