// Progress of a long import on stderr: rows per table, rate and time left,
// at most one line every `intervalMs` (and one when a table is done), so a
// million-row table neither floods a log file nor looks stuck.
// Wall time on purpose: progress is about real elapsed time (src/clock.ts).
/* eslint-disable no-restricted-syntax -- a command-line tool: its durations and file names are wall time (src/clock.ts) */

export type ProgressSink = (line: string) => void;

export class Progress {
  readonly #sink: ProgressSink;
  readonly #intervalMs: number;
  #table = '';
  #total = 0;
  #done = 0;
  #started = 0;
  #lastLine = 0;

  constructor(sink: ProgressSink, intervalMs = 2000) {
    this.#sink = sink;
    this.#intervalMs = intervalMs;
  }

  start(table: string, total: number): void {
    this.#table = table;
    this.#total = total;
    this.#done = 0;
    this.#started = Date.now();
    this.#lastLine = this.#started;
  }

  advance(rows: number): void {
    this.#done += rows;
    const now = Date.now();
    if (now - this.#lastLine >= this.#intervalMs) {
      this.#lastLine = now;
      this.#sink(this.#line(now));
    }
  }

  finish(): void {
    const seconds = (Date.now() - this.#started) / 1000;
    this.#sink(`${this.#table}: ${this.#done} rows in ${seconds.toFixed(1)} s (${rate(this.#done, seconds)} rows/s)`);
  }

  #line(now: number): string {
    const seconds = (now - this.#started) / 1000;
    const perSecond = seconds > 0 ? this.#done / seconds : 0;
    const share = this.#total > 0 ? ` (${Math.min(100, Math.floor((this.#done / this.#total) * 100))}%)` : '';
    const left = perSecond > 0 && this.#total > this.#done ? `, about ${Math.ceil((this.#total - this.#done) / perSecond)} s left` : '';
    return `${this.#table}: ${this.#done}/${this.#total}${share}, ${rate(this.#done, seconds)} rows/s${left}`;
  }
}

function rate(rows: number, seconds: number): number {
  return seconds > 0 ? Math.round(rows / seconds) : rows;
}
