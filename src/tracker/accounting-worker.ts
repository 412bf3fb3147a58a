// The accounting worker's thread: writes the accounting queue through a
// SQLite connection of its own, so that the event loop answering announces
// never runs those writes (a busy interval's upserts held it for tens of
// milliseconds per slice; see docs/tracker.md, "Accounting").
// Started by WorkerWriter (accounting-writers.ts); one queue at a time.
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { openDatabase } from '../db/database.ts';
import { packTransfers, unpackTransfers, UnwrittenTransfers, writeInSlices } from './accounting-batch.ts';
import type { WorkerReply, WorkerRequest } from './accounting-writers.ts';

const { path } = workerData as { path: string };
// Failures are answered to the main thread, which logs them; nothing is logged here.
const database = openDatabase({ dialect: 'sqlite', path }, pino({ level: 'silent' }));

parentPort!.on('message', async (request: WorkerRequest) => {
  const queued = unpackTransfers(request.packed);
  // In key order, so that each slice touches neighbouring rows of the (user,
  // torrent) index: in arrival order every row dirtied a page of its own,
  // and SQLite wrote most of the index again for every slice.
  queued.sort((a, b) => a.userId - b.userId || a.torrentId - b.torrentId);
  const completions = new Map<number, number>();
  let reply: WorkerReply;
  try {
    await writeInSlices(
      database.db,
      queued,
      request.flush,
      (slice) => {
        for (const [torrentId, count] of slice) completions.set(torrentId, (completions.get(torrentId) ?? 0) + count);
      },
      async () => {},
    );
    reply = { id: request.id, completions: [...completions] };
  } catch (error) {
    const unwritten = error instanceof UnwrittenTransfers ? packTransfers(error.unwritten) : request.packed;
    reply = { id: request.id, completions: [...completions], error: error instanceof Error ? error.message : String(error), unwritten };
  }
  parentPort!.postMessage(reply, 'unwritten' in reply ? [reply.unwritten.buffer] : []);
});
