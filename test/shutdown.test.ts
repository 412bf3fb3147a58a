import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { closeGracefully } from '../src/shutdown.ts';
import { startTestApp } from './helpers/app.ts';
import { createTestDatabase } from './helpers/databases.ts';
import { CHILD_PROCESS_MS } from './helpers/processes.ts';

describe('graceful shutdown', () => {
  it('finishes a request in flight, refuses new connections, and closes the database', async () => {
    const t = await startTestApp('sqlite');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    t.app.get('/api/test/slow', async () => {
      entered();
      await released;
      return { done: true };
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    const base = `http://127.0.0.1:${address.port}`;

    const inFlight = fetch(`${base}/api/test/slow`).then(async (response) => ({ status: response.status, body: await response.json() }));
    await handlerEntered;
    const closing = closeGracefully(t.app, 5000);
    while (t.app.server.listening) await sleep(10);
    await assert.rejects(fetch(`${base}/api/hello`), 'new connections are refused while draining');
    release();

    assert.deepEqual(await inFlight, { status: 200, body: { done: true } });
    assert.equal(await closing, true);
    await assert.rejects(t.database.ping(), 'the database is closed');
    await t.testDatabase.drop();
  });

  it('gives up at the deadline when a request never ends', async () => {
    const t = await startTestApp('sqlite');
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    t.app.get('/api/test/stuck', () => {
      entered();
      return new Promise(() => {});
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    const stuck = fetch(`http://127.0.0.1:${address.port}/api/test/stuck`).catch(() => null);
    await handlerEntered;
    const started = Date.now();
    assert.equal(await closeGracefully(t.app, 300), false);
    assert.ok(Date.now() - started < 2000);
    t.app.server.closeAllConnections();
    await stuck;
    await t.testDatabase.drop();
  });

  it('the server process exits with code 0 on SIGTERM: drained before its deadline', async () => {
    const database = await createTestDatabase('sqlite', { sqliteFile: true });
    const child = spawn(process.execPath, ['src/main.ts'], {
      env: {
        ...process.env,
        PORT: '0',
        DATABASE_URL: database.url,
        UPLOAD_DIR: `${database.url.slice('sqlite:'.length)}.uploads`,
        EMOJI_CATALOG: 'none',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), CHILD_PROCESS_MS);
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('Server listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      child.kill('SIGTERM');
      // Code 0 is the server's own word that it closed everything within SHUTDOWN_DEADLINE_MS (1 when the deadline passed).
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    } finally {
      child.kill('SIGKILL');
      await database.drop();
    }
  });
});
