/** A line-items field's rows as an editable table: every cell an input, rows added and removed in place. */
import { LINE_ITEM_CELLS, type LineItemCell, type LineItemRow } from "./api.js";

const HEADINGS: Record<LineItemCell, string> = {
  description: "Description",
  quantity: "Qty",
  unit: "Unit",
  unitPrice: "Unit price",
  amount: "Amount",
  taxRate: "Tax %",
  productCode: "Code",
  date: "Date",
};

function cellsOf(text: (cell: LineItemCell) => string | null): LineItemRow {
  const row: Partial<LineItemRow> = {};
  for (const cell of LINE_ITEM_CELLS) row[cell] = text(cell);
  return row as LineItemRow;
}

/** The rows' cells alone, empty text as null: what a correction sends and what tells an edit from the prediction. */
export function rowCells(rows: readonly LineItemRow[]): LineItemRow[] {
  return rows.map((row) => cellsOf((cell) => row[cell]?.trim() || null));
}

export function sameRows(a: readonly LineItemRow[], b: readonly LineItemRow[]): boolean {
  return JSON.stringify(rowCells(a)) === JSON.stringify(rowCells(b));
}

export function LineItemsEditor(props: { name: string; rows: LineItemRow[]; onChange: (rows: LineItemRow[]) => void }) {
  const { rows, onChange } = props;
  const set = (index: number, cell: LineItemCell, text: string) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, [cell]: text } : row)));
  return (
    <div class="line-items">
      <table aria-label={`Rows of ${props.name}`}>
        <thead>
          <tr>
            {LINE_ITEM_CELLS.map((cell) => (
              <th key={cell} class={`cell-${cell}`}>
                {HEADINGS[cell]}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // Rows have no identity of their own beyond their place in the table; the inputs are controlled.
            <tr key={i} data-row={i}>
              {LINE_ITEM_CELLS.map((cell) => (
                <td key={cell} class={`cell-${cell}`}>
                  <input
                    aria-label={`Row ${i + 1} ${cell}`}
                    value={row[cell] ?? ""}
                    onInput={(e) => set(i, cell, e.currentTarget.value)}
                  />
                </td>
              ))}
              <td>
                <button
                  type="button"
                  class="link remove"
                  aria-label={`Remove row ${i + 1}`}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" class="link add-row" onClick={() => onChange([...rows, cellsOf(() => null)])}>
        + Add row
      </button>
    </div>
  );
}
