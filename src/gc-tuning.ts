// Imported first by main.ts, before any other module allocates.
//
// V8 "pretenures" objects from an allocation site (allocates them straight
// in the old generation) once a young-generation collection finds most of
// that site's objects still alive. In this service that decision misfires in
// about half of all starts: the sites of per-request objects (Node's
// IncomingMessage/ServerResponse, Fastify's Request/Reply, the request's
// logger) get pretenured, every request's garbage then waits for a full
// collection, and CPU per request nearly doubles for the life of the process
// (GET /api/hello: ~47 µs instead of ~27 µs; minor GC 6-8 µs instead of
// 0.5 µs per request). Without pretenuring, runs are consistently the fast
// kind. Measurements: bench/RESULTS.md.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
