/** What an upload asked for: products or field sets (never both; the API enforces "exactly one of"). */
export interface Selection {
  products?: readonly string[];
  fieldSets?: readonly string[];
}
