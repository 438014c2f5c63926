import { useEffect } from "preact/hooks";

/** Global single-key shortcuts, ignored while typing in a field (the field handles its own keys). */
export function useKeys(handler: (event: KeyboardEvent) => void): void {
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      handler(event);
    };
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, [handler]);
}
