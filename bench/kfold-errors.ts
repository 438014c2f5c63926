/** Prints the hand-set scoring's misses on a labelled corpus (cached Documents): tsx bench/kfold-errors.ts LABELS [field...] */
import { loadCorpus } from "./kfold-data.js";
import { predict } from "./kfold-eval.js";
import { decide } from "./kfold-fit.js";
import { catalogueMaps, comparisonFor, valuesMatch } from "./score.js";

const [path, ...only] = process.argv.slice(2);
if (path) {
  const { types } = catalogueMaps();
  for (const doc of await loadCorpus(path, { cachedOnly: true })) {
    const decided = decide(doc, 1);
    const predicted = predict(decided, null);
    for (const [name, expected] of Object.entries(doc.label.fields)) {
      if (only.length > 0 && !only.includes(name)) continue;
      const type = types.get(name);
      const got = predicted.get(name);
      if (!type || (got?.value && valuesMatch(comparisonFor(type), expected, got.value))) continue;
      process.stdout.write(
        `${doc.label.file}\t${name}\texpected ${expected}\tgot ${got?.value} (${got?.confidence})\n`,
      );
    }
  }
}
