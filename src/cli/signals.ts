/** How the long-running commands (serve, worker) end: SIGTERM or SIGINT drains the process, then it exits. */
import type { Logger } from "pino";

/** Resolves with the exit code once a signal came and `stop` settled: 0 drained, 1 the drain failed. */
export function untilSignal(stop: () => Promise<void>, log: Pick<Logger, "info" | "error">): Promise<number> {
  return new Promise<number>((resolveExit) => {
    const shutdown = (signal: NodeJS.Signals): void => {
      log.info({ signal }, "draining");
      stop().then(
        () => resolveExit(0),
        (err: unknown) => {
          log.error({ err }, "shutdown failed");
          resolveExit(1);
        },
      );
    };
    process.once("SIGTERM", shutdown);
    process.once("SIGINT", shutdown);
  });
}
