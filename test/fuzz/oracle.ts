// Sends one fuzzed request to the app and judges the answer:
//   - never a status of 500 or more;
//   - never slower than 1 s (a slow answer is sent once more and must be slow
//     again, and by our own work, to count: see isSlow);
//   - a refused (4xx) write changes no row of any table;
//   - a redirect stays on this site, also once a proxy decoded its path (redirect-targets.ts);
//   - an id spelt in a non-canonical way (`+1`, `01`) is refused, not read as the canonical one;
//   - no NUL character reaches a stored row (SQLite can store one; PostgreSQL answers 500);
//   - a forged Host header never becomes the origin of a link (page, JSON, redirect, mail);
//   - every answer carries X-Content-Type-Options: nosniff, every HTML page a
//     Content-Security-Policy and a framing rule (frame-ancestors or X-Frame-Options).
import type { TestApp } from '../helpers/app.ts';
import { threadCpuMs } from '../helpers/cpu.ts';
import { rowsWithNul, snapshotDifferences, snapshotTables, type Snapshot } from '../helpers/table-snapshot.ts';
import { staysOnSite } from './redirect-targets.ts';
import type { Caller, World } from './world.ts';

export const SLOW_MS = 1000;
/** Past this, an answer is slow whatever the reason. */
const STALL_MS = 5 * SLOW_MS;

/**
 * Slow, however busy the machine: the request cost over 1 s of CPU time on the
 * thread that runs the app (its event loop: a stall of our own, which a busy
 * machine stretches in wall time but never makes cost more), or it took over
 * 5 s of wall time whatever the cause (a query the database never finishes).
 * The process's CPU time would count the garbage collector's and libuv's
 * threads too, and its share of wall time falls as other work competes.
 */
function isSlow(answer: { ms: number; cpuMs: number }): boolean {
  return answer.ms >= STALL_MS || answer.cpuMs >= SLOW_MS;
}
/** FUZZ_LOG=1: one line per request. */
const LOG = process.env['FUZZ_LOG'] === '1';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface FuzzRequest {
  method: string;
  url: string;
  caller: Caller;
  headers: Record<string, string>;
  payload?: string | Buffer | undefined;
  /** What the payload is, for the report. */
  bodyKind?: string;
  remoteAddress: string;
  /** Set when the request must be refused (>= 400) whatever the caller: why. */
  mustRefuse?: string | undefined;
}

export interface Outcome {
  status: number;
  ms: number;
}

/** The worst answers seen, for the report at the end of a run. */
export class Stats {
  requests = 0;
  refusedWrites = 0;
  readonly statuses = new Map<number, number>();
  slowest: Array<{ ms: number; what: string }> = [];

  record(request: FuzzRequest, outcome: Outcome): void {
    this.requests += 1;
    this.statuses.set(outcome.status, (this.statuses.get(outcome.status) ?? 0) + 1);
    this.slowest.push({ ms: outcome.ms, what: `${request.method} ${short(request.url, 80)}${request.bodyKind === undefined ? '' : ` (${request.bodyKind})`}` });
    this.slowest.sort((a, b) => b.ms - a.ms);
    this.slowest.length = Math.min(this.slowest.length, 5);
  }

  summary(): string {
    const statuses = [...this.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    return `${this.requests} requests (${this.refusedWrites} refused writes checked row by row); statuses ${statuses}; slowest ${this.slowest.map((s) => `${s.ms.toFixed(0)} ms ${s.what}`).join(', ')}`;
  }
}

export class FuzzFailure extends Error {
  /** What went wrong, without the input: failures of one kind are reported once. */
  readonly kind: string;
  constructor(kind: string, request: FuzzRequest, details: string) {
    super(`${kind}\n  request: ${describeRequest(request)}\n  ${details}`);
    this.name = 'FuzzFailure';
    this.kind = kind;
  }
}

/** Everything one request got wrong. */
export class FuzzFailures extends Error {
  readonly failures: FuzzFailure[];
  constructor(failures: FuzzFailure[]) {
    super(failures.map((failure) => failure.message).join('\n\n'));
    this.name = 'FuzzFailures';
    this.failures = failures;
  }
}

export class Oracle {
  readonly #t: TestApp;
  readonly #world: World;
  readonly stats = new Stats();
  /** The state after the last write, while nothing else has run since. */
  #known: Snapshot | undefined;

  constructor(t: TestApp, world: World) {
    this.#t = t;
    this.#world = world;
  }

  async send(request: FuzzRequest): Promise<Outcome> {
    const write = WRITE_METHODS.has(request.method);
    let before: Snapshot | undefined;
    if (write) {
      await this.#t.services.topicViews.flush();
      before = this.#known ?? (await snapshotTables(this.#t));
    }
    this.#known = undefined;

    const first = await this.#inject(request);
    const failures: FuzzFailure[] = [];
    const { cpuMs } = first;
    let { status, body, headers, ms } = first;
    if (status < 500 && isSlow(first)) {
      // A refused write or a read is the same request when sent again; a write that went through is not.
      const replayable = !write || (status >= 400 && status < 500);
      const again = replayable ? await this.#inject(request) : first;
      if (isSlow(again)) {
        const timing = replayable
          ? `answered ${status} in ${ms.toFixed(0)} ms, and ${again.status} in ${again.ms.toFixed(0)} ms (${again.cpuMs.toFixed(0)} ms of CPU) when sent again`
          : `answered ${status} in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms of CPU)`;
        failures.push(new FuzzFailure(`slower than ${SLOW_MS} ms`, request, `${timing}${this.#rulesNote()}`));
      }
      ({ status, body, headers, ms } = again);
    }
    const outcome = { status, ms };
    this.stats.record(request, outcome);
    if (LOG)
      console.log(
        `${status} ${ms.toFixed(0).padStart(5)} ms ${request.method} ${short(request.url, 100)} as ${request.caller.name} ${request.bodyKind ?? ''} ${status >= 400 ? short(visibleText(body), 200) : ''}`,
      );
    // A Host header is named in the kind: malformed ones fail everywhere and must not hide other 5xx.
    if (status >= 500)
      failures.push(
        new FuzzFailure(`status ${status}${request.headers['host'] === undefined ? '' : ' with a Host header'}`, request, `response: ${short(body, 600)}`),
      );
    const location = headers['location'];
    // A guard that sends the caller to the login page refuses as surely as a 403 (the login form itself excepted).
    const refused =
      (status >= 400 && status < 500) ||
      (status >= 300 && status < 400 && typeof location === 'string' && location.startsWith('/login/') && !request.url.startsWith('/login/'));
    if (status >= 300 && status < 400) {
      if (typeof location === 'string' && !staysOnSite(location))
        failures.push(new FuzzFailure('redirect off this site', request, `${status} Location: ${short(location, 300)}`));
    }
    const missing = missingSecurityHeaders(headers);
    if (missing.length > 0) failures.push(new FuzzFailure(`no ${missing.join(', ')} header`, request, `${status} ${String(headers['content-type'] ?? '')}`));
    const forged = forgedHost(request);
    if (forged !== undefined) {
      const link = [typeof location === 'string' ? location : '', body].find((text) => text.includes(`//${forged}`));
      if (link !== undefined)
        failures.push(
          new FuzzFailure(
            'Host header copied into a link',
            request,
            `Host ${JSON.stringify(request.headers['host'])} appears as //${forged} in: ${short(excerptAround(link, `//${forged}`), 300)}`,
          ),
        );
    }
    if (request.mustRefuse !== undefined && !refused) {
      failures.push(
        new FuzzFailure(
          `accepted a non-canonical ${request.mustRefuse.startsWith('path') ? 'path id' : 'integer in the query'}`,
          request,
          `${request.mustRefuse}; answered ${status}: ${short(body, 300)}`,
        ),
      );
    }

    if (write && before !== undefined) {
      const after = await snapshotTables(this.#t);
      if (refused) {
        this.stats.refusedWrites += 1;
        const changes = snapshotDifferences(before, after);
        if (changes.length > 0)
          failures.push(
            new FuzzFailure(`changed rows although refused (${status})`, request, `response: ${short(body, 300)}\n  changes:\n    ${changes.join('\n    ')}`),
          );
      }
      const newNul = rowsWithNul(after).filter((row) => !rowsWithNul(before).includes(row));
      if (newNul.length > 0) failures.push(new FuzzFailure(`stored a NUL character (${status})`, request, `rows:\n    ${newNul.slice(0, 3).join('\n    ')}`));
      if (!refused) {
        const mail = forged === undefined ? undefined : await this.#mailLinkingTo(forged);
        if (mail !== undefined) failures.push(new FuzzFailure('Host header copied into a mail link', request, `mail: ${short(mail, 300)}`));
        await this.#world.restoreMembers();
      } else if (failures.length === 0) this.#known = after;
    }
    if (failures.length > 0) throw new FuzzFailures(failures);
    return outcome;
  }

  #mailsSeen = 0;

  /** A mail written since the last look whose text links to `host`. */
  async #mailLinkingTo(host: string): Promise<string | undefined> {
    const mails = await this.#t.database.db.selectFrom('outbox').select(['id', 'body']).where('id', '>', this.#mailsSeen).orderBy('id').execute();
    this.#mailsSeen = mails.at(-1)?.id ?? this.#mailsSeen;
    const mail = mails.find((row) => row.body.includes(`//${host}`));
    return mail === undefined ? undefined : excerptAround(mail.body, `//${host}`);
  }

  async #inject(request: FuzzRequest): Promise<{ status: number; body: string; headers: Record<string, unknown>; ms: number; cpuMs: number }> {
    const cpu = threadCpuMs();
    const started = performance.now();
    const response = await this.#t.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...request.caller.headers, ...request.headers },
      cookies: request.headers['cookie'] === undefined ? request.caller.cookies : {},
      remoteAddress: request.remoteAddress,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    const ms = performance.now() - started;
    return { status: response.statusCode, body: response.body, headers: response.headers, ms, cpuMs: threadCpuMs() - cpu };
  }

  #rulesNote(): string {
    return this.#world.acceptedRules.length === 0
      ? ''
      : `\n  (word-filter regex rules in force from the start: ${this.#world.acceptedRules.map((rule) => JSON.stringify(rule)).join(', ')})`;
  }
}

/** The host a forged Host header names, when the request itself never mentions it otherwise (then any link to it came from the header). */
function forgedHost(request: FuzzRequest): string | undefined {
  const host = request.headers['host'];
  if (host === undefined || !/evil\.example/.test(host)) return undefined;
  const payload = request.payload === undefined ? '' : Buffer.isBuffer(request.payload) ? request.payload.toString('latin1') : request.payload;
  if (/evil\.example/.test(decodeURIComponentSafe(request.url)) || /evil\.example/.test(payload)) return undefined;
  return 'evil.example';
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function excerptAround(text: string, needle: string): string {
  const at = text.indexOf(needle);
  return text.slice(Math.max(0, at - 80), at + needle.length + 80);
}

function missingSecurityHeaders(headers: Record<string, unknown>): string[] {
  const missing: string[] = [];
  if (String(headers['x-content-type-options'] ?? '').toLowerCase() !== 'nosniff') missing.push('X-Content-Type-Options: nosniff');
  if (String(headers['content-type'] ?? '').startsWith('text/html')) {
    const policy = String(headers['content-security-policy'] ?? '');
    if (policy === '') missing.push('Content-Security-Policy');
    if (!/frame-ancestors/.test(policy) && headers['x-frame-options'] === undefined) missing.push('X-Frame-Options or frame-ancestors');
  }
  return missing;
}

/** What a reader sees of an error page (its <main>), or the JSON body. */
function visibleText(body: string): string {
  return body
    .replace(/[\s\S]*<main[^>]*>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

export function short(text: string, length: number): string {
  const escaped = JSON.stringify(text.length > length ? text.slice(0, length) : text);
  return text.length > length ? `${escaped}… (${text.length} chars)` : escaped;
}

function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : `\n  body (${request.bodyKind ?? 'raw'}): ${short(Buffer.isBuffer(request.payload) ? request.payload.toString('latin1') : request.payload, 400)}`;
  const headers = Object.keys(request.headers).length === 0 ? '' : `\n  headers: ${short(JSON.stringify(request.headers), 400)}`;
  return `${request.method} ${short(request.url, 400)} as ${request.caller.name}${headers}${payload}`;
}
