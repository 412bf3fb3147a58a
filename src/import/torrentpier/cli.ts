// `npm run import:torrentpier -- --from mysql://user:pass@host/db [--files DIR] [--avatars-dir DIR] [--batch-size N]`:
// moves a TorrentPier 2.4.x or 3.0.x forum into the database the service is
// configured for (DATABASE_URL, UPLOAD_DIR as the server reads them). Progress
// goes to stderr, the report to stdout. Exit codes: 0 imported, 1 failed
// part-way (start again on a new empty database), 2 refused or bad arguments.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import { DEFAULT_BATCH_SIZE, ImportRefused, importTorrentPier } from './importer.ts';

const USAGE = 'usage: npm run import:torrentpier -- --from mysql://user:pass@host[:port]/db [--files DIR] [--avatars-dir DIR] [--batch-size N]\n';

interface Arguments {
  from: string;
  files: string | null;
  avatarsDir: string | null;
  batchSize: number;
}

function folderArgument(name: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!existsSync(value) || !statSync(value).isDirectory()) throw new Error(`--${name} ${value} is not a folder`);
  return value;
}

function parse(argv: string[]): Arguments {
  const { values } = parseArgs({
    args: argv,
    options: { from: { type: 'string' }, files: { type: 'string' }, 'avatars-dir': { type: 'string' }, 'batch-size': { type: 'string' } },
    strict: true,
  });
  if (values.from === undefined) throw new Error('--from is required');
  const files = folderArgument('files', values.files);
  const avatarsDir = folderArgument('avatars-dir', values['avatars-dir']);
  const rawBatch = values['batch-size'] ?? String(DEFAULT_BATCH_SIZE);
  if (!/^[1-9][0-9]{0,5}$/.test(rawBatch)) throw new Error('--batch-size must be a whole number from 1 to 999999');
  return { from: values.from, files, avatarsDir, batchSize: Number(rawBatch) };
}

async function main(argv: string[]): Promise<number> {
  let args: Arguments;
  let config: Config;
  try {
    args = parse(argv);
    config = loadConfig();
  } catch (error) {
    const prefix = error instanceof ConfigError ? 'Invalid configuration: ' : '';
    process.stderr.write(`${prefix}${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const log = pino({ level: process.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));
  if (args.files === null) process.stderr.write('No --files folder: .torrent files and smiley images will not be read (those rows are skipped).\n');
  if (args.avatarsDir === null) process.stderr.write('No --avatars-dir folder: avatars will not be read (members keep none).\n');
  try {
    const report = await importTorrentPier({
      from: args.from,
      files: args.files,
      avatarsDir: args.avatarsDir,
      config,
      log,
      batchSize: args.batchSize,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(report.format());
    return 0;
  } catch (error) {
    if (error instanceof ImportRefused) {
      process.stderr.write(`Import refused: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(
      `Import failed: ${error instanceof Error ? error.message : String(error)}\nThe target now holds part of the forum: drop it, create a new empty database and run the import again.\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
