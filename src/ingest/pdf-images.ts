import { OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * How much of a page its largest image covers, from the page's operator list. An image is painted into the unit
 * square under the current transformation matrix, so its area is |det(CTM)|; the determinant of a product is the
 * product of determinants, so tracking that one number through save/restore, transforms and form XObjects suffices.
 */
const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintSolidColorImageMask,
]);

function determinant(matrix: unknown): number {
  if (!Array.isArray(matrix) || matrix.length < 4) return 1;
  const [a, b, c, d] = matrix as number[];
  return (a ?? 1) * (d ?? 1) - (b ?? 0) * (c ?? 0);
}

/** Area (in user-space units squared) of the largest image painted by an operator list. */
export function largestImageArea(fnArray: readonly number[], argsArray: readonly unknown[]): number {
  let det = 1;
  const stack: number[] = [];
  let largest = 0;
  fnArray.forEach((fn, i) => {
    const args = argsArray[i];
    if (fn === OPS.save) stack.push(det);
    else if (fn === OPS.restore) det = stack.pop() ?? det;
    else if (fn === OPS.transform) det *= determinant(args);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(det);
      det *= determinant(Array.isArray(args) ? args[0] : undefined);
    } else if (fn === OPS.paintFormXObjectEnd) det = stack.pop() ?? det;
    else if (IMAGE_OPS.has(fn)) largest = Math.max(largest, Math.abs(det));
  });
  return largest;
}
