import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Breach, Task } from "./api.js";
import { useKeys } from "./keys.js";
import { Pages } from "./pages.js";

function describe(b: Breach): string {
  const { type, min, max } = b.condition;
  const bound = (v: number | string | null | undefined) => (v === null || v === undefined ? "∞" : String(v));
  if (type === "field-present") return "must be present";
  const range = `${min === null || min === undefined ? "−∞" : bound(min)} … ${bound(max)}`;
  if (type === "field-confidence-range") return `confidence ${b.confidence?.toFixed(2) ?? "—"} outside ${range}`;
  return `value outside ${range}`;
}

export function TaskView(props: {
  token: string;
  task: Task;
  onApprove: (task: Task, corrections: { name: string; value: string | null }[]) => Promise<void>;
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
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const current = task.fields[cursor];

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const corrections = () =>
    task.fields
      .filter((f) => edits[f.name] !== undefined && edits[f.name] !== (f.value ?? ""))
      .map((f) => ({ name: f.name, value: edits[f.name]?.trim() ? (edits[f.name] ?? "").trim() : null }));

  const approve = async () => {
    if (busy) return;
    setBusy(true);
    await props.onApprove(task, corrections());
  };

  useKeys((e) => {
    if (busy) return;
    if (e.key === "j" || e.key === "ArrowDown") setCursor((c) => Math.min(c + 1, task.fields.length - 1));
    else if (e.key === "k" || e.key === "ArrowUp") setCursor((c) => Math.max(c - 1, 0));
    else if (e.key === "e" && current) setEditing(current.name);
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
            const changed = edited !== undefined && edited !== (f.value ?? "");
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
                {editing === f.name ? (
                  <input
                    ref={input}
                    class="edit"
                    aria-label={`Value of ${f.name}`}
                    defaultValue={edited ?? f.value ?? ""}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") {
                        e.preventDefault();
                        commit(f.name, e.currentTarget.value);
                      } else if (e.key === "Escape") {
                        e.preventDefault();
                        // The blur that follows commits the field's previous value, i.e. nothing changes.
                        e.currentTarget.value = edited ?? f.value ?? "";
                        setEditing(null);
                      }
                    }}
                    onBlur={(e) => commit(f.name, e.currentTarget.value)}
                  />
                ) : (
                  <div class="value">
                    {changed && <s class="was">{f.value ?? "—"}</s>}
                    <span>{(changed ? edited : f.value) || <em class="muted">empty</em>}</span>
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
