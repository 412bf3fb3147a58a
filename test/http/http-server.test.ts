// Every connection's time is bounded (issue 27, item 7): over a real socket,
// a client sending its body or its headers a byte at a time is cut at the
// configured bound with 408, an idle keep-alive connection is closed, and a
// request that arrives in time is answered. Short bounds (1-2 s) keep it quick.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { AVATAR_RULES } from '../../src/users/avatars/avatar-image.ts';
import { IMAGE_RULES } from '../../src/emoji/images/store.ts';
import { ConfigError, DEFAULT_TIMEOUTS, loadConfig } from '../../src/config.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';

const REQUEST_SECONDS = 2;
const HEADERS_SECONDS = 1;
const KEEP_ALIVE_SECONDS = 1;

/**
 * How long past its bound a connection may stay open before the test calls it
 * never cut. The server looks every second; a loaded machine delays timers by
 * seconds, never by this much. Without the bounds, connections stayed open for
 * good (the attack gave up after 130 s).
 */
const NEVER_CUT_MS = 30_000;

interface Drip {
  /** From connecting to the server closing the connection (or the test giving up). */
  elapsedMs: number;
  closedByServer: boolean;
  /**
   * The server reset the connection instead of closing it: it gave up with
   * bytes of ours still unread, which a loaded machine makes likely (the reset
   * can take its 408 with it, or come before this side saw `connect`).
   */
  reset: boolean;
  /** What the server sent. */
  answer: string;
  bytesSent: number;
}

/**
 * Connects, sends `opening`, then one `unit` every `everyMs` until the server
 * closes the connection, or `NEVER_CUT_MS` past `boundMs`.
 */
async function drip(port: number, opening: string, unit: string, everyMs: number, boundMs: number): Promise<Drip> {
  // Timed from before connecting: the server's bound starts when it accepts, which is later.
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  // A reset or a write after the server closed is the expected end, not a failure.
  let reset = false;
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
  });
  // Not events.once: it rejects on 'error', and a reset is an expected end here.
  const closing = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await Promise.race([new Promise<void>((resolve) => socket.once('connect', () => resolve())), closing]);
  let answer = '';
  socket.on('data', (chunk: string) => {
    answer += chunk;
  });
  let open = !socket.destroyed;
  const closed = closing.then(() => {
    open = false;
  });
  let bytesSent = 0;
  const send = (text: string) => {
    if (text === '' || !open || socket.destroyed) return;
    socket.write(text);
    bytesSent += Buffer.byteLength(text, 'latin1');
  };
  send(opening);
  while (open && performance.now() - started < boundMs + NEVER_CUT_MS) {
    await Promise.race([sleep(everyMs), closed]);
    send(unit);
  }
  const elapsedMs = performance.now() - started;
  const closedByServer = !open;
  socket.destroy();
  return { elapsedMs, closedByServer, reset, answer, bytesSent };
}

function postHead(contentLength: number): string {
  return `POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${contentLength}\r\n\r\n`;
}

describe('the default bounds', () => {
  it('fit the largest upload on a 128 kbit/s line, and cut a drip within minutes', () => {
    const config = loadConfig({});
    assert.deepEqual(config.timeouts, DEFAULT_TIMEOUTS);
    const largest = Math.max(AVATAR_RULES.maxBytes, IMAGE_RULES.sprites.maxBytes);
    // A multipart body carries the file and a few fields (token, name): 4 KiB is plenty.
    const seconds = (largest + 4096) / (128_000 / 8);
    assert.ok(config.timeouts.requestSeconds >= seconds, `a ${largest}-byte upload takes ${seconds.toFixed(0)} s at 128 kbit/s`);
    assert.ok(config.timeouts.requestSeconds <= 300, 'a drip is cut within five minutes');
    assert.ok(config.timeouts.headersSeconds <= 60);
    assert.ok(config.timeouts.keepAliveSeconds > 60, 'longer than the 60 s idle timeout of common proxies');
  });

  it('refuses a headers bound above the request bound, naming the variable', () => {
    const names = (variable: string, message: RegExp) => (error: unknown) =>
      error instanceof ConfigError && error.variable === variable && message.test(error.message);
    assert.throws(
      () => loadConfig({ REQUEST_TIMEOUT_SECONDS: '10', HEADERS_TIMEOUT_SECONDS: '20' }),
      names('HEADERS_TIMEOUT_SECONDS', /^HEADERS_TIMEOUT_SECONDS must not be greater than REQUEST_TIMEOUT_SECONDS/),
    );
    assert.equal(loadConfig({ REQUEST_TIMEOUT_SECONDS: '10' }).timeouts.headersSeconds, 10, 'the default headers bound shrinks with a shorter request bound');
    for (const [variable, value] of [
      ['REQUEST_TIMEOUT_SECONDS', '0'],
      ['HEADERS_TIMEOUT_SECONDS', 'x'],
      ['KEEP_ALIVE_TIMEOUT_SECONDS', '3601'],
    ] as const) {
      assert.throws(() => loadConfig({ [variable]: value }), names(variable, new RegExp(`^${variable} must be an integer`)));
    }
  });
});

describeEachDatabase('connection time bounds over a real socket', (db) => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await db.start({
      env: {
        REQUEST_TIMEOUT_SECONDS: String(REQUEST_SECONDS),
        HEADERS_TIMEOUT_SECONDS: String(HEADERS_SECONDS),
        KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_SECONDS),
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('cuts 50 clients sending a body a byte at a time at the request bound, with 408', async () => {
    const boundMs = REQUEST_SECONDS * 1000;
    const drips = await Promise.all(Array.from({ length: 50 }, () => drip(port, postHead(100_000), 'a', 100, boundMs)));
    for (const [i, result] of drips.entries()) {
      assert.ok(result.closedByServer, `client ${i} still open after ${result.elapsedMs.toFixed(0)} ms (${result.bytesSent} bytes sent)`);
      if (!result.reset || result.answer !== '') assert.match(result.answer, /^HTTP\/1\.1 408 /, `client ${i}`);
      assert.ok(result.elapsedMs >= boundMs - 50, `client ${i} cut after ${result.elapsedMs.toFixed(0)} ms, before the bound`);
    }
    assert.ok(drips.filter((result) => /^HTTP\/1\.1 408 /.test(result.answer)).length > 0, 'the clients are told why (408)');
  });

  it('cuts a client sending its headers a byte at a time at the headers bound, with 408', async () => {
    const boundMs = HEADERS_SECONDS * 1000;
    const result = await drip(port, 'GET /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'a', 100, boundMs);
    assert.ok(result.closedByServer, `still open after ${result.elapsedMs.toFixed(0)} ms`);
    assert.match(result.answer, /^HTTP\/1\.1 408 /);
    assert.ok(result.elapsedMs >= boundMs - 50);
  });

  it('cuts a client that connects and sends nothing', async () => {
    const result = await drip(port, '', '', 100, HEADERS_SECONDS * 1000);
    assert.ok(result.closedByServer, `still open after ${result.elapsedMs.toFixed(0)} ms`);
  });

  it('answers a body that arrives within the bound, however slowly', async () => {
    const body = new URLSearchParams({ _csrf: 'none', username: 'slow', password: 'typist' }).toString();
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.write(postHead(Buffer.byteLength(body)));
    for (const piece of body.match(/.{1,12}/g)!) {
      await sleep(50);
      socket.write(piece);
    }
    while (!/\r\n\r\n/.test(answer)) await once(socket, 'data');
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 403 /, 'read whole and judged (no token: 403), not cut');
  });

  it('closes an idle keep-alive connection after its bound', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    const closed = once(socket, 'close');
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    while (!/\r\n\r\n/.test(answer)) await once(socket, 'data');
    const answered = performance.now();
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /keep-alive/i);
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(KEEP_ALIVE_SECONDS * 1000 + NEVER_CUT_MS).then(() => 'open')]);
    socket.destroy();
    assert.equal(outcome, 'closed');
    assert.ok(performance.now() - answered >= KEEP_ALIVE_SECONDS * 1000 - 50);
  });
});
