// `npm run db:copy -- --from sqlite:./data/forum.db --to postgres://…`: copies
// every table into an empty database (either direction) and verifies it
// (db/copy/copy.ts). Log lines go to stderr, the summary to stdout. Exit
// codes: 0 copied and verified, 1 failed (nothing kept), 2 refused or bad arguments.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig, type DatabaseConfig } from '../config.ts';
import { CopyRefused, copyDatabase, type CopyReport } from './copy/copy.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';

const USAGE = 'usage: npm run db:copy -- --from <sqlite:path | postgres://…> --to <sqlite:path | postgres://…>\n';

export function summarize(report: CopyReport): string {
  const width = Math.max(...report.tables.map((t) => t.name.length), 5);
  const lines = report.tables.map((t) => `  ${t.name.padEnd(width)}  ${String(t.rows).padStart(9)}  ${t.checksum}`);
  const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
  return [
    `Copied ${report.tables.length} tables, ${rows} rows in ${report.milliseconds} ms; row counts and checksums verified.`,
    `  ${'table'.padEnd(width)}  ${'rows'.padStart(9)}  checksum`,
    ...lines,
    'Uploaded files (UPLOAD_DIR) are not in the database: copy that folder separately.',
    '',
  ].join('\n');
}

function databaseOf(option: string, url: string | undefined): DatabaseConfig {
  if (url === undefined) throw new ConfigError(option, 'is required');
  try {
    return loadConfig({ DATABASE_URL: url }).database;
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(option, error.message.replace(/^DATABASE_URL /, ''));
    throw error;
  }
}

function describe(config: DatabaseConfig): string {
  return config.dialect === 'sqlite' ? `sqlite:${config.path}` : config.url.replace(/\/\/[^@/]*@/, '//***@');
}

async function main(argv: string[]): Promise<number> {
  let from: DatabaseConfig;
  let to: DatabaseConfig;
  try {
    const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true });
    from = databaseOf('--from', values.from);
    to = databaseOf('--to', values.to);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (describe(from) === describe(to)) {
    process.stderr.write(`--from and --to name the same database\n${USAGE}`);
    return 2;
  }
  if ((from.dialect === 'sqlite' && from.path === ':memory:') || (to.dialect === 'sqlite' && to.path === ':memory:')) {
    process.stderr.write(`an in-memory SQLite database cannot be copied from or to\n${USAGE}`);
    return 2;
  }

  const log = pino({ level: process.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));
  const handles: DatabaseHandle[] = [];
  try {
    const source = openDatabase(from, log);
    handles.push(source);
    const target = openDatabase(to, log);
    handles.push(target);
    const report = await copyDatabase(source, target, log);
    process.stdout.write(summarize(report));
    return 0;
  } catch (error) {
    if (error instanceof CopyRefused) {
      process.stderr.write(`Copy refused: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`Copy failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    for (const handle of handles) await handle.close().catch(() => {});
  }
}

process.exitCode = await main(process.argv.slice(2));
