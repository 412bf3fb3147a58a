import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { startTestApp } from './helpers/app.ts';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.deepEqual(config.database, { dialect: 'sqlite', path: './data/forum.db' });
    assert.equal(config.redisUrl, null);
    assert.equal(config.baseUrl, null);
    assert.equal(config.admin, null);
    assert.deepEqual(config.rateLimit, { authenticated: 60, guest: 20 });
    assert.equal(config.emojiCatalog, 'unicode');
    assert.equal(config.tokenTtlDays, 30);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.uploadDir, './data/uploads');
  });

  it('reads UPLOAD_DIR as a folder path', () => {
    assert.equal(loadConfig({ UPLOAD_DIR: '/var/lib/forum/uploads' }).uploadDir, '/var/lib/forum/uploads');
  });

  it('reads every variable of the runtime contract', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '9000',
      DATABASE_URL: 'postgres://forum:secret@db:5432/forum',
      REDIS_URL: 'redis://cache:6379',
      BASE_URL: 'https://forum.example.org/',
      ADMIN_USERNAME: 'root',
      ADMIN_PASSWORD: 'correct horse',
      ADMIN_EMAIL: 'root@example.org',
      RATE_LIMIT_AUTHENTICATED: '120',
      RATE_LIMIT_GUEST: '10',
      EMOJI_CATALOG: 'none',
      TOKEN_TTL_DAYS: '7',
      LOG_LEVEL: 'warn',
    });
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 9000);
    assert.deepEqual(config.database, { dialect: 'postgres', url: 'postgres://forum:secret@db:5432/forum' });
    assert.equal(config.redisUrl, 'redis://cache:6379');
    assert.equal(config.baseUrl, 'https://forum.example.org');
    assert.deepEqual(config.admin, { username: 'root', password: 'correct horse', email: 'root@example.org' });
    assert.deepEqual(config.rateLimit, { authenticated: 120, guest: 10 });
    assert.equal(config.emojiCatalog, 'none');
    assert.equal(config.tokenTtlDays, 7);
    assert.equal(config.logLevel, 'warn');
  });

  it('accepts sqlite::memory:', () => {
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database, { dialect: 'sqlite', path: ':memory:' });
  });

  const bad: Array<[string, Record<string, string>]> = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/forum' }],
    ['DATABASE_URL', { DATABASE_URL: 'sqlite:' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['BASE_URL', { BASE_URL: 'forum.example.org' }],
    ['RATE_LIMIT_GUEST', { RATE_LIMIT_GUEST: '0' }],
    ['RATE_LIMIT_AUTHENTICATED', { RATE_LIMIT_AUTHENTICATED: '1.5' }],
    ['EMOJI_CATALOG', { EMOJI_CATALOG: 'all' }],
    ['TOKEN_TTL_DAYS', { TOKEN_TTL_DAYS: '-1' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['ADMIN_PASSWORD', { ADMIN_USERNAME: 'root', ADMIN_EMAIL: 'root@example.org' }],
    ['ADMIN_USERNAME', { ADMIN_PASSWORD: 'secret123' }],
    ['UPLOAD_DIR', { UPLOAD_DIR: 's3://bucket/uploads' }],
    ['UPLOAD_DIR', { UPLOAD_DIR: './up\u0007loads' }],
  ];
  for (const [variable, env] of bad) {
    it(`rejects ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable));
    });
  }

  it('does not echo database credentials in its error', () => {
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/forum' }), (error: Error) => !error.message.includes('hunter2'));
  });
});

describe('start-up with an UPLOAD_DIR it cannot write to', () => {
  it('stops with a ConfigError naming UPLOAD_DIR', async () => {
    await assert.rejects(
      startTestApp('sqlite', { env: { UPLOAD_DIR: '/dev/null/uploads' } }),
      (error: unknown) => error instanceof ConfigError && error.variable === 'UPLOAD_DIR' && /^UPLOAD_DIR must be a folder the server can write to/.test(error.message),
    );
  });
});

describe('start-up with a bad configuration', () => {
  for (const [variable, value] of [['PORT', 'abc'], ['DATABASE_URL', 'mysql://localhost/forum']] as const) {
    it(`exits with code 1 and one line naming ${variable}`, () => {
      const result = spawnSync(process.execPath, ['src/main.ts'], {
        env: { ...process.env, [variable]: value },
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(result.status, 1);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', new RegExp(`^Invalid configuration: ${variable} `));
    });
  }
});
