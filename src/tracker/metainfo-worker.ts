// A thread of the .torrent checking pool (metainfo-pool.ts): parses, checks,
// rewrites and hashes one upload at a time, in the uploader's language, and
// answers with the facts or the refusal's sentence.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { asReader } from '../i18n/context.ts';
import { MetainfoError, parseTorrent } from './metainfo.ts';
import { packMetainfo, type ParseReply, type ParseRequest } from './metainfo-pool.ts';

// On Linux a thread's nice value is its own (setpriority on the calling thread): a parse yields the CPU to the
// event loop when the machine has no core to spare. Elsewhere it would be the whole process's, so it is left alone.
if (process.platform === 'linux') setPriority(10);

parentPort!.on('message', (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    const facts = asReader({ locale: request.locale, timeZone: 'UTC' }, () => parseTorrent(request.bytes, request.options));
    reply = { id: request.id, facts: packMetainfo(facts) };
  } catch (error) {
    reply =
      error instanceof MetainfoError
        ? { id: request.id, refusal: error.message }
        : { id: request.id, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply, 'facts' in reply ? [reply.facts.sizes.buffer, reply.facts.torrent.buffer] : []);
});
