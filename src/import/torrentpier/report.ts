// What the import did, per upstream table: rows read, imported and skipped,
// each skip under its reason (with the first few ids, so an operator can look
// them up; a million orphans do not make a million lines), and notes for rows
// that moved with a change worth knowing (a renamed duplicate user, a repaired
// info hash).
/* eslint-disable no-restricted-syntax -- a command-line tool: its durations and file names are wall time (src/clock.ts) */

/** How many example ids a reason or a note keeps. */
const EXAMPLES = 5;

interface Tally {
  count: number;
  examples: string[];
}

export interface TableReport {
  table: string;
  read: number;
  imported: number;
  skipped: number;
  skips: { reason: string; count: number; examples: string[] }[];
  notes: { note: string; count: number; examples: string[] }[];
}

class TableTally {
  read = 0;
  imported = 0;
  readonly skips = new Map<string, Tally>();
  readonly notes = new Map<string, Tally>();

  readonly table: string;

  constructor(table: string) {
    this.table = table;
  }
}

function bump(map: Map<string, Tally>, key: string, id: string | number | null, count = 1): void {
  let tally = map.get(key);
  if (tally === undefined) {
    tally = { count: 0, examples: [] };
    map.set(key, tally);
  }
  tally.count += count;
  if (id !== null && tally.examples.length < EXAMPLES) tally.examples.push(String(id));
}

export class ImportReport {
  readonly #tables = new Map<string, TableTally>();
  readonly startedAt = Date.now(); // wall time on purpose: a CLI measures its own duration (src/clock.ts)

  #table(table: string): TableTally {
    let tally = this.#tables.get(table);
    if (tally === undefined) {
      tally = new TableTally(table);
      this.#tables.set(table, tally);
    }
    return tally;
  }

  /** Makes the table appear in the report even when it holds no rows. */
  table(table: string): void {
    this.#table(table);
  }

  read(table: string, rows = 1): void {
    this.#table(table).read += rows;
  }

  imported(table: string, rows = 1): void {
    this.#table(table).imported += rows;
  }

  skipped(table: string, reason: string, id: string | number | null, rows = 1): void {
    bump(this.#table(table).skips, reason, id, rows);
  }

  /** A row counted as imported that a later step had to take out again (a topic left without posts). */
  withdrawn(table: string, reason: string, id: string | number | null, rows = 1): void {
    this.#table(table).imported -= rows;
    this.skipped(table, reason, id, rows);
  }

  note(table: string, note: string, id: string | number | null, rows = 1): void {
    bump(this.#table(table).notes, note, id, rows);
  }

  tables(): TableReport[] {
    return [...this.#tables.values()].map((t) => ({
      table: t.table,
      read: t.read,
      imported: t.imported,
      skipped: [...t.skips.values()].reduce((sum, s) => sum + s.count, 0),
      skips: [...t.skips].map(([reason, s]) => ({ reason, count: s.count, examples: s.examples })),
      notes: [...t.notes].map(([note, s]) => ({ note, count: s.count, examples: s.examples })),
    }));
  }

  /** The report as the command prints it at the end. */
  format(): string {
    const tables = this.tables();
    const width = Math.max(5, ...tables.map((t) => t.table.length));
    const num = (n: number) => String(n).padStart(10);
    const lines = [`  ${'table'.padEnd(width)}  ${'read'.padStart(10)}  ${'imported'.padStart(10)}  ${'skipped'.padStart(10)}`];
    for (const t of tables) lines.push(`  ${t.table.padEnd(width)}  ${num(t.read)}  ${num(t.imported)}  ${num(t.skipped)}`);
    const details: string[] = [];
    for (const t of tables) {
      for (const s of t.skips) details.push(`  ${t.table}: ${s.count} skipped: ${s.reason}${examples(s.examples, s.count)}`);
      for (const n of t.notes) details.push(`  ${t.table}: ${n.count} imported with a change: ${n.note}${examples(n.examples, n.count)}`);
    }
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    return [`Import finished in ${seconds} s.`, ...lines, ...(details.length > 0 ? ['', 'Skips and changes:', ...details] : []), ''].join('\n');
  }
}

function examples(ids: string[], count: number): string {
  if (ids.length === 0) return '';
  return ` (${count > ids.length ? 'e.g. ' : ''}id ${ids.join(', ')})`;
}
