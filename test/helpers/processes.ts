/** Process checks for tests that kill child processes: read from /proc (Linux, where the tests run). */
import { readFileSync } from "node:fs";

/** Whether `pid` is a running process (a zombie has ended: it only waits to be reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
