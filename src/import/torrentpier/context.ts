// What every table group's import shares: the upstream connection and
// version, the target database, the report and progress, and which upstream
// ids made it across (later groups refer to them).
import type mysql from 'mysql2/promise';
import type { DatabaseHandle } from '../../db/database.ts';
import type { IdSet } from './id-set.ts';
import type { Progress } from './progress.ts';
import type { ImportReport } from './report.ts';
import type { UpstreamVersion } from './source.ts';

export interface ImportContext {
  source: mysql.Connection;
  version: UpstreamVersion;
  target: DatabaseHandle;
  /** The folder holding the upstream's stored files (--files), or null when none was given. */
  files: string | null;
  report: ImportReport;
  progress: Progress;
  /** Rows read and written per batch. */
  batchSize: number;
  /** When the import runs: the time of rows the upstream kept no time for. */
  now: string;
  imported: { users: IdSet; forums: IdSet; topics: IdSet; groups: IdSet };
}

/** A mapper's verdict on one upstream row: the row to write (with notes on what changed), or why it stays behind. */
export type Mapped<T> = { ok: true; row: T; notes: string[] } | { ok: false; reason: string };

export function skip<T>(reason: string): Mapped<T> {
  return { ok: false, reason };
}

export function keep<T>(row: T, notes: string[] = []): Mapped<T> {
  return { ok: true, row, notes };
}

/** Upstream integers arrive as numbers, or as strings for BIGINT columns (bigNumberStrings). */
export function int(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

/** Rows in chunks small enough for both databases' bound-parameter limits. */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}
