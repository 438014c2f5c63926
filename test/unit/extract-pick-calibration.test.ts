/**
 * A learned ranker scores each candidate alone: among six dates the right one can lead the others by far and still be
 * given 0.2, and be withheld. A key's pick calibrator turns how the pick stands among its rivals (its logit, its lead
 * over the runner-up, its softmax share) into the confidence of the answer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyModel, type FieldDecision, toField } from "../../src/extract/decision.js";
import {
  type Alternative,
  type LinearModel,
  pick,
  pickConfidence,
  probability,
  type RankerModel,
  standingOf,
} from "../../src/extract/model/ranker.js";

/** A ranker on one feature `x`, unstandardised: logit = x - 3. */
const RANKER: LinearModel = { features: ["x"], mean: [0], scale: [1], weights: [1], bias: -3 };
/** A pick calibrator that trusts a wide lead: logit = 2 * margin - 2. */
const BY_MARGIN: LinearModel = { features: ["margin"], mean: [0], scale: [1], weights: [2], bias: -2 };

const alternative = (value: string, x: number): Alternative => ({
  scored: { value, score: x, words: [] },
  features: { x },
});

/** Six dates: the first leads by 3 logits and is still given under 0.2 by the ranker alone. */
const DATES = [
  alternative("2024-03-01", 1.6),
  alternative("2024-02-01", -1.4),
  alternative("2024-02-29", -1.6),
  alternative("2024-03-31", -2),
  alternative("2024-04-15", -2.5),
  alternative("2023-12-31", -3),
];

const decision = (alternatives: Alternative[]): FieldDecision => ({
  family: "date",
  best: alternatives[1]?.scored ?? null,
  key: "invoice.date",
  alternatives,
});

describe("pick calibration", () => {
  it("measures a pick's lead, share and rivals", () => {
    const alone = standingOf(0.5, [0.5]);
    assert.equal(alone.margin, 8);
    assert.equal(alone.share, 1);
    assert.equal(alone.rivals, 0);
    const leading = standingOf(2, [2, -1, -3]);
    assert.equal(leading.margin, 3);
    assert.ok((leading.share ?? 0) > 0.9 && (leading.share ?? 0) < 1);
    assert.equal(leading.rivals, Math.log1p(2));
    const tied = standingOf(0, [0, 0]);
    assert.equal(tied.margin, 0);
    assert.equal(tied.share, 0.5);
  });

  it("picks the most probable alternative with its standing", () => {
    const chosen = pick(RANKER, DATES);
    assert.equal(chosen?.alternative.scored.value, "2024-03-01");
    assert.ok(Math.abs((chosen?.probability ?? 0) - 1 / (1 + Math.exp(1.4))) < 1e-9);
    assert.ok(Math.abs((chosen?.standing.margin ?? 0) - 3) < 1e-9);
  });

  it("answers a clear leader the ranker alone would withhold", () => {
    const plain: RankerModel = { version: 1, trainedOn: {}, rankers: { "invoice.date": RANKER } };
    const withheld = toField("invoice.date", applyModel(decision(DATES), plain), () => 1);
    assert.equal(withheld.value, null);

    const calibrated: RankerModel = { ...plain, pickCalibrators: { "invoice.date": BY_MARGIN } };
    const field = toField("invoice.date", applyModel(decision(DATES), calibrated), () => 1);
    assert.equal(field.value, "2024-03-01");
    assert.equal(field.confidence, Math.round((1 / (1 + Math.exp(-4))) * 1000) / 1000);
  });

  it("judges a pick standing as no training pick did as the most extreme seen, not past it", () => {
    // Fitted where every pick had about five rivals (a spread of 0.01): a lone candidate is 161 spreads out, and is
    // judged 6 spreads out (logit 3 - 6), not 161 (logit 3 - 161: nothing).
    const narrow: LinearModel = { features: ["rivals"], mean: [1.61], scale: [0.01], weights: [1], bias: 3 };
    assert.ok(Math.abs(pickConfidence(narrow, standingOf(1, [1])) - 1 / (1 + Math.exp(3))) < 1e-9);
    assert.equal(pickConfidence(narrow, { rivals: 1.6 }), probability(narrow, { rivals: 1.6 }));
  });

  it("gives a close call a low confidence though each candidate scores high", () => {
    const close = [alternative("2024-03-01", 6), alternative("2024-03-02", 5.9)];
    const calibrated: RankerModel = {
      version: 1,
      trainedOn: {},
      rankers: { "invoice.date": RANKER },
      pickCalibrators: { "invoice.date": BY_MARGIN },
    };
    const field = toField("invoice.date", applyModel(decision(close), calibrated), () => 1);
    assert.equal(field.value, null);
  });
});

describe("the place a learned pick is read from", () => {
  it("reads the ranker's value where the hand-set order puts that value first", () => {
    const word = (id: number, text: string) => ({
      id,
      text,
      box: { x0: 0, y0: id / 10, x1: 0.1, y1: id / 10 + 0.05 },
      source: "ocr" as const,
      confidence: 0.9,
    });
    const at = (value: string, x: number, id: number): Alternative => ({
      scored: { value, score: x, words: [word(id, value)] },
      features: { x },
    });
    // Hand order: the total line's 10.00 (word 3) before an item's 10.00 (word 1); the ranker scores the item's higher.
    const alternatives = [at("10.00", 2, 3), at("12.00", 1, 2), at("10.00", 4, 1)];
    const model: RankerModel = { version: 1, trainedOn: {}, rankers: { "receipt.total": RANKER } };
    const decided = applyModel(
      { family: "amount", best: alternatives[0]?.scored ?? null, key: "receipt.total", alternatives },
      model,
    );
    assert.equal(decided.best?.value, "10.00");
    assert.deepEqual(
      decided.best?.words.map((w) => w.id),
      [3],
    );
  });
});
