/**
 * detectDocuments: one uploaded Document holding several documents -> its sub-documents as page lists. Pure.
 * Blank pages are dropped (they separate documents, and count as evidence of a boundary); every other pair of
 * consecutive pages gets a boundary decision from boundaryEvidence.
 */
import type { Document } from "../document/model.js";
import { boundaryEvidence, decisionConfidence } from "./boundary.js";
import { pageFeatures } from "./page-features.js";
import type { PageFeatures, PageRange } from "./types.js";

export interface BoundaryDecision {
  /** The two pages compared (1-based; blanks between them skipped). */
  after: number;
  before: number;
  boundary: boolean;
  score: number;
  reasons: string[];
}

/** Every boundary decision, for the bench's error analysis and for detectDocuments. */
export function boundaryDecisions(features: readonly PageFeatures[]): BoundaryDecision[] {
  const decisions: BoundaryDecision[] = [];
  let previous: PageFeatures | null = null;
  let blankBetween = false;
  for (const page of features) {
    if (page.blank) {
      if (previous) blankBetween = true;
      continue;
    }
    if (previous) {
      const evidence = boundaryEvidence(previous, page, blankBetween);
      decisions.push({
        after: previous.pageNum,
        before: page.pageNum,
        boundary: evidence.score > 0,
        score: evidence.score,
        reasons: evidence.reasons,
      });
    }
    previous = page;
    blankBetween = false;
  }
  return decisions;
}

export function documentFeatures(document: Document): PageFeatures[] {
  return document.pages.map((page) => pageFeatures(document, page));
}

/** Segments from precomputed features (the bench reuses features; detectDocuments computes them). */
export function segmentsFrom(features: readonly PageFeatures[]): PageRange[] {
  const content = features.filter((f) => !f.blank);
  const first = content[0];
  // An upload of nothing but blank pages is still one document: the child gets every page.
  if (!first) return features.length === 0 ? [] : [{ pages: features.map((f) => f.pageNum), confidence: 0.5 }];
  const decisions = boundaryDecisions(features);
  const segments: PageRange[] = [];
  let current: number[] = [first.pageNum];
  let confidence = 1;
  for (const d of decisions) {
    const c = decisionConfidence(d.score);
    if (d.boundary) {
      segments.push({ pages: current, confidence: Math.min(confidence, c) });
      current = [d.before];
      confidence = c;
    } else {
      current.push(d.before);
      confidence = Math.min(confidence, c);
    }
  }
  segments.push({ pages: current, confidence });
  return segments.map((s) => ({ ...s, confidence: Math.round(s.confidence * 1000) / 1000 }));
}

/** The sub-documents of an upload, in page order; a single document yields one segment. */
export function detectDocuments(document: Document): PageRange[] {
  return segmentsFrom(documentFeatures(document));
}
