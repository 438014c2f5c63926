/**
 * Group commit: writes asked for while one is under way are gathered and written together by the next one, so a
 * burst of N small writes costs a few transactions (and fsyncs) instead of N, while a lone write goes at once.
 * Each caller's promise settles with the write that carried its item.
 */
export function groupCommit<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  let gathering: { items: T[]; done: Promise<void> } | undefined;
  let previous: Promise<void> = Promise.resolve();
  return (item) => {
    if (gathering) {
      gathering.items.push(item);
      return gathering.done;
    }
    const batch: { items: T[]; done: Promise<void> } = { items: [item], done: previous };
    gathering = batch;
    batch.done = previous.then(() => {
      // From here on, new items gather for the next write.
      if (gathering === batch) gathering = undefined;
      return write(batch.items);
    });
    previous = batch.done.catch(() => undefined);
    return batch.done;
  };
}
