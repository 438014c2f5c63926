import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type Breach, type Correction, isLineItemsField, type LineItemRow, type Task, type TaskField } from "./api.js";
import { useKeys } from "./keys.js";
import { LineItemsEditor, rowCells, sameRows } from "./line-items.js";
import { Pages } from "./pages.js";

function rowsOf(field: TaskField): LineItemRow[] {
  return Array.isArray(field.value) ? field.value : [];
}

function textOf(field: TaskField): string | null {
  return typeof field.value === "string" ? field.value : null;
}

function describe(b: Breach): string {
  const { type, min, max } = b.condition;
  const bound = (v: number | string | null | undefined) => (v === null || v === undefined ? "∞" : String(v));
  if (type === "field-present") return "must be present";
  if (type === "line-items-sum") return "rows do not add up to the printed subtotal or total";
  if (type === "einvoice-consistent") return "the page and the embedded e-invoice disagree";
  const range = `${min === null || min === undefined ? "−∞" : bound(min)} … ${bound(max)}`;
  if (type === "field-confidence-range") return `confidence ${b.confidence?.toFixed(2) ?? "—"} outside ${range}`;
  return `value outside ${range}`;
}

export function TaskView(props: {
  token: string;
  task: Task;
  onApprove: (task: Task, corrections: Correction[]) => Promise<void>;
  onBack: () => void;
}) {
  const { task } = props;
  const breached = useMemo(() => new Set(task.breaches.map((b) => b.field)), [task]);
  const firstBreached = Math.max(
    0,
    task.fields.findIndex((f) => breached.has(f.name)),
  );
  const [cursor, setCursor] = useState(firstBreached);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [rowEdits, setRowEdits] = useState<Record<string, LineItemRow[]>>({});
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const current = task.fields[cursor];

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const rowsChanged = (f: TaskField) => {
    const rows = rowEdits[f.name];
    return rows !== undefined && !sameRows(rows, rowsOf(f));
  };
  const corrections = (): Correction[] =>
    task.fields.flatMap((f): Correction[] => {
      if (isLineItemsField(f)) {
        const rows = rowEdits[f.name];
        return rows !== undefined && rowsChanged(f) ? [{ name: f.name, value: rowCells(rows) }] : [];
      }
      const edited = edits[f.name];
      if (edited === undefined || edited === (textOf(f) ?? "")) return [];
      return [{ name: f.name, value: edited.trim() ? edited.trim() : null }];
    });

  const approve = async () => {
    if (busy) return;
    setBusy(true);
    await props.onApprove(task, corrections());
  };

  useKeys((e) => {
    if (busy) return;
    if (e.key === "j" || e.key === "ArrowDown") setCursor((c) => Math.min(c + 1, task.fields.length - 1));
    else if (e.key === "k" || e.key === "ArrowUp") setCursor((c) => Math.max(c - 1, 0));
    else if (e.key === "e" && current && isLineItemsField(current)) {
      document.querySelector<HTMLInputElement>(`[data-field="${current.name}"] .line-items input`)?.focus();
    } else if (e.key === "e" && current) setEditing(current.name);
    else if (e.key === "Enter") void approve();
    else if (e.key === "Escape") props.onBack();
    else return;
    e.preventDefault();
  });

  const commit = (name: string, value: string) => {
    setEdits((prev) => ({ ...prev, [name]: value }));
    setEditing(null);
  };

  return (
    <main class="review">
      <Pages
        token={props.token}
        fileId={task.fileId}
        pageCount={task.pageCount}
        fields={task.fields}
        breached={breached}
        selected={current?.name ?? null}
        onPick={(name) => setCursor(task.fields.findIndex((f) => f.name === name))}
      />
      <aside class="panel">
        <div class="panel-head">
          <h2>{task.fileName ?? task.fileId}</h2>
          <span class="muted">
            {task.fieldSet} · priority {task.priority}
          </span>
        </div>
        <ul class="fields" aria-label="Fields">
          {task.fields.map((f, i) => {
            const reasons = task.breaches.filter((b) => b.field === f.name);
            const edited = edits[f.name];
            const lineItems = isLineItemsField(f);
            const changed = lineItems ? rowsChanged(f) : edited !== undefined && edited !== (textOf(f) ?? "");
            const cls = [
              "field",
              i === cursor ? "selected" : "",
              reasons.length ? "breached" : "",
              changed ? "changed" : "",
            ];
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is the view's j/k/Enter shortcuts
              <li key={f.name} class={cls.join(" ")} data-field={f.name} onClick={() => setCursor(i)}>
                <div class="field-head">
                  <span class="field-name">{f.name}</span>
                  <span class="conf" title="confidence">
                    {Math.round(f.confidence * 100)}%
                  </span>
                </div>
                {lineItems ? (
                  <LineItemsEditor
                    name={f.name}
                    rows={rowEdits[f.name] ?? rowsOf(f)}
                    onChange={(rows) => setRowEdits((prev) => ({ ...prev, [f.name]: rows }))}
                  />
                ) : editing === f.name ? (
                  <input
                    ref={input}
                    class="edit"
                    aria-label={`Value of ${f.name}`}
                    defaultValue={edited ?? textOf(f) ?? ""}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") {
                        e.preventDefault();
                        commit(f.name, e.currentTarget.value);
                      } else if (e.key === "Escape") {
                        e.preventDefault();
                        // The blur that follows commits the field's previous value, i.e. nothing changes.
                        e.currentTarget.value = edited ?? textOf(f) ?? "";
                        setEditing(null);
                      }
                    }}
                    onBlur={(e) => commit(f.name, e.currentTarget.value)}
                  />
                ) : (
                  <div class="value">
                    {changed && <s class="was">{textOf(f) ?? "—"}</s>}
                    <span>{(changed ? edited : textOf(f)) || <em class="muted">empty</em>}</span>
                  </div>
                )}
                {reasons.map((b) => (
                  <div class="reason" key={b.condition.type}>
                    {describe(b)}
                  </div>
                ))}
              </li>
            );
          })}
        </ul>
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void approve()}>
            {corrections().length ? `Correct & approve (${corrections().length})` : "Approve"} <kbd>Enter</kbd>
          </button>
          <button type="button" class="link" onClick={props.onBack}>
            Back <kbd>Esc</kbd>
          </button>
        </div>
        <footer class="hints">
          <kbd>j</kbd>/<kbd>k</kbd> field · <kbd>e</kbd> edit · <kbd>Enter</kbd> save edit, then approve
        </footer>
      </aside>
    </main>
  );
}
