/**
 * How many times a file may be processed before it ends FAILED `internal`. Only attempts the file's own processing
 * ended count (its thread crashed or threw): a process killed or shut down mid-job is not the file's fault, and its
 * job is simply resumed. A file that takes the whole process down each time (a native abort in a parser) would be
 * resumed forever, though, so interruptions have a bound of their own, far above what restarts or crashes of healthy
 * files reach.
 */
export const MAX_ATTEMPTS = 3;
export const MAX_INTERRUPTIONS = 10;
