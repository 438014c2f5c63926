/**
 * Row types of the PostgreSQL database, as Kysely sees them. Timestamps are timestamptz (read back as Date, written as
 * ISO text); options, selection and error are jsonb; a result body is `json`, which keeps the text as written so the
 * API answers byte-for-byte what the embedded store would.
 */
import type { ColumnType, Generated, JSONColumnType } from "kysely";

type Timestamp = ColumnType<Date, string, string>;
type NullableTimestamp = ColumnType<Date | null, string | null, string | null>;

export interface TenantsTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface ClientsTable {
  id: string;
  name: string;
  tenant_id: string;
  secret_hash: string;
  /** Space-separated, as in OAuth2's `scope`. */
  scopes: string;
  created_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface FilesTable {
  id: string;
  tenant_id: string;
  client_id: string;
  status: string;
  workflow: string;
  options: ColumnType<unknown, string | null, string | null>;
  selection: JSONColumnType<object>;
  locale: string | null;
  tags: string | null;
  file_name: string | null;
  type: string;
  page_count: number;
  size: number;
  parent_id: string | null;
  error: ColumnType<unknown, string | null, string | null>;
  uploaded_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  attempts: Generated<number>;
}

export interface ResultsTable {
  file_id: string;
  body: JSONColumnType<object>;
  created_at: Timestamp;
}

export interface BlobsTable {
  id: string;
  bytes: Buffer;
  created_at: Timestamp;
}

/** Validation tasks (src/store/postgres/task-repository.ts). */
export interface TasksTable {
  id: string;
  tenant_id: string;
  file_id: string;
  field_set: string;
  status: string;
  priority: number;
  breaches: JSONColumnType<object>;
  predicted: JSONColumnType<object>;
  file_name: string | null;
  page_count: number;
  created_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolved_by: string | null;
  corrections: ColumnType<unknown, string | null, string | null>;
}

export interface PgDatabase {
  tenants: TenantsTable;
  clients: ClientsTable;
  files: FilesTable;
  results: ResultsTable;
  blobs: BlobsTable;
  tasks: TasksTable;
}
