// The fuzz oracle itself: each of its rules must catch what it is for, or a
// green fuzz run would prove nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { threadCpuMs } from '../helpers/cpu.ts';
import { createForum } from '../helpers/forum.ts';
import { FuzzFailures, Oracle, SLOW_MS, type FuzzRequest } from './oracle.ts';
import { World } from './world.ts';

describeEachDatabase('fuzz oracle', ({ start, kind }) => {
  let t: TestApp;
  let world: World;
  let oracle: Oracle;

  before(async () => {
    // evil.example is an allowed host here, so the link oracle is judged on what the route does.
    t = await start({ env: { ALLOWED_HOSTS: 'evil.example' } });
    // Routes that misbehave on purpose, registered before the app is ready.
    t.app.get('/__fuzz/boom', async () => {
      throw new Error('boom');
    });
    t.app.get('/__fuzz/stall', async () => {
      // Busy for over a second of the event loop's CPU time, the way a runaway regular expression is.
      const start = threadCpuMs();
      while (threadCpuMs() - start < SLOW_MS + 50);
      return { ok: true };
    });
    t.app.get('/__fuzz/wait', async () => {
      await sleep(SLOW_MS + 50);
      return { ok: true };
    });
    t.app.post('/__fuzz/refuse-after-write', async (_request, reply) => {
      await createForum(t, `Written anyway ${Math.random()}`);
      return reply.code(422).send({ message: 'refused', errors: {} });
    });
    t.app.post('/__fuzz/refuse', async (_request, reply) => reply.code(422).send({ message: 'refused', errors: {} }));
    t.app.get('/__fuzz/away', async (_request, reply) => reply.redirect('/\t/evil.example/', 303));
    t.app.get('/__fuzz/away-normalised', async (_request, reply) => reply.redirect('//evil.example/', 303));
    t.app.get('/__fuzz/away-encoded', async (_request, reply) => reply.redirect('/%2F/evil.example/', 303));
    t.app.get('/__fuzz/home', async (_request, reply) => reply.redirect('/forum/x.1/', 303));
    t.app.post('/__fuzz/nul', async (_request, reply) => {
      await createForum(t, 'Nul\u0000name');
      return reply.code(201).send({});
    });
    const strip = async (_request: unknown, reply: { removeHeader(name: string): void }, payload: unknown) => {
      for (const name of ['content-security-policy', 'x-content-type-options', 'x-frame-options']) reply.removeHeader(name);
      return payload;
    };
    t.app.get('/__fuzz/bare', { onSend: strip }, async (_request, reply) => reply.type('text/html').send('<p>bare</p>'));
    t.app.get('/__fuzz/guarded', async (_request, reply) =>
      reply
        .type('text/html')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'self'; frame-ancestors 'none'")
        .send('<p>guarded</p>'),
    );
    t.app.get('/__fuzz/link', async (request, reply) => reply.type('application/json').send({ url: `http://${request.headers.host ?? ''}/x` }));
    world = await World.build(t);
    oracle = new Oracle(t, world);
  });
  after(() => t.close());

  function request(method: string, url: string, extra: Partial<FuzzRequest> = {}): FuzzRequest {
    // An admin's token: no guard or CSRF check stands between these requests and the routes.
    return { method, url, caller: world.callers().find((caller) => caller.name === 'admin token')!, headers: {}, remoteAddress: '127.0.0.1', ...extra };
  }

  /** The kinds of failure the oracle finds, except missing security headers (judged on their own below). */
  async function failureOf(sent: FuzzRequest): Promise<string> {
    try {
      await oracle.send(sent);
    } catch (error) {
      if (!(error instanceof FuzzFailures)) throw error;
      const kinds = error.failures.map((failure) => failure.kind).filter((kind) => !kind.endsWith(' header'));
      if (kinds.length > 0) return kinds.join('; ');
    }
    return 'no failure';
  }

  it('passes an ordinary read and a refused write that changes nothing', async () => {
    assert.equal(await failureOf(request('GET', '/api/hello')), 'no failure');
    assert.equal(await failureOf(request('POST', '/__fuzz/refuse')), 'no failure');
  });

  it('fails on a 500', async () => {
    assert.equal(await failureOf(request('GET', '/__fuzz/boom')), 'status 500');
  });

  it('fails on an answer slower than 1 s of our own work (twice in a row)', async () => {
    assert.equal(await failureOf(request('GET', '/__fuzz/stall')), `slower than ${SLOW_MS} ms`);
  });

  it('does not count a 1 s wait that costs no CPU (what a machine busy with other work looks like)', async () => {
    assert.equal(await failureOf(request('GET', '/__fuzz/wait')), 'no failure');
  });

  it('fails when a refused write changed a row', async () => {
    assert.equal(await failureOf(request('POST', '/__fuzz/refuse-after-write')), 'changed rows although refused (422)');
  });

  it('fails on a redirect off the site, not on one within it', async () => {
    assert.equal(await failureOf(request('GET', '/__fuzz/away')), 'redirect off this site');
    assert.equal(await failureOf(request('GET', '/__fuzz/away-normalised')), 'redirect off this site');
    assert.equal(await failureOf(request('GET', '/__fuzz/away-encoded')), 'redirect off this site', 'another host once a proxy decodes the path');
    assert.equal(await failureOf(request('GET', '/__fuzz/home')), 'no failure');
  });

  it('fails when an input that must be refused is accepted', async () => {
    assert.equal(await failureOf(request('GET', '/api/hello', { mustRefuse: 'path parameter id "01" is not canonical' })), 'accepted a non-canonical path id');
  });

  it('fails on a forged Host header copied into a link', async () => {
    assert.equal(await failureOf(request('GET', '/__fuzz/link', { headers: { host: 'evil.example' } })), 'Host header copied into a link');
    assert.equal(await failureOf(request('GET', '/__fuzz/link')), 'no failure');
  });

  it('fails on a page without security headers, not on one with them', async () => {
    const headerFailures = async (url: string) => {
      try {
        await oracle.send(request('GET', url));
        return [];
      } catch (error) {
        if (!(error instanceof FuzzFailures)) throw error;
        return error.failures.map((failure) => failure.kind);
      }
    };
    assert.deepEqual(await headerFailures('/__fuzz/bare'), [
      'no X-Content-Type-Options: nosniff, Content-Security-Policy, X-Frame-Options or frame-ancestors header',
    ]);
    assert.deepEqual(await headerFailures('/__fuzz/guarded'), []);
  });

  if (kind === 'sqlite') {
    it('fails when a NUL character was stored', async () => {
      assert.equal(await failureOf(request('POST', '/__fuzz/nul')), 'stored a NUL character (201)');
    });
  }
});

describe('fuzz settings', () => {
  it('uses a fixed seed unless FUZZ_SEED is set', async () => {
    const { FUZZ_SEED } = await import('./settings.ts');
    assert.equal(FUZZ_SEED, Number(process.env['FUZZ_SEED'] ?? 20261123));
  });
});
