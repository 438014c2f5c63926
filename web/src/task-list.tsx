import { useEffect, useRef } from "preact/hooks";
import type { Task } from "./api.js";
import { useKeys } from "./keys.js";

export function TaskList(props: {
  tasks: Task[];
  selected: number;
  loading: boolean;
  onSelect: (i: number) => void;
  onOpen: (i: number) => void;
  onRefresh: () => void;
}) {
  const { tasks, selected } = props;
  const list = useRef<HTMLOListElement>(null);
  useKeys((e) => {
    if (e.key === "j" || e.key === "ArrowDown") props.onSelect(Math.min(selected + 1, tasks.length - 1));
    else if (e.key === "k" || e.key === "ArrowUp") props.onSelect(Math.max(selected - 1, 0));
    else if (e.key === "Enter" || e.key === "o") props.onOpen(selected);
    else if (e.key === "r") props.onRefresh();
    else return;
    e.preventDefault();
  });
  useEffect(() => {
    list.current?.children[selected]?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  if (tasks.length === 0) {
    return (
      <main class="empty">
        <p>{props.loading ? "Loading…" : "Nothing to review. "}</p>
        {!props.loading && <p class="muted">Press r to refresh.</p>}
      </main>
    );
  }
  return (
    <main class="queue">
      <ol ref={list} class="tasks" aria-label="Open tasks">
        {tasks.map((t, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard path is the view's j/k/Enter shortcuts
          <li key={t.id} class={i === selected ? "task selected" : "task"} onClick={() => props.onOpen(i)}>
            <span class={`prio prio-${t.priority >= 75 ? "high" : t.priority >= 40 ? "mid" : "low"}`}>
              {t.priority}
            </span>
            <span class="name">{t.fileName ?? t.fileId}</span>
            <span class="set">{t.fieldSet}</span>
            <span class="breaches">
              {t.breaches.length} breach{t.breaches.length === 1 ? "" : "es"}:{" "}
              {[...new Set(t.breaches.map((b) => b.field))].join(", ")}
            </span>
          </li>
        ))}
      </ol>
      <footer class="hints">
        <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>r</kbd> refresh
      </footer>
    </main>
  );
}
