/**
 * The review console: sign in, the open queue by priority, and a task view. Keyboard first:
 * list: j/k move, Enter opens; task: j/k move between fields, e edits, Enter approves (saving any edits) and opens
 * the next task, Esc leaves an edit or goes back to the list.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, type Correction, openTasks, resolveTask, signIn, type Task } from "./api.js";
import { SignIn } from "./sign-in.js";
import { TaskList } from "./task-list.js";
import { TaskView } from "./task-view.js";

const TOKEN_KEY = "docsift.token";

export function App() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN_KEY));
  const [tasks, setTasks] = useState<Task[]>([]);
  const [selected, setSelected] = useState(0);
  const [open, setOpen] = useState<Task | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const signOut = useCallback((message: string | null = null) => {
    sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setOpen(null);
    setNotice(message);
  }, []);

  const load = useCallback(async () => {
    if (!token) return [];
    setLoading(true);
    try {
      const list = await openTasks(token);
      setTasks(list);
      return list;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) signOut("Your session expired; sign in again.");
      else setNotice(String((err as Error).message));
      return [];
    } finally {
      setLoading(false);
    }
  }, [token, signOut]);

  useEffect(() => {
    void load();
  }, [load]);

  const onSignIn = async (clientId: string, secret: string) => {
    const t = await signIn(clientId, secret);
    sessionStorage.setItem(TOKEN_KEY, t);
    setNotice(null);
    setToken(t);
  };

  const approve = async (task: Task, corrections: Correction[]) => {
    if (!token) return;
    try {
      await resolveTask(token, task.id, corrections);
      setNotice(corrections.length ? `Corrected ${corrections.length} field(s) and approved.` : "Approved.");
    } catch (err) {
      // 409: another reviewer was quicker; the task simply leaves our queue.
      setNotice(err instanceof ApiError && err.status === 409 ? "Already resolved by someone else." : String(err));
    }
    const list = await load();
    const next = list[Math.min(selected, list.length - 1)] ?? null;
    setSelected(Math.max(0, Math.min(selected, list.length - 1)));
    setOpen(next);
  };

  if (!token) return <SignIn onSignIn={onSignIn} notice={notice} />;
  return (
    <div class="shell">
      <header class="bar">
        <span class="brand">docsift</span>
        <span class="crumb">
          {open ? `Task ${tasks.findIndex((t) => t.id === open.id) + 1} of ${tasks.length}` : "Review queue"}
        </span>
        {notice && (
          <span class="notice" role="status">
            {notice}
          </span>
        )}
        <button type="button" class="link" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {open ? (
        <TaskView key={open.id} token={token} task={open} onApprove={approve} onBack={() => setOpen(null)} />
      ) : (
        <TaskList
          tasks={tasks}
          selected={selected}
          loading={loading}
          onSelect={setSelected}
          onOpen={(i) => {
            const task = tasks[i];
            if (task) setOpen(task);
          }}
          onRefresh={() => void load()}
        />
      )}
    </div>
  );
}
