// `npm run emoji:import`: the start-up Unicode import, on demand. Same
// configuration and same service as the server; log lines go to stderr, the
// summary to stdout. Running it again (or against a filled catalog) changes nothing.
import pino from 'pino';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createEmojiServices } from './services.ts';
import type { ImportReport } from './unicode-import.ts';

export function summarize(report: ImportReport): string {
  if (!report.imported) return `Unicode emoji import: nothing imported (${report.reason}).\n`;
  const lines = [
    `Unicode emoji import: ${report.categories} categories, ${report.emojis} emojis and ${report.aliases} aliases imported in ${report.milliseconds} ms.`,
    `Left out by design: ${report.leftOut.skinToneVariants} skin-tone variants, ${report.leftOut.components} components, ${report.leftOut.ungrouped} emojis outside any group.`,
    `Skipped because they break a catalog rule: ${report.skipped.length}.`,
    ...report.skipped.map((skip) => `  - ${skip.item}: ${skip.reason}`),
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Invalid configuration: ${error.message}\n`);
    return 1;
  }
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const database = openDatabase(config.database, log);
  try {
    await migrateToLatest(database, log);
    const report = await createEmojiServices(database, systemClock).unicodeImport.importIfEmpty(log);
    process.stdout.write(summarize(report));
    return 0;
  } catch (error) {
    log.error({ err: error }, 'Unicode emoji import failed');
    process.stderr.write(`Unicode emoji import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
