/** Split: find the sub-documents of one upload and cut them out. Pure; the service does the I/O. */
export { type BoundaryDecision, boundaryDecisions, detectDocuments, documentFeatures, segmentsFrom } from "./detect.js";
export { pageFeatures } from "./page-features.js";
export { type SlicedFile, sliceFile } from "./slice.js";
export type { PageFeatures, PageRange } from "./types.js";
