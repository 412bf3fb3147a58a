// Where the accounting queue is written. On a SQLite file, a worker thread
// with its own connection writes it (WAL lets the event loop's connection
// keep reading meanwhile); on PostgreSQL the pool's I/O is asynchronous
// already, and an in-memory SQLite database cannot be opened twice, so
// there the event loop writes it itself, yielding between slices.
import type { Kysely } from 'kysely';
import { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ACCOUNTING_TABLES, packTransfers, unpackTransfers, UnwrittenTransfers, writeInSlices, type Flush, type PendingTransfer } from './accounting-batch.ts';

export interface BatchWriter {
  /**
   * Writes the queue, one transaction per slice, telling `onCompleted` of the
   * first completions per torrent that were committed. Throws
   * UnwrittenTransfers naming what was not written; any other error means
   * the outcome is unknown (the writer died), and nothing may be retried.
   */
  writeAll(queued: PendingTransfer[], flush: Flush, onCompleted: (completions: Map<number, number>) => void): Promise<void>;
  close(): Promise<void>;
}

export interface WorkerRequest {
  id: number;
  packed: Float64Array<ArrayBuffer>;
  flush: Flush;
}

export type WorkerReply =
  { id: number; completions: [number, number][] } | { id: number; completions: [number, number][]; error: string; unwritten: Float64Array<ArrayBuffer> };

export function batchWriterFor(config: DatabaseConfig, database: DatabaseHandle): BatchWriter {
  if (config.dialect === 'sqlite' && config.path !== ':memory:') return new WorkerWriter(config.path, () => database.reportWrites(ACCOUNTING_TABLES));
  return inProcessWriter(database.db);
}

export function inProcessWriter(db: Kysely<Database>): BatchWriter {
  return {
    writeAll: (queued, flush, onCompleted) => writeInSlices(db, queued, flush, onCompleted, () => new Promise((resolve) => setImmediate(resolve))),
    close: async () => {},
  };
}

interface Waiting {
  onCompleted(completions: Map<number, number>): void;
  resolve(): void;
  reject(error: Error): void;
}

export class WorkerWriter implements BatchWriter {
  readonly #path: string;
  /** Called after the worker committed: this process's write listeners must hear of it. */
  readonly #onWritten: () => void;
  #worker: Worker | null = null;
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;

  constructor(path: string, onWritten: () => void) {
    this.#path = path;
    this.#onWritten = onWritten;
  }

  writeAll(queued: PendingTransfer[], flush: Flush, onCompleted: (completions: Map<number, number>) => void): Promise<void> {
    const worker = (this.#worker ??= this.#start());
    const id = ++this.#nextId;
    const packed = packTransfers(queued);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { onCompleted, resolve, reject });
      // Held open only while a queue is out, so that a stop (SIGTERM) waits for it and an idle worker never keeps the process alive.
      worker.ref();
      worker.postMessage({ id, packed, flush } satisfies WorkerRequest, [packed.buffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker !== null) await worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(new URL('./accounting-worker.ts', import.meta.url), { workerData: { path: this.#path } });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      if (waiting === undefined) return;
      this.#onWritten();
      waiting.onCompleted(new Map(reply.completions));
      if ('error' in reply) waiting.reject(new UnwrittenTransfers(unpackTransfers(reply.unwritten), new Error(reply.error)));
      else waiting.resolve();
    });
    // A worker that dies takes its unanswered queue with it: which of its slices were
    // committed is unknown, and the next write starts a new worker.
    const failAll = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the accounting worker stopped (exit code ${code})`)));
    return worker;
  }
}
