// Backups and restores of the configured database.
//
// SQLite: `VACUUM INTO` writes a consistent, compacted copy from one read
// transaction; with WAL the service keeps reading and writing meanwhile. The
// copy is checked (integrity_check) before it is reported.
// PostgreSQL: pg_dump's custom format (one consistent snapshot, compressed),
// restored by pg_restore in a single transaction. Both tools must be at least
// the server's major version.
// A restore goes only into an empty database (a missing SQLite file counts as
// empty): it never overwrites data; move the old database aside first.
// Wall time here on purpose: a CLI names files and measures durations (src/clock.ts).
/* eslint-disable no-restricted-syntax -- a command-line tool: its durations and file names are wall time (src/clock.ts) */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { DatabaseConfig } from '../config.ts';

export class BackupError extends Error {
  /** Nothing was attempted: the request itself was refused (a file in the way, a non-empty target). */
  readonly refused: boolean;
  constructor(message: string, options: { refused?: boolean } = {}) {
    super(message);
    this.name = 'BackupError';
    this.refused = options.refused ?? false;
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  milliseconds: number;
}

/** `forum-20261123T194500Z.db` (SQLite) or `.dump` (pg_dump custom format). */
export function defaultBackupFile(config: DatabaseConfig, now = new Date(), folder = './data/backups'): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${folder}/forum-${stamp}.${config.dialect === 'sqlite' ? 'db' : 'dump'}`;
}

export async function backup(config: DatabaseConfig, file: string): Promise<BackupResult> {
  const started = Date.now();
  if (existsSync(file)) throw new BackupError(`${file} already exists; a backup never overwrites a file`, { refused: true });
  mkdirSync(dirname(file), { recursive: true });
  if (config.dialect === 'sqlite') {
    if (config.path === ':memory:') throw new BackupError('an in-memory database cannot be backed up', { refused: true });
    if (!existsSync(config.path)) throw new BackupError(`${config.path} does not exist`, { refused: true });
    // Written under a temporary name, so a half-written backup never looks like a backup.
    const partial = `${file}.partial`;
    rmSync(partial, { force: true });
    const database = new DatabaseSync(config.path, { timeout: 10_000 });
    try {
      database.prepare('vacuum into ?').run(partial);
    } finally {
      database.close();
    }
    checkSqliteFile(partial);
    renameSync(partial, file);
  } else {
    const partial = `${file}.partial`;
    try {
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`], config.url);
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    renameSync(partial, file);
  }
  return { file, bytes: statSync(file).size, milliseconds: Date.now() - started };
}

export async function restore(file: string, config: DatabaseConfig): Promise<{ milliseconds: number }> {
  const started = Date.now();
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`, { refused: true });
  if (config.dialect === 'sqlite') {
    if (config.path === ':memory:') throw new BackupError('cannot restore into an in-memory database', { refused: true });
    checkSqliteFile(file);
    if (existsSync(config.path)) {
      const filled = sqliteTablesWithRows(config.path);
      if (filled.length > 0)
        throw new BackupError(`${config.path} is not empty (${filled.join(', ')}); stop the service and move it aside first`, { refused: true });
    }
    mkdirSync(dirname(config.path), { recursive: true });
    // Open the backup and checkpoint it into a fresh file next to the target, then move it in one step.
    const partial = `${config.path}.restoring`;
    rmSync(partial, { force: true });
    const source = new DatabaseSync(file, { readOnly: true });
    try {
      source.prepare('vacuum into ?').run(partial);
    } finally {
      source.close();
    }
    for (const suffix of ['-wal', '-shm']) rmSync(`${config.path}${suffix}`, { force: true });
    renameSync(partial, config.path);
  } else {
    const filled = await postgresTables(config.url);
    if (filled > 0) throw new BackupError(`the target database already has ${filled} tables; restore into an empty database`, { refused: true });
    await run('pg_restore', ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file], config.url);
  }
  return { milliseconds: Date.now() - started };
}

function checkSqliteFile(file: string): void {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    const result = database.prepare('pragma integrity_check').all() as { integrity_check: string }[];
    const problems = result.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    if (problems.length > 0) throw new BackupError(`${file} fails its integrity check: ${problems.slice(0, 3).join('; ')}`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable SQLite database: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    database.close();
  }
}

function sqliteTablesWithRows(path: string): string[] {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    const tables = database.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'").all() as {
      name: string;
    }[];
    return tables
      .filter(({ name }) => !name.startsWith('kysely_migration'))
      .filter(({ name }) => database.prepare(`select exists(select 1 from "${name.replace(/"/g, '""')}") as filled`).get()?.['filled'] === 1)
      .map(({ name }) => name);
  } finally {
    database.close();
  }
}

async function postgresTables(url: string): Promise<number> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_class where relkind in ('r', 'p') and relnamespace = current_schema()::regnamespace",
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** Runs a PostgreSQL client tool; the password goes in PGPASSWORD, never on the command line. */
function run(tool: string, args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = { ...process.env, ...(password === '' ? {} : { PGPASSWORD: password }) };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [`--dbname=${parsed.toString()}`, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.on('error', (error) =>
      reject(new BackupError(`${tool} could not be started (${error.message}); install the PostgreSQL client tools of the server's major version`)),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`))));
  });
}
