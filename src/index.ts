/**
 * Library entry (`import ... from "docsift"`): the pure extraction pipeline (bytes -> Document -> fields), the
 * catalogue, and the embedded service for embedding docsift in another Node process.
 */
export { type CreateClientOptions, type CreatedClient, createClient } from "./auth/clients.js";
export { FIELD_SETS, type FieldDef, type FieldSetDef, PRODUCTS, type ProductDef } from "./catalog/catalog.js";
export { resolveFieldSets, resolveFields, type Selection } from "./catalog/lookup.js";
export type { Box, Document, Line, Page, Word } from "./document/model.js";
export { DocsiftError, type ErrorBody, type ErrorCode } from "./domain/errors.js";
export type { BoundingBox, Field, FileStatus, Results, UploadReceipt } from "./domain/result.js";
/** extract() reads a page OCR read turned upright (Page.rotation); this puts its boxes on the pages as uploaded. */
export { boxesAsUploaded } from "./extract/boxes-as-uploaded.js";
export { type ExtractOptions, extract } from "./extract/index.js";
export { ingest, inspect, LIMITS, renderPage } from "./ingest/index.js";
export { type RunningService, type ServiceConfig, startService } from "./runtime/process.js";
