import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// A Redis of the test's own, so it can be stopped and started again without
// touching the machine's shared one.
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
  client.on('error', () => {});
  for (let i = 0; i < 50; i++) {
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return child;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}

const hasRedisServer = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.on('error', () => resolve(false));
  probe.on('exit', (code) => resolve(code === 0));
});

describe('rate limits when Redis goes away and comes back', { skip: hasRedisServer ? false : 'redis-server is not installed' }, () => {
  let redis: ChildProcess | undefined;
  let t: TestApp | undefined;
  after(async () => {
    await t?.close();
    if (redis) await stopRedis(redis);
  });

  it('keeps serving during the outage and shares counters through Redis again afterwards', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    t = await startTestApp('sqlite', { env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_GUEST: '1000' } });
    const hello = () => t!.app.inject({ method: 'GET', url: '/api/hello', remoteAddress: '10.77.0.1' });
    const inspector = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });

    assert.equal((await hello()).statusCode, 200);
    await inspector.connect();
    assert.equal(await inspector.get('forum:api_guest:10.77.0.1'), '1', 'counted in Redis');
    inspector.disconnect();

    await stopRedis(redis);
    for (let i = 0; i < 3; i++) {
      const response = await hello();
      assert.equal(response.statusCode, 200, 'still served while Redis is down');
      assert.ok(response.headers['x-ratelimit-remaining'] !== undefined);
    }

    redis = await startRedis(port);
    // ioredis reconnects on its own (backoff up to 2 s).
    const again = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    await again.connect();
    let counted: string | null = null;
    for (let i = 0; i < 40 && counted === null; i++) {
      await hello();
      counted = await again.get('forum:api_guest:10.77.0.1');
      if (counted === null) await sleep(250);
    }
    again.disconnect();
    assert.ok(counted !== null, 'counting moved back to Redis');
  });
});
