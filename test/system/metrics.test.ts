import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { MetricsRegistry } from '../../src/system/metrics.ts';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { announceUrl, peerId, registerTorrent, scrapeUrl, trackerGet, trackerUser } from '../helpers/tracker.ts';

const TOKEN = 'scrape-me-0123456789abcdef';

/** The value of the one sample line named exactly `series` (name plus labels). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeEachDatabase('GET /metrics', (db) => {
  let t: TestApp;
  before(async () => {
    t = await db.start();
  });
  after(() => t.close());

  const scrape = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    return response;
  };

  it('answers Prometheus text to this machine: requests by route pattern and status, with latency', async () => {
    const before = sample((await scrape()).body, 'http_requests_total{method="GET",route="/api/hello",status="200"}') ?? 0;
    for (let i = 0; i < 3; i += 1) await t.app.inject({ method: 'GET', url: '/api/hello' });
    const response = await scrape();
    assert.match(response.headers['content-type'] ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(response.headers['cache-control'], 'no-store');
    const text = response.body;
    assert.equal(sample(text, 'http_requests_total{method="GET",route="/api/hello",status="200"}'), before + 3);
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    const count = sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/hello"}');
    assert.equal(count, before + 3);
    assert.equal(sample(text, 'http_request_duration_seconds_bucket{method="GET",route="/api/hello",le="+Inf"}'), count);
  });

  it('labels by route pattern, never by the URL asked for, and counts unknown paths as "unmatched"', async () => {
    await t.app.inject({ method: 'GET', url: '/api/emoji/emojis/123456' });
    await t.app.inject({ method: 'GET', url: '/api/emoji/emojis/654321' });
    await t.app.inject({ method: 'GET', url: '/no/such/place/here' });
    const text = (await scrape()).body;
    assert.equal(sample(text, 'http_requests_total{method="GET",route="/api/emoji/emojis/:id",status="404"}'), 2);
    assert.doesNotMatch(text, /123456|no\/such\/place/);
    assert.ok((sample(text, 'http_requests_total{method="GET",route="unmatched",status="404"}') ?? 0) >= 1);
  });

  it('reports database and process figures', async () => {
    await t.app.inject({ method: 'GET', url: '/api/emoji/categories' });
    const text = (await scrape()).body;
    assert.ok((sample(text, 'db_queries_total') ?? 0) > 0);
    assert.equal(sample(text, 'db_query_errors_total'), 0);
    assert.equal(sample(text, 'db_up'), 1);
    assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 1e6);
    assert.ok((sample(text, 'process_cpu_seconds_total') ?? 0) > 0);
    assert.match(text, /^forum_info\{version="[^"]+",node="[^"]+"\} 1$/m);
    if (db.kind === 'postgres') assert.ok((sample(text, 'db_pool_connections{state="total"}') ?? 0) >= 1);
    else assert.doesNotMatch(text, /db_pool_connections/);
  });

  it('reports the tracker: announces and scrapes by outcome, peers by role, torrents, the accounting queue', async () => {
    const before = (await scrape()).body;
    const okBefore = sample(before, 'tracker_announces_total{result="ok"}') ?? 0;
    const refusedBefore = sample(before, 'tracker_announces_total{result="refused"}') ?? 0;
    const torrent = await registerTorrent(t);
    const seeder = await trackerUser(t);
    await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 0, event: 'started' }));
    await trackerGet(t, announceUrl({ passkey: seeder.passkey, infoHash: torrent.v1!, peerId: peerId(), left: 10, event: 'started', uploaded: 0 }));
    await trackerGet(t, announceUrl({ passkey: 'Z'.repeat(20), infoHash: torrent.v1!, peerId: peerId() }));
    await trackerGet(t, scrapeUrl(seeder.passkey, [torrent.v1!]));
    const text = (await scrape()).body;
    assert.match(text, /# TYPE tracker_announces_total counter/);
    assert.equal(sample(text, 'tracker_announces_total{result="ok"}'), okBefore + 2);
    assert.equal(sample(text, 'tracker_announces_total{result="refused"}'), refusedBefore + 1);
    assert.ok((sample(text, 'tracker_scrapes_total{result="ok"}') ?? 0) >= 1);
    assert.ok((sample(text, 'tracker_peers{role="seeder"}') ?? 0) >= 1);
    assert.ok((sample(text, 'tracker_peers{role="leecher"}') ?? 0) >= 1);
    const torrents = await t.database.db
      .selectFrom('torrents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(sample(text, 'tracker_torrents'), Number(torrents.n));
    assert.equal(sample(text, 'tracker_accounting_pending'), t.services.tracker.accounting.pending);
    assert.ok(t.services.tracker.accounting.pending >= 1, 'the two announces wait for the next flush');
    await t.services.tracker.accounting.flush();
    const flushed = (await scrape()).body;
    assert.equal(sample(flushed, 'tracker_accounting_pending'), 0);
    assert.ok((sample(flushed, 'tracker_accounting_flushes_total{result="written"}') ?? 0) >= 1);
  });

  it('shows figures other modules add to the registry', async () => {
    t.metrics.gauge('test_swarm_peers', 'Peers a module reports', () => [{ labels: { kind: 'seeder' }, value: 7 }]);
    assert.equal(sample((await scrape()).body, 'test_swarm_peers{kind="seeder"}'), 7);
  });

  it('is not there (404) for a client on another machine', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    assert.equal(response.statusCode, 404);
    assert.doesNotMatch(response.body, /http_requests_total/);
  });

  it('is not there (404) for a request relayed by a proxy on this machine', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(response.statusCode, 404);
  });

  describe('behind a trusted proxy (TRUST_PROXY=true)', () => {
    let proxied: TestApp;
    before(async () => {
      proxied = await db.start({ env: { TRUST_PROXY: 'true' } });
    });
    after(() => proxied.close());

    it('judges by the client X-Forwarded-For names', async () => {
      const outside = await proxied.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
      assert.equal(outside.statusCode, 404);
      const inside = await proxied.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(inside.statusCode, 200);
    });
  });

  describe('with METRICS_TOKEN', () => {
    let guarded: TestApp;
    before(async () => {
      guarded = await db.start({ env: { METRICS_TOKEN: TOKEN } });
    });
    after(() => guarded.close());

    it('asks for the token as Bearer, from anywhere, this machine included (401 in the envelope)', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }]) {
        const response = await guarded.app.inject({ method: 'GET', url: '/metrics', headers });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().error.code, 'UNAUTHENTICATED');
      }
    });

    it('answers with the token, wherever the scraper is', async () => {
      const response = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '198.51.100.7',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /# TYPE http_requests_total counter/);
    });
  });
});

describe('METRICS_TOKEN', () => {
  it('is unset by default, kept as given, and stops start-up when short or with spaces', () => {
    assert.equal(loadConfig({}).metricsToken, null);
    assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
    for (const bad of ['short', 'has a space in it, long enough']) {
      assert.throws(
        () => loadConfig({ METRICS_TOKEN: bad }),
        (error: unknown) => error instanceof ConfigError && error.variable === 'METRICS_TOKEN',
      );
    }
  });
});

describe('metrics registry', () => {
  it('writes histograms with cumulative buckets, sum and count', async () => {
    const registry = new MetricsRegistry();
    const histogram = registry.histogram('job_seconds', 'Job time', ['job'], [0.1, 1]);
    for (const value of [0.05, 0.5, 0.7, 3]) histogram.observe(['a"b'], value);
    const text = await registry.render();
    assert.match(text, /# HELP job_seconds Job time\n# TYPE job_seconds histogram\n/);
    assert.equal(sample(text, 'job_seconds_bucket{job="a\\"b",le="0.1"}'), 1);
    assert.equal(sample(text, 'job_seconds_bucket{job="a\\"b",le="1"}'), 3);
    assert.equal(sample(text, 'job_seconds_bucket{job="a\\"b",le="+Inf"}'), 4);
    assert.equal(sample(text, 'job_seconds_sum{job="a\\"b"}'), 4.25);
    assert.equal(sample(text, 'job_seconds_count{job="a\\"b"}'), 4);
  });

  it('refuses a name twice, and keeps serving when one figure cannot be read', async () => {
    const registry = new MetricsRegistry();
    registry.gauge('ok_figure', 'Readable', () => 1);
    assert.throws(() => registry.gauge('ok_figure', 'Again', () => 2), /registered twice/);
    registry.gauge('broken_figure', 'Throws', () => {
      throw new Error('away');
    });
    const text = await registry.render();
    assert.equal(sample(text, 'ok_figure'), 1);
    assert.doesNotMatch(text, /broken_figure/);
  });
});
