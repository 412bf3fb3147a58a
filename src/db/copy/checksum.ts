// A table's checksum, computed the same way on SQLite and PostgreSQL: each
// row's values are normalized to one text form (booleans as t/f whether
// stored as 0/1 or true/false, integers in decimal whatever their width,
// timestamps as the ISO text the service stores, blobs/bytea as hex), the
// row is hashed, and the hashes are added up modulo 2^128. The sum does not
// depend on the order rows are read in (collations differ between the two
// databases) and still counts a duplicated row twice.
import { createHash } from 'node:crypto';
import type { ColumnInfo, TableInfo } from './catalog.ts';
import type { Row } from './scan.ts';

const MODULUS = 1n << 128n;

export function normalize(value: unknown, column: ColumnInfo): string | null {
  if (value === null || value === undefined) return null;
  if (column.kind === 'boolean') return value === true || value === 1 || value === 1n || value === '1' || value === 't' ? 't' : 'f';
  if (typeof value === 'string') return column.kind === 'json' ? canonicalJson(JSON.parse(value)) : value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  return canonicalJson(value);
}

/** JSON with object keys sorted, as PostgreSQL's jsonb would give them back in any order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

export class TableChecksum {
  readonly #columns: readonly ColumnInfo[];
  #sum = 0n;
  rows = 0;

  constructor(table: TableInfo) {
    // Column order by name, so two databases whose columns were added in another order agree.
    this.#columns = [...table.columns].sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  add(row: Row): void {
    const values = this.#columns.map((column) => [column.name, normalize(row[column.name], column)]);
    const digest = createHash('sha256').update(JSON.stringify(values)).digest();
    this.#sum = (this.#sum + digest.readBigUInt64BE(0) * (1n << 64n) + digest.readBigUInt64BE(8)) % MODULUS;
    this.rows += 1;
  }

  get value(): string {
    return this.#sum.toString(16).padStart(32, '0');
  }
}
