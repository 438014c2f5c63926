import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LABELS } from "../../src/extract/labels.js";
import { foldForMatching } from "../../src/extract/text.js";
import { titlesFor } from "../../src/extract/vocabulary/titles.js";

const ALL = [...titlesFor("type"), ...titlesFor("split"), ...titlesFor("header"), ...titlesFor("label")];

describe("document titles", () => {
  it("lists each title once: one folded text, one kind", () => {
    const kinds = new Map<string, Set<string>>();
    for (const t of ALL) {
      const key = foldForMatching(t.text);
      kinds.set(key, (kinds.get(key) ?? new Set()).add(t.kind));
    }
    const ambiguous = [...kinds].filter(([, k]) => k.size > 1).map(([key]) => key);
    assert.deepEqual(ambiguous, []);
  });

  it("gives the label table the titles that label a document number, under the role of their kind", () => {
    const role = { invoice: "invoiceNumber", credit_note: "creditNumber", receipt: "receiptNumber" } as const;
    for (const t of titlesFor("label")) {
      assert.ok(t.kind === "invoice" || t.kind === "credit_note" || t.kind === "receipt", t.text);
      const roles = (LABELS.get(foldForMatching(t.text)) ?? []).map((e) => e.role);
      assert.ok(roles.includes(role[t.kind]), `${t.text}: ${roles.join(", ")}`);
    }
  });

  it("keeps the titles each place used before the lists were merged", () => {
    const texts = (use: Parameters<typeof titlesFor>[0]) => titlesFor(use).map((t) => t.text);
    assert.ok(texts("type").includes("facture d'avoir"));
    assert.ok(!texts("split").includes("rechnung"), "split opens a page on German compounds by suffix only");
    assert.ok(texts("split").includes("kwitansi"));
    assert.ok(texts("header").includes("invois cukai"));
    assert.ok(!texts("header").includes("storno"));
  });
});
