/** What split detection returns: one entry per sub-document found in an upload. */
export interface Segment {
  /** 1-based page numbers of this sub-document, in order; blank separator pages are in no segment. */
  pages: number[];
  /** 0..1: how sure detection is of this segment's two ends (the weakest of its boundary decisions). */
  confidence: number;
}
