// `npm run db:backup [-- --to <file>]` and `npm run db:restore -- --from <file>`
// for the database in DATABASE_URL (db/backup.ts). The summary goes to stdout,
// problems to stderr. Exit codes: 0 done, 1 failed, 2 refused or bad arguments.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { BackupError, backup, defaultBackupFile, restore } from './backup.ts';

const USAGE = 'usage: npm run db:backup [-- --to <file>]   |   npm run db:restore -- --from <file>\n';

async function main(argv: string[]): Promise<number> {
  let config: Config;
  let command: string | undefined;
  let values: { to?: string; from?: string };
  try {
    const parsed = parseArgs({ args: argv, options: { to: { type: 'string' }, from: { type: 'string' } }, allowPositionals: true, strict: true });
    command = parsed.positionals[0];
    values = parsed.values;
    config = loadConfig();
  } catch (error) {
    process.stderr.write(
      `${error instanceof ConfigError ? `Invalid configuration: ${error.message}` : error instanceof Error ? error.message : String(error)}\n${USAGE}`,
    );
    return 2;
  }

  try {
    if (command === 'backup') {
      const result = await backup(config.database, values.to ?? defaultBackupFile(config.database));
      process.stdout.write(`Backup written to ${result.file} (${result.bytes} bytes in ${result.milliseconds} ms).\n`);
      process.stdout.write('Uploaded files (UPLOAD_DIR) are not in the database: back up that folder too.\n');
      return 0;
    }
    if (command === 'restore' && values.from !== undefined) {
      const result = await restore(values.from, config.database);
      process.stdout.write(`Restored ${values.from} in ${result.milliseconds} ms. Start the service to use it.\n`);
      return 0;
    }
  } catch (error) {
    if (error instanceof BackupError) {
      process.stderr.write(`${command === 'backup' ? 'Backup' : 'Restore'} failed: ${error.message}\n`);
      return error.refused ? 2 : 1;
    }
    throw error;
  }
  process.stderr.write(USAGE);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
