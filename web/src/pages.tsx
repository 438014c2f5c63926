/** The file's page images (fetched with the token as blob URLs) with the predicted boxes drawn over them. */
import { useEffect, useRef, useState } from "preact/hooks";
import { pageImage, type TaskField } from "./api.js";

export function Pages(props: {
  token: string;
  fileId: string;
  pageCount: number;
  fields: TaskField[];
  breached: Set<string>;
  selected: string | null;
  onPick: (name: string) => void;
}) {
  const [urls, setUrls] = useState<(string | null)[]>(() => Array(props.pageCount).fill(null));
  const [error, setError] = useState<string | null>(null);
  const boxes = useRef<Map<string, HTMLElement>>(new Map());

  useEffect(() => {
    const abort = new AbortController();
    const made: string[] = [];
    for (let page = 1; page <= props.pageCount; page++) {
      pageImage(props.token, props.fileId, page, abort.signal)
        .then((url) => {
          made.push(url);
          setUrls((prev) => prev.map((u, i) => (i === page - 1 ? url : u)));
        })
        .catch((err: Error) => {
          if (!abort.signal.aborted) setError(err.message);
        });
    }
    return () => {
      abort.abort();
      for (const url of made) URL.revokeObjectURL(url);
    };
  }, [props.token, props.fileId, props.pageCount]);

  useEffect(() => {
    if (props.selected) boxes.current.get(props.selected)?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [props.selected, urls]);

  return (
    <section class="pages" aria-label="Pages">
      {error && <p class="error">{error}</p>}
      {urls.map((url, i) => {
        const pageNum = i + 1;
        return (
          <div class="page" key={pageNum} data-page={pageNum}>
            {url ? <img src={url} alt={`Page ${pageNum}`} /> : <div class="placeholder">Page {pageNum}…</div>}
            {url &&
              props.fields
                .filter((f) => f.boundingBox?.pageNum === pageNum)
                .map((f) => {
                  const b = f.boundingBox;
                  if (!b) return null;
                  const cls = [
                    "box",
                    props.breached.has(f.name) ? "breached" : "",
                    props.selected === f.name ? "active" : "",
                  ];
                  return (
                    <button
                      type="button"
                      key={f.name}
                      title={`${f.name}: ${Array.isArray(f.value) ? `${f.value.length} rows` : (f.value ?? "—")}`}
                      class={cls.join(" ")}
                      ref={(el) => {
                        if (el) boxes.current.set(f.name, el);
                        else boxes.current.delete(f.name);
                      }}
                      onClick={() => props.onPick(f.name)}
                      style={{
                        left: `${b.topLeft.x * 100}%`,
                        top: `${b.topLeft.y * 100}%`,
                        width: `${(b.bottomRight.x - b.topLeft.x) * 100}%`,
                        height: `${(b.bottomRight.y - b.topLeft.y) * 100}%`,
                      }}
                    />
                  );
                })}
          </div>
        );
      })}
    </section>
  );
}
