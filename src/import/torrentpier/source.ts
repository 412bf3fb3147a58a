// The TorrentPier side of the import: the connection from a `mysql://` URL,
// which upstream version the database is, and a reader that streams a table
// in key order, one batch at a time (keyset pagination: memory stays flat
// whatever the table's size, and no OFFSET scan grows with it).
import type mysql from 'mysql2/promise';

export type UpstreamVersion = '2.4' | '3.0';

/** mysql2 options from `mysql://user:pass@host[:port]/db[?socket=/path]`. */
export function sourceOptions(url: string): mysql.ConnectionOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--from is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new Error(`--from must be a mysql:// URL, got ${parsed.protocol}`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '') throw new Error('--from names no database (mysql://user:pass@host/db)');
  const socket = parsed.searchParams.get('socket');
  return {
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database,
    charset: 'utf8mb4_unicode_ci',
    // Dates as strings and big integers exactly: byte counts exceed 2^53 only in theory, but never round.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    ...(socket ? { socketPath: socket } : { host: parsed.hostname || 'localhost', port: parsed.port ? Number(parsed.port) : 3306 }),
  };
}

/** 3.0.x renamed bb_posts_text to bb_post_texts and moved torrents onto topics. */
export async function detectVersion(conn: mysql.Connection): Promise<UpstreamVersion> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name IN ('bb_posts_text', 'bb_post_texts', 'bb_users')",
  );
  const names = new Set(rows.map((row) => String(row['name'])));
  if (!names.has('bb_users')) throw new Error('the source database has no bb_users table: not a TorrentPier database');
  if (names.has('bb_post_texts')) return '3.0';
  if (names.has('bb_posts_text')) return '2.4';
  throw new Error('the source database has neither bb_posts_text (2.x) nor bb_post_texts (3.x)');
}

/** The columns a table has (optional columns depend on when the forum was installed). */
export async function tableColumns(conn: mysql.Connection, table: string): Promise<Set<string>> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(
    'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?',
    [table],
  );
  return new Set(rows.map((row) => String(row['name'])));
}

export async function countRows(conn: mysql.Connection, table: string): Promise<number> {
  const [rows] = await conn.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${table}\``);
  return Number(rows[0]!['n']);
}

export interface ReadSpec {
  table: string;
  /** The primary key, in order; pagination continues after the last row's key. */
  key: string[];
  /** Columns to select (key columns are added when missing). */
  columns: string[];
  batchSize: number;
}

const ident = (name: string) => `\`${name.replace(/`/g, '``')}\``;

/** Streams a table in primary-key order, `batchSize` rows at a time. */
export async function* readBatches(conn: mysql.Connection, spec: ReadSpec): AsyncGenerator<mysql.RowDataPacket[]> {
  const columns = [...new Set([...spec.key, ...spec.columns])];
  const select = `SELECT ${columns.map(ident).join(', ')} FROM ${ident(spec.table)}`;
  const order = ` ORDER BY ${spec.key.map(ident).join(', ')} LIMIT ${Math.max(1, Math.floor(spec.batchSize))}`;
  // Row-value comparison `(a, b) > (?, ?)` is answered from the primary key index by MariaDB.
  const after = ` WHERE (${spec.key.map(ident).join(', ')}) > (${spec.key.map(() => '?').join(', ')})`;
  let last: unknown[] | null = null;
  for (;;) {
    const [rows]: [mysql.RowDataPacket[], mysql.FieldPacket[]] = await conn.query<mysql.RowDataPacket[]>(select + (last ? after : '') + order, last ?? []);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < spec.batchSize) return;
    const tail: mysql.RowDataPacket = rows[rows.length - 1]!;
    last = spec.key.map((k): unknown => tail[k]);
  }
}

export interface QuerySpec {
  /** `SELECT … FROM … [JOIN …]` without WHERE or ORDER BY. */
  select: string;
  /** The one key column, qualified as the query needs it (`p.post_id`). */
  key: string;
  /** The key's name in the result rows (`post_id`). */
  keyAlias: string;
  batchSize: number;
}

/** Like readBatches, for a query that joins tables: keyset pagination on one key column. */
export async function* readQueryBatches(conn: mysql.Connection, spec: QuerySpec): AsyncGenerator<mysql.RowDataPacket[]> {
  const limit = Math.max(1, Math.floor(spec.batchSize));
  let last: unknown = null;
  for (;;) {
    const where = last === null ? '' : ` WHERE ${spec.key} > ?`;
    const [rows] = await conn.query<mysql.RowDataPacket[]>(`${spec.select}${where} ORDER BY ${spec.key} LIMIT ${limit}`, last === null ? [] : [last]);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < limit) return;
    last = rows[rows.length - 1]![spec.keyAlias];
  }
}
