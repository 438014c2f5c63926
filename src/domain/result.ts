/** Shapes of the HTTP contract (../shared/spec/interface.md), shared by every layer. */

export interface Point {
  x: number;
  y: number;
}

/** Location of a value in page ratios (0..1, origin top-left); tokenIds are Document word ids. */
export interface BoundingBox {
  pageNum: number;
  topLeft: Point;
  bottomRight: Point;
  tokenIds: number[];
}

export interface ChildReference {
  file_id: string;
  pages?: { from: number; to: number };
}

export interface Field {
  name: string;
  value: string | null;
  confidence: number;
  boundingBox: BoundingBox | null;
  /** Set when a person confirmed or corrected the value in a validation task. */
  reviewed?: boolean;
}

export interface ChildrenField {
  name: "components.children";
  value: ChildReference[];
}

export type FileStatus = "RECEIVED" | "IN PROGRESS" | "FINALISED" | "FAILED";

export interface UploadReceipt {
  fileId: string;
  uploadedAt: string;
  status: "RECEIVED";
}

export interface Results {
  timestamp?: string;
  fields: Array<Field | ChildrenField>;
}
