/**
 * PaddleOCR's ONNX graphs (paddle2onnx exports of PP-OCRv4) rewritten into the same functions in fewer nodes, which
 * onnxruntime runs faster: its optimiser leaves these patterns as they are, and each elementwise node is a pass over
 * the feature maps (with a layout change to and from the convolutions' blocked layout around it).
 *
 * - A convolution followed by a scalar multiply and add (PP-LCNetV3's "learnable affine block") is one convolution:
 *   weights times s, bias times s plus t.
 * - The hard-swish as exported, x * clip(x + 3, 0, 6) / 6, is x * HardSigmoid(x) with alpha 1/6 and beta 1/2: two
 *   nodes where there were four.
 * - A scalar multiply and add in front of a 1x1 convolution without padding (the pointwise convolution after a
 *   depthwise one) is that convolution: weights times s, bias plus t times the sum of each output's weights. Not in
 *   front of a padded convolution, whose zero padding would then stand for t.
 *
 * The outputs differ from the original graph's in float rounding only (a character's probability by 1e-4 at most
 * on receipt lines, the same characters read: test/integration/ocr-model-graph.test.ts). Measured with the shipped
 * graphs as the anchor (`npm run bench:recogniser`): a quarter less CPU per line read, a tenth less per header band
 * the detector reads.
 */
import onnxProto from "onnx-proto";

const { onnx } = onnxProto;
type Node = onnxProto.onnx.NodeProto;
type Tensor = onnxProto.onnx.TensorProto;

/** TensorProto.DataType.FLOAT */
const FLOAT = 1;
/** AttributeProto.AttributeType.FLOAT */
const FLOAT_ATTRIBUTE = 1;

export interface LeanerGraph {
  /** The rewritten model, serialised. */
  bytes: Uint8Array;
  nodesBefore: number;
  nodesAfter: number;
}

const int = (v: number | { toNumber(): number }): number => (typeof v === "number" ? v : v.toNumber());

/** A float tensor's values (from its raw bytes, little-endian as ONNX stores them, or its float list). */
function floatsOf(tensor: Tensor): Float32Array {
  if (tensor.floatData.length > 0) return Float32Array.from(tensor.floatData);
  const raw = tensor.rawData;
  const copy = new Uint8Array(raw.byteLength);
  copy.set(raw);
  return new Float32Array(copy.buffer);
}

function setFloats(tensor: Tensor, values: Float32Array): void {
  tensor.floatData = [];
  tensor.rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** The graph's nodes and what is known of its values while rewriting. */
class Graph {
  readonly constants = new Map<string, Tensor>();
  private readonly consumers = new Map<string, Node[]>();
  readonly removed = new Set<Node>();
  private biases = 0;

  constructor(
    private readonly graph: onnxProto.onnx.GraphProto,
    readonly nodes: Node[],
  ) {
    for (const node of nodes) {
      const value = node.opType === "Constant" ? node.attribute.find((a) => a.name === "value")?.t : undefined;
      if (value && node.output[0]) this.constants.set(node.output[0], value as Tensor);
      for (const input of node.input) this.consumers.set(input, [...(this.consumers.get(input) ?? []), node]);
    }
    for (const tensor of graph.initializer) if (tensor.name) this.constants.set(tensor.name, tensor as Tensor);
  }

  /** The one node reading `value`, when exactly one does and it is no output of the graph. */
  soleConsumer(value: string): Node | undefined {
    const readers = this.consumers.get(value) ?? [];
    if (readers.length !== 1 || this.graph.output.some((o) => o.name === value)) return undefined;
    const reader = readers[0];
    return reader && !this.removed.has(reader) ? reader : undefined;
  }

  /** A float constant's values, when `value` is one and only `reader` reads it (so it may be changed). */
  ownedFloats(value: string | undefined, reader: Node): { tensor: Tensor; values: Float32Array } | undefined {
    const tensor = value === undefined ? undefined : this.constants.get(value);
    const readers = value === undefined ? [] : (this.consumers.get(value) ?? []);
    if (!tensor || tensor.dataType !== FLOAT || readers.length !== 1 || readers[0] !== reader) return undefined;
    return { tensor, values: floatsOf(tensor) };
  }

  /** The value of a one-element float constant (a weight tensor is not copied to find it is none). */
  scalar(value: string | undefined): number | undefined {
    const tensor = value === undefined ? undefined : this.constants.get(value);
    if (!tensor || tensor.dataType !== FLOAT) return undefined;
    const elements = tensor.floatData.length > 0 ? tensor.floatData.length : tensor.rawData.byteLength / 4;
    return elements === 1 ? floatsOf(tensor)[0] : undefined;
  }

  /** `node`'s other input than `value` when it is a scalar constant: its value. */
  otherScalar(node: Node, value: string): number | undefined {
    if (node.input.length !== 2) return undefined;
    return this.scalar(node.input[0] === value ? node.input[1] : node.input[0]);
  }

  /** A new bias input of `conv` holding `values`. */
  addBias(conv: Node, values: Float32Array): void {
    const name = `docsift.bias.${this.biases++}`;
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    this.graph.initializer.push(
      onnx.TensorProto.create({ name, dims: [values.length], dataType: FLOAT, rawData: bytes }),
    );
    conv.input.push(name);
  }
}

/** The convolution's bias when only it reads it (`own`: its tensor), or zeros when it has none. */
function biasOf(graph: Graph, conv: Node, outputs: number): { values: Float32Array; own?: Tensor } | undefined {
  if (conv.input.length < 3) return { values: new Float32Array(outputs) };
  const owned = graph.ownedFloats(conv.input[2], conv);
  return owned && owned.values.length === outputs ? { values: owned.values, own: owned.tensor } : undefined;
}

function setBias(graph: Graph, conv: Node, bias: { values: Float32Array; own?: Tensor }): void {
  if (bias.own) setFloats(bias.own, bias.values);
  else graph.addBias(conv, bias.values);
}

/** The scalar multiply and add reading `value` in turn: s, t and the add (whose output is the affine's). */
function affineAfter(graph: Graph, value: string): { s: number; t: number; mul: Node; add: Node } | undefined {
  const mul = graph.soleConsumer(value);
  if (mul?.opType !== "Mul") return undefined;
  const s = graph.otherScalar(mul, value);
  const add = mul.output[0] === undefined ? undefined : graph.soleConsumer(mul.output[0]);
  if (s === undefined || add?.opType !== "Add") return undefined;
  const t = graph.otherScalar(add, mul.output[0] ?? "");
  return t === undefined ? undefined : { s, t, mul, add };
}

/** Conv -> Mul(s) -> Add(t) as one Conv. */
function foldAffineAfterConvolutions(graph: Graph): void {
  for (const conv of graph.nodes) {
    if (conv.opType !== "Conv" || graph.removed.has(conv) || conv.output[0] === undefined) continue;
    const affine = affineAfter(graph, conv.output[0]);
    const weights = graph.ownedFloats(conv.input[1], conv);
    const outputs = weights ? int(weights.tensor.dims[0] ?? 0) : 0;
    const bias = affine && weights ? biasOf(graph, conv, outputs) : undefined;
    if (!affine || !weights || !bias || affine.add.output[0] === undefined) continue;
    setFloats(
      weights.tensor,
      weights.values.map((w) => w * affine.s),
    );
    setBias(graph, conv, { ...bias, values: bias.values.map((b) => b * affine.s + affine.t) });
    conv.output[0] = affine.add.output[0];
    graph.removed.add(affine.mul).add(affine.add);
  }
}

/** A Clip's bounds, as attributes (opset < 11) or inputs. */
function clipBounds(graph: Graph, clip: Node): [number | undefined, number | undefined] {
  const attribute = (name: string): number | undefined => clip.attribute.find((a) => a.name === name)?.f ?? undefined;
  return clip.input.length > 1
    ? [graph.scalar(clip.input[1]), graph.scalar(clip.input[2])]
    : [attribute("min"), attribute("max")];
}

/** x * clip(x + 3, 0, 6) / 6 as x * HardSigmoid(x). */
function fuseHardSwishes(graph: Graph): void {
  for (const add of graph.nodes) {
    const x = add.input[0];
    if (add.opType !== "Add" || graph.removed.has(add) || x === undefined || add.output[0] === undefined) continue;
    if (graph.scalar(add.input[1]) !== 3) continue;
    const clip = graph.soleConsumer(add.output[0]);
    if (clip?.opType !== "Clip" || clip.output[0] === undefined) continue;
    const [min, max] = clipBounds(graph, clip);
    const mul = graph.soleConsumer(clip.output[0]);
    if (min !== 0 || max !== 6 || mul?.opType !== "Mul" || !mul.input.includes(x) || mul.output[0] === undefined)
      continue;
    const div = graph.soleConsumer(mul.output[0]);
    if (div?.opType !== "Div" || graph.scalar(div.input[1]) !== 6 || div.output[0] === undefined) continue;
    const gate = `${add.output[0]}.hard_sigmoid`;
    add.opType = "HardSigmoid";
    add.input = [x];
    add.output = [gate];
    add.attribute = [
      onnx.AttributeProto.create({ name: "alpha", f: 1 / 6, type: FLOAT_ATTRIBUTE }),
      onnx.AttributeProto.create({ name: "beta", f: 0.5, type: FLOAT_ATTRIBUTE }),
    ];
    mul.input = [x, gate];
    mul.output = [div.output[0]];
    graph.removed.add(clip).add(div);
  }
}

/** Whether `conv` is a 1x1 convolution over all its input channels (one group) without padding. */
function isPointwise(conv: Node, weights: Tensor): boolean {
  const attribute = (name: string) => conv.attribute.find((a) => a.name === name);
  const kernel = weights.dims.slice(2).map(int);
  const pads = (attribute("pads")?.ints ?? []).map(int);
  const group = attribute("group")?.i;
  const autoPad = attribute("auto_pad")?.s;
  const padded = autoPad !== undefined && autoPad !== null && new TextDecoder().decode(autoPad) !== "NOTSET";
  return kernel.every((k) => k === 1) && pads.every((p) => p === 0) && int(group ?? 1) === 1 && !padded;
}

/** Mul(s) -> Add(t) -> pointwise Conv as that Conv. */
function foldAffineBeforePointwise(graph: Graph): void {
  for (const mul of graph.nodes) {
    if (mul.opType !== "Mul" || graph.removed.has(mul) || mul.input.length !== 2) continue;
    const scaled = mul.input.find((input) => !graph.constants.has(input));
    if (scaled === undefined) continue;
    const s = graph.otherScalar(mul, scaled);
    const add = mul.output[0] === undefined ? undefined : graph.soleConsumer(mul.output[0]);
    const t = add?.opType === "Add" ? graph.otherScalar(add, mul.output[0] ?? "") : undefined;
    const conv = add?.output[0] === undefined ? undefined : graph.soleConsumer(add.output[0]);
    if (s === undefined || t === undefined || !add || conv?.opType !== "Conv" || conv.input[0] !== add.output[0])
      continue;
    const weights = graph.ownedFloats(conv.input[1], conv);
    if (!weights || !isPointwise(conv, weights.tensor)) continue;
    const outputs = int(weights.tensor.dims[0] ?? 0);
    const inputs = outputs === 0 ? 0 : weights.values.length / outputs;
    const bias = biasOf(graph, conv, outputs);
    if (!bias || !Number.isInteger(inputs)) continue;
    for (let o = 0; o < outputs; o++) {
      let sum = 0;
      for (let c = 0; c < inputs; c++) sum += weights.values[o * inputs + c] ?? 0;
      bias.values[o] = (bias.values[o] ?? 0) + t * sum;
    }
    setFloats(
      weights.tensor,
      weights.values.map((w) => w * s),
    );
    setBias(graph, conv, bias);
    conv.input[0] = scaled;
    graph.removed.add(mul).add(add);
  }
}

/**
 * `model` (ONNX bytes) with the patterns above rewritten; a graph without them comes back with the same nodes. Throws
 * when the bytes are no ONNX model.
 */
export function leanerGraph(model: Uint8Array): LeanerGraph {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph;
  if (!graph) throw new Error("The ONNX model has no graph.");
  const nodes = graph.node as Node[];
  const rewriting = new Graph(graph as onnxProto.onnx.GraphProto, nodes);
  foldAffineAfterConvolutions(rewriting);
  fuseHardSwishes(rewriting);
  foldAffineBeforePointwise(rewriting);
  const kept = nodes.filter((node) => !rewriting.removed.has(node));
  // Constants nothing reads any more (the scalars folded away) would only be warned about by onnxruntime.
  const read = new Set(kept.flatMap((node) => node.input));
  graph.node = kept.filter((node) => node.opType !== "Constant" || read.has(node.output[0] ?? ""));
  graph.initializer = (graph.initializer ?? []).filter((tensor) => read.has(tensor.name ?? ""));
  return { bytes: onnx.ModelProto.encode(decoded).finish(), nodesBefore: nodes.length, nodesAfter: graph.node.length };
}
