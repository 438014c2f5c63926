/**
 * CPU time of this process and every OCR child it runs (Linux /proc): tesseract runs once reaped, and the
 * long-lived line recogniser process while it runs (its time reaches this process's counters only when it exits).
 */
import { existsSync, readFileSync } from "node:fs";
import { onChildProcess } from "../src/ingest/index.js";

/** Linux clock ticks per second for /proc times (CLK_TCK is 100 on every mainstream kernel build). */
const TICKS_PER_SECOND = 100;

const live = new Set<number>();
onChildProcess((pid, running) => {
  if (running) live.add(pid);
  else live.delete(pid);
});

/** Fields 3 onwards of /proc/<pid>/stat (after the parenthesised command name), or undefined when it is gone. */
function statFields(pid: number | "self"): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return undefined;
  }
}

/** CPU ms used so far by this process, its reaped children and its OCR children still running; undefined off Linux. */
export function cpuMs(): number | undefined {
  const self = process.cpuUsage();
  if (!existsSync("/proc/self/stat")) return undefined;
  // Field numbers as proc(5) counts them: utime 14, stime 15, cutime 16, cstime 17 (index = number - 3 here).
  const own = statFields("self")!;
  let ticks = Number(own[13]) + Number(own[14]);
  for (const pid of live) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (self.user + self.system) / 1000 + (ticks * 1000) / TICKS_PER_SECOND;
}
