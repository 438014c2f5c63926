/** Row types of the SQLite database, as Kysely sees them. JSON columns hold text; timestamps ISO 8601 UTC text. */
import type { Generated } from "kysely";

export interface TenantsTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ClientsTable {
  id: string;
  name: string;
  tenant_id: string;
  secret_hash: string;
  /** Space-separated, as in OAuth2's `scope`. */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
}

export interface FilesTable {
  id: string;
  tenant_id: string;
  client_id: string;
  status: string;
  workflow: string;
  options: string | null;
  selection: string;
  locale: string | null;
  tags: string | null;
  file_name: string | null;
  type: string;
  page_count: number;
  size: number;
  parent_id: string | null;
  error: string | null;
  uploaded_at: string;
  started_at: string | null;
  finished_at: string | null;
  attempts: Generated<number>;
}

export interface ResultsTable {
  file_id: string;
  body: string;
  created_at: string;
}

/** Validation tasks (src/store/sqlite/task-repository.ts); breaches, predicted and corrections are JSON text. */
export interface TasksTable {
  id: string;
  tenant_id: string;
  file_id: string;
  field_set: string;
  status: string;
  priority: number;
  breaches: string;
  predicted: string;
  file_name: string | null;
  page_count: number;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  corrections: string | null;
}

export interface Database {
  tenants: TenantsTable;
  clients: ClientsTable;
  files: FilesTable;
  results: ResultsTable;
  tasks: TasksTable;
}
