/**
 * Killing a task's child processes and knowing they have ended. SIGKILL only asks the kernel: the process is still
 * running when `kill` returns and ends once it is scheduled again, which on a loaded machine takes a while. Whoever
 * reports "no child of this task is left" must wait for that, so `killAndAwait` reads each pid's state until it has
 * ended (gone, or a zombie waiting to be reaped) or the bound passes.
 */
import { readFile } from "node:fs/promises";

const POLL_MS = 5;
const DEFAULT_BOUND_MS = 2000;

/** Whether `pid` still runs: false once it is gone or a zombie (read from /proc; elsewhere `kill(pid, 0)` answers). */
async function stillRunning(pid: number): Promise<boolean> {
  if (process.platform !== "linux") {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** SIGKILL each pid (one that already ended is no error) and resolve once all have ended, or after `boundMs`. */
export async function killAndAwait(pids: Iterable<number>, boundMs = DEFAULT_BOUND_MS): Promise<void> {
  const targets = [...pids];
  for (const pid of targets) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // ESRCH: it ended between its last report and now.
    }
  }
  const deadline = Date.now() + boundMs;
  let left = targets;
  while (left.length > 0 && Date.now() < deadline) {
    const running = await Promise.all(left.map(stillRunning));
    left = left.filter((_, i) => running[i]);
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
