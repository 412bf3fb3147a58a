// Uploaded .torrent files are parsed, checked, rewritten and hashed on
// worker threads, not on the event loop: a valid 1 MiB torrent of 34,000
// files held the loop for 0.2-0.5 s, and twenty refused ones in a row for
// seconds (issue 26). A small pool of workers is started on first need and
// kept while uploads come (each stops after a while without work); uploads
// wait their turn in a queue of bounded length, and one that finds the queue
// full is refused at once (MetainfoBusyError) rather than waiting behind a
// flood. The worker needs no database, so SQLite files, in-memory SQLite and
// PostgreSQL are served alike.
import { Worker } from 'node:worker_threads';
import { currentReader } from '../i18n/context.ts';
import type { Locale } from '../i18n/locale.ts';
import { t } from '../i18n/messages.ts';
import { MetainfoError, type Metainfo, type ParseOptions } from './metainfo.ts';

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  options: ParseOptions;
  /** The uploader's language: refusals are written in it. */
  locale: Locale;
}

/** Metainfo as it crosses threads: the file list as one string and one array (40,000 small objects cost the event loop more to receive). */
export type PackedMetainfo = Omit<Metainfo, 'files' | 'torrent'> & {
  /** File paths joined by NUL, which no accepted path contains. */
  paths: string;
  sizes: Float64Array<ArrayBuffer>;
  torrent: Uint8Array<ArrayBuffer>;
};

export type ParseReply = { id: number; facts: PackedMetainfo } | { id: number; refusal: string } | { id: number; failure: string };

export function packMetainfo(facts: Metainfo): PackedMetainfo {
  const { files, torrent, ...rest } = facts;
  const copy = new Uint8Array(torrent.length);
  copy.set(torrent);
  return { ...rest, paths: files.map((file) => file.path).join('\u0000'), sizes: Float64Array.from(files, (file) => file.size), torrent: copy };
}

export function unpackMetainfo(packed: PackedMetainfo): Metainfo {
  const { paths, sizes, torrent, ...rest } = packed;
  const files = paths.split('\u0000').map((path, index) => ({ path, size: sizes[index]! }));
  return { ...rest, files, torrent: Buffer.from(torrent.buffer, torrent.byteOffset, torrent.byteLength) };
}

/** The queue is full: the upload is refused for now, not kept waiting. */
export class MetainfoBusyError extends Error {
  /** Seconds after which trying again is sensible. */
  readonly retryAfter = 10;

  constructor() {
    super(t('metainfo.busy'));
    this.name = 'MetainfoBusyError';
  }
}

export interface PoolOptions {
  /** Workers at most. */
  size: number;
  /** Uploads waiting for a worker at most; one more is refused. */
  queueLimit: number;
  /** A worker without work for this long stops (a new one starts on the next upload). */
  idleMs: number;
}

interface Job {
  bytes: Uint8Array;
  options: ParseOptions;
  locale: Locale;
  resolve(facts: Metainfo): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  idleTimer: NodeJS.Timeout | null;
}

export class MetainfoPool {
  readonly #options: PoolOptions;
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 0;
  #started = 0;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Parses on a worker (see parseTorrent); throws MetainfoError for a refused file, MetainfoBusyError when the queue is full. */
  parse(bytes: Uint8Array, options: ParseOptions): Promise<Metainfo> {
    const idle = [...this.#slots].some((slot) => slot.job === null) || this.#slots.size < this.#options.size;
    if (!idle && this.#queue.length >= this.#options.queueLimit) return Promise.reject(new MetainfoBusyError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ bytes, options, locale: currentReader().locale, resolve, reject });
      this.#next();
    });
  }

  /** Workers running now and started so far, uploads being parsed and waiting. */
  stats(): { workers: number; started: number; working: number; queued: number } {
    const working = [...this.#slots].filter((slot) => slot.job !== null).length;
    return { workers: this.#slots.size, started: this.#started, working, queued: this.#queue.length };
  }

  /** Stops every worker; uploads in progress or waiting are refused. */
  async close(): Promise<void> {
    const waiting = this.#queue.splice(0);
    for (const job of waiting) job.reject(new Error('the .torrent checker was closed'));
    await Promise.all([...this.#slots].map((slot) => this.#stop(slot)));
  }

  #next(): void {
    while (this.#queue.length > 0) {
      let slot = [...this.#slots].find((candidate) => candidate.job === null);
      if (slot === undefined) {
        if (this.#slots.size >= this.#options.size) return;
        slot = this.#start();
      }
      this.#run(slot, this.#queue.shift()!);
    }
  }

  #run(slot: Slot, job: Job): void {
    if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.job = job;
    // Held open only while it works, so that an idle pool never keeps the process alive.
    slot.worker.ref();
    const bytes = new Uint8Array(job.bytes); // a copy: the caller keeps its buffer
    slot.worker.postMessage({ id: ++this.#nextId, bytes, options: job.options, locale: job.locale } satisfies ParseRequest, [bytes.buffer]);
  }

  #start(): Slot {
    const worker = new Worker(new URL('./metainfo-worker.ts', import.meta.url), {
      // A parse needs a few tens of MiB; a worker that needs far more dies alone, not the process.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const slot: Slot = { worker, job: null, idleTimer: null };
    this.#slots.add(slot);
    this.#started++;
    worker.on('message', (reply: ParseReply) => {
      if (!this.#slots.has(slot)) return; // stopped meanwhile: its job was refused already
      const job = slot.job;
      slot.job = null;
      worker.unref();
      slot.idleTimer = setTimeout(() => void this.#stop(slot), this.#options.idleMs).unref();
      if (job !== null) {
        if ('facts' in reply) job.resolve(unpackMetainfo(reply.facts));
        else if ('refusal' in reply) job.reject(new MetainfoError(reply.refusal));
        else job.reject(new Error(`checking the .torrent failed: ${reply.failure}`));
      }
      this.#next();
    });
    const gone = (error: Error) => {
      if (!this.#slots.delete(slot)) return;
      if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
      slot.job?.reject(error);
      slot.job = null;
      this.#next();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the .torrent checker stopped (exit code ${code})`)));
    return slot;
  }

  async #stop(slot: Slot): Promise<void> {
    if (slot.job !== null) slot.job.reject(new Error('the .torrent checker was closed'));
    slot.job = null;
    if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
    this.#slots.delete(slot);
    await slot.worker.terminate();
  }
}

/**
 * The process's pool: two workers (a parse is CPU work; the event loop keeps
 * a core of its own on a small machine), 32 uploads waiting at most (a few
 * seconds of work for the largest files).
 */
export const metainfoPool = new MetainfoPool({ size: 2, queueLimit: 32, idleMs: 30_000 });
