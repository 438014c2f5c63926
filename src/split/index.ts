/** Split: find the sub-documents of one upload and cut them out as PDFs. Pure; the service does the I/O. */
export { boundaryDecisions, type Decision, detectDocuments, documentFeatures, segmentsFrom } from "./detect.js";
export { type PageFeatures, pageFeatures } from "./page-features.js";
export { slicePdf } from "./pdf-slice.js";
export type { Segment } from "./types.js";
