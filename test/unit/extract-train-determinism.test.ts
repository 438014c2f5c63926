/**
 * `npm run train` must be reproducible: the same documents and seed give a byte-identical model file. Checked on a
 * tiny training set of generated documents (bench/synth), fitted twice, and on the group k-fold assignment.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assignFolds, decide, fitModel, mergeGroups } from "../../bench/kfold-fit.js";
import { catalogueMaps } from "../../bench/score.js";
import { generateDocument, headerLabels } from "../../bench/synth/document.js";
import { probability } from "../../src/extract/model/ranker.js";
import { ingest } from "../../src/ingest/index.js";

async function tinySet() {
  const docs = [];
  for (const [seed, saas] of [
    [101, false],
    [102, true],
    [103, false],
    [104, true],
  ] as const) {
    const synthetic = await generateDocument(seed, "invoice", saas ? { saas } : {});
    const document = await ingest(synthetic.pdf, { concurrency: 1 });
    const label = { file: `${seed}.pdf`, product: synthetic.product, fields: headerLabels(synthetic) };
    docs.push(decide({ corpus: "tiny", label, document, group: `tiny:${seed}` }, 1));
  }
  return docs;
}

describe("learned rankers are deterministic", () => {
  it("fits the same model file twice from the same documents", async () => {
    const docs = await tinySet();
    const { types } = catalogueMaps();
    const a = JSON.stringify(fitModel(docs, types, { ridge: 0.01 }, { seed: 1 }));
    const b = JSON.stringify(fitModel(docs, types, { ridge: 0.01 }, { seed: 1 }));
    assert.equal(a, b);
    const model = JSON.parse(a) as ReturnType<typeof fitModel>;
    const ranker = model.rankers["invoice.total"];
    assert.ok(ranker, "a ranker for invoice.total");
    // The right total of a training document is the most probable of its alternatives.
    const doc = docs[0];
    const alternatives = doc?.decisions.get("invoice.total")?.alternatives ?? [];
    const best = alternatives.reduce((x, y) =>
      probability(ranker, y.features) > probability(ranker, x.features) ? y : x,
    );
    assert.equal(best.scored.value, doc?.label.fields["invoice.total"]);
  });

  it("assigns folds by group from the seed alone, a group never in two folds", () => {
    const groups = ["a", "a", "b", "c", "c", "c", "d", "e"];
    const first = assignFolds(groups, 3, 7);
    assert.deepEqual([...first], [...assignFolds(groups, 3, 7)]);
    assert.equal(new Set(first.keys()).size, 5);
    const merged = mergeGroups(["x:intarsys ZUGFeRD Toolkit", "y:jPod intarsys consulting", "x:facturx Python lib"]);
    assert.equal(merged.get("x:intarsys ZUGFeRD Toolkit"), merged.get("y:jPod intarsys consulting"));
    assert.notEqual(merged.get("x:facturx Python lib"), merged.get("x:intarsys ZUGFeRD Toolkit"));
  });
});
