/**
 * What moved between a stored golden answer and today's, in a few lines a person reads: per field its value and
 * confidence (old -> new) and whether its box moved, warnings gained or lost, and any other change by JSON path.
 */
import { goldenJson, isObject, type Json, type JsonObject } from "./golden-answer.js";

/** Lines describing how `now` differs from `old`; empty when they are equal. */
export function answerChanges(old: JsonObject, now: JsonObject): string[] {
  const lines: string[] = [];
  const oldResults = isObject(old.results) ? old.results : {};
  const nowResults = isObject(now.results) ? now.results : {};
  lines.push(...fieldChanges(oldResults.fields, nowResults.fields));
  lines.push(...listChanges("warning", oldResults.warnings, nowResults.warnings, warningText));
  const { results: _o, ...oldRest } = old;
  const { results: _n, ...nowRest } = now;
  const { fields: _of, warnings: _ow, ...oldOther } = oldResults;
  const { fields: _nf, warnings: _nw, ...nowOther } = nowResults;
  lines.push(...pathChanges(oldRest, nowRest, ""), ...pathChanges(oldOther, nowOther, "results"));
  return lines;
}

function fieldChanges(old: Json | undefined, now: Json | undefined): string[] {
  const before = byName(old);
  const after = byName(now);
  const lines: string[] = [];
  for (const [name, field] of after) {
    const was = before.get(name);
    if (!was) lines.push(`${name}: new field ${show(field.value)} (confidence ${show(field.confidence)})`);
    else {
      const moved = fieldMove(was, field);
      if (moved) lines.push(`${name}: ${moved}`);
    }
  }
  for (const [name, was] of before)
    if (!after.has(name))
      lines.push(`${name}: field gone (was ${show(was.value)}, confidence ${show(was.confidence)})`);
  const order = (fields: Map<string, JsonObject>) => [...fields.keys()].filter((n) => before.has(n) && after.has(n));
  if (lines.length === 0 && order(before).join() !== order(after).join()) lines.push("fields reordered");
  return lines;
}

/** "value old -> new, confidence old -> new, box moved", naming only what changed; undefined when nothing did. */
function fieldMove(was: JsonObject, now: JsonObject): string | undefined {
  const parts: string[] = [];
  const same = (key: string) => equal(was[key], now[key]);
  parts.push(same("value") ? `${show(now.value)} (value unchanged)` : `${show(was.value)} -> ${show(now.value)}`);
  const confidenceMoved = !same("confidence");
  if (confidenceMoved) parts.push(`confidence ${show(was.confidence)} -> ${show(now.confidence)}`);
  else parts.push(`confidence ${show(now.confidence)}`);
  const boxMoved = !same("boundingBox");
  if (boxMoved) parts.push(`box ${boxText(was.boundingBox)} -> ${boxText(now.boundingBox)}`);
  const others = new Set([...Object.keys(was), ...Object.keys(now)]);
  for (const key of ["name", "value", "confidence", "boundingBox"]) others.delete(key);
  const otherMoved = [...others].filter((key) => !same(key));
  for (const key of otherMoved) parts.push(`${key} ${show(was[key])} -> ${show(now[key])}`);
  if (same("value") && !confidenceMoved && !boxMoved && otherMoved.length === 0) return undefined;
  return parts.join(", ");
}

function byName(fields: Json | undefined): Map<string, JsonObject> {
  const map = new Map<string, JsonObject>();
  if (Array.isArray(fields))
    for (const field of fields) if (isObject(field) && typeof field.name === "string") map.set(field.name, field);
  return map;
}

function boxText(box: Json | undefined): string {
  if (!isObject(box)) return show(box);
  const point = (p: Json | undefined) =>
    isObject(p) && typeof p.x === "number" && typeof p.y === "number" ? `${p.x.toFixed(3)},${p.y.toFixed(3)}` : "?";
  const tokens = Array.isArray(box.tokenIds) ? box.tokenIds.length : 0;
  return `p${show(box.pageNum)} (${point(box.topLeft)})-(${point(box.bottomRight)}) ${tokens} words`;
}

function warningText(warning: Json): string {
  if (!isObject(warning)) return show(warning);
  const field = typeof warning.field === "string" ? ` ${warning.field}` : "";
  return `${show(warning.code)}${field} page ${show(warning.page)}: ${show(warning.message)}`;
}

/** Entries of two lists compared as multisets of their text: "+ kind text" gained, "- kind text" lost. */
function listChanges(kind: string, old: Json | undefined, now: Json | undefined, text: (item: Json) => string) {
  const count = (list: Json | undefined) => {
    const counts = new Map<string, number>();
    for (const item of Array.isArray(list) ? list : []) counts.set(text(item), (counts.get(text(item)) ?? 0) + 1);
    return counts;
  };
  const before = count(old);
  const after = count(now);
  const lines: string[] = [];
  for (const [item, n] of after) for (let i = before.get(item) ?? 0; i < n; i++) lines.push(`+ ${kind} ${item}`);
  for (const [item, n] of before) for (let i = after.get(item) ?? 0; i < n; i++) lines.push(`- ${kind} ${item}`);
  return lines;
}

/** Leaf differences of two JSON values as "path: old -> new" (at most 10). */
function pathChanges(old: Json | undefined, now: Json | undefined, path: string): string[] {
  const lines: string[] = [];
  const walk = (a: Json | undefined, b: Json | undefined, at: string) => {
    if (lines.length >= 10 || equal(a, b)) return;
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk(a[key], b[key], at ? `${at}.${key}` : key);
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (const [i, item] of a.entries()) walk(item, b[i], `${at}[${i}]`);
    } else lines.push(`${at || "answer"}: ${show(a)} -> ${show(b)}`);
  };
  walk(old, now, path);
  return lines;
}

/** Deep equality, whatever the key order. */
function equal(a: Json | undefined, b: Json | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return goldenJson(a) === goldenJson(b);
}

/** A value as JSON, cut to 80 characters; "absent" for a missing key. */
function show(value: Json | undefined): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
