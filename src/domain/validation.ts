/**
 * The validate workflow's vocabulary: the conditions a file's predictions are tested on (checked once, at upload:
 * src/validate/conditions.ts), the breaches a review task lists, and a reviewer's corrections.
 */
import type { LineItem } from "./line-items.js";

export const CONDITION_TYPES = [
  "field-confidence-range",
  "field-value-range",
  "field-present",
  "einvoice-consistent",
  "line-items-sum",
] as const;

/** A number, or an ISO date for date fields; null = no bound. */
export type Bound = number | string | null;

export type Condition =
  | { type: "field-confidence-range"; field: string; min: number | null; max: number | null }
  | { type: "field-value-range"; field: string; min: Bound; max: Bound }
  | { type: "field-present"; field: string }
  | { type: "einvoice-consistent"; field?: string }
  | { type: "line-items-sum"; field?: string };

/** A validate upload's checked workflowOptions. */
export interface ValidateOptions {
  /** The field set whose predictions are tested (one the upload requested). */
  fieldSet: string;
  conditions: Condition[];
  /** submit false: the task is created as a draft, outside the review queue. Priority 0..100, higher first. */
  createTask: { submit: boolean; priority: number };
}

/** One broken condition: the condition as given and what the prediction held. */
export interface Breach {
  field: string;
  condition: Condition;
  /** The rows of a line-items field. */
  value: string | LineItem[] | null;
  confidence: number | null;
}

/** A reviewer's value for one field of the task's field set (null: the field has no value; rows for line items). */
export interface Correction {
  name: string;
  value: string | LineItem[] | null;
}
