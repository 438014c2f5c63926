/**
 * Turns a born-digital PDF into what a scanner or phone would give: 200 dpi grey pages, slightly rotated, blurred,
 * noisy, sometimes washed out, JPEG-compressed. One page gives a JPG; several give an image-only PDF.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { Rng } from "./prng.js";

const run = promisify(execFile);
const DPI = 200;

export interface ScanResult {
  bytes: Uint8Array;
  format: "jpg" | "pdf";
}

/** Rasterises every page with poppler (the renderer real scanners' PDFs are compared against). */
export async function rasterise(pdf: Uint8Array): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), "docsift-synth-"));
  try {
    await writeFile(join(dir, "in.pdf"), pdf);
    await run("pdftoppm", ["-r", String(DPI), "-gray", "-png", join(dir, "in.pdf"), join(dir, "page")]);
    const names = (await readdir(dir)).filter((n) => n.startsWith("page")).sort();
    return await Promise.all(names.map((n) => readFile(join(dir, n))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Adds sensor noise and, sometimes, a washed-out tone curve, in place on 8-bit grey pixels. */
function noiseAndContrast(pixels: Buffer, rng: Rng): void {
  const amplitude = rng.float(4, 22);
  const lowContrast = rng.chance(0.2);
  // Low contrast lifts the blacks and lowers the whites, as a faint print or an overexposed photo does.
  const floor = lowContrast ? rng.float(50, 100) : 0;
  const ceiling = lowContrast ? rng.float(215, 245) : 255;
  const scale = (ceiling - floor) / 255;
  for (let i = 0; i < pixels.length; i++) {
    const v = floor + pixels[i]! * scale + (rng.next() + rng.next() - 1) * amplitude;
    pixels[i] = Math.max(0, Math.min(255, v));
  }
}

async function degradePage(png: Buffer, rng: Rng): Promise<{ jpg: Buffer; width: number; height: number }> {
  const angle = rng.float(-3, 3);
  const sigma = rng.float(0.3, 1.0);
  const quality = rng.int(40, 80);
  const { data, info } = await sharp(png)
    .greyscale()
    .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .blur(sigma)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const grey =
    info.channels === 1 ? data : await sharp(data, { raw: info }).greyscale().extractChannel(0).raw().toBuffer();
  noiseAndContrast(grey, rng);
  const jpg = await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
    .toColourspace("b-w")
    .jpeg({ quality })
    .toBuffer();
  return { jpg, width: info.width, height: info.height };
}

export async function degradeToScan(pdf: Uint8Array, seed: number): Promise<ScanResult> {
  const rng = new Rng(seed ^ 0x5ca11ed);
  const pages = await rasterise(pdf);
  const degraded: { jpg: Buffer; width: number; height: number }[] = [];
  for (const page of pages) degraded.push(await degradePage(page, rng.fork()));
  if (degraded.length === 1) return { bytes: new Uint8Array(degraded[0]!.jpg), format: "jpg" };
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const page of degraded) {
    const image = await doc.embedJpg(page.jpg);
    const w = (page.width * 72) / DPI;
    const h = (page.height * 72) / DPI;
    doc.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
  }
  return { bytes: await doc.save(), format: "pdf" };
}
