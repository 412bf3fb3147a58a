import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, mailOrigin } from '../src/config.ts';
import { startTestApp } from './helpers/app.ts';
import { CHILD_PROCESS_MS } from './helpers/processes.ts';

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

  it('hashes passwords at cost 15 unless PASSWORD_HASH_COST says otherwise, never below 15 in production', () => {
    assert.equal(loadConfig({}).passwordHashCost, 15);
    assert.equal(loadConfig({ PASSWORD_HASH_COST: '10' }).passwordHashCost, 10);
    assert.equal(loadConfig({ PASSWORD_HASH_COST: '16', NODE_ENV: 'production' }).passwordHashCost, 16);
  });

  it('reads ALLOWED_HOSTS as host names with optional ports, lower case', () => {
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.deepEqual(loadConfig({ ALLOWED_HOSTS: 'Forum.Example.org, 10.0.0.5:8080,[::1]:80 ,forum_app' }).allowedHosts, [
      'forum.example.org',
      '10.0.0.5:8080',
      '[::1]:80',
      'forum_app',
    ]);
  });

  it('requires BASE_URL in production when mail goes out through SMTP', () => {
    const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://mail.example.org:25' };
    assert.throws(
      () => loadConfig(production),
      (error: unknown) => error instanceof ConfigError && error.variable === 'BASE_URL' && /NODE_ENV=production and SMTP_URL/.test(error.message),
    );
    assert.equal(loadConfig({ ...production, BASE_URL: 'https://forum.example.org' }).baseUrl, 'https://forum.example.org');
    assert.equal(loadConfig({ SMTP_URL: 'smtp://mail.example.org:25' }).baseUrl, null, 'outside production the listen address will do');
  });

  it('builds mail links from BASE_URL, else from the listen address (localhost for a wildcard)', () => {
    assert.equal(mailOrigin(loadConfig({ BASE_URL: 'https://forum.example.org/', HOST: '0.0.0.0' })), 'https://forum.example.org');
    assert.equal(mailOrigin(loadConfig({ HOST: '10.0.0.5', PORT: '9000' })), 'http://10.0.0.5:9000');
    assert.equal(mailOrigin(loadConfig({ HOST: '0.0.0.0' })), 'http://localhost:8080');
    assert.equal(mailOrigin(loadConfig({ HOST: '::1', PORT: '81' })), 'http://[::1]:81');
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
    ['PASSWORD_HASH_COST', { PASSWORD_HASH_COST: '9' }],
    ['PASSWORD_HASH_COST', { PASSWORD_HASH_COST: '21' }],
    ['PASSWORD_HASH_COST', { PASSWORD_HASH_COST: '12', NODE_ENV: 'production' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'https://forum.example.org' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'forum.example.org,*.example.org' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'forum.example.org:99999' }],
  ];
  for (const [variable, env] of bad) {
    it(`rejects ${JSON.stringify(env)} naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable),
      );
    });
  }

  it('does not echo database credentials in its error', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@db/forum' }),
      (error: Error) => !error.message.includes('hunter2'),
    );
  });
});

describe('start-up with an UPLOAD_DIR it cannot write to', () => {
  it('stops with a ConfigError naming UPLOAD_DIR', async () => {
    await assert.rejects(
      startTestApp('sqlite', { env: { UPLOAD_DIR: '/dev/null/uploads' } }),
      (error: unknown) =>
        error instanceof ConfigError && error.variable === 'UPLOAD_DIR' && /^UPLOAD_DIR must be a folder the server can write to/.test(error.message),
    );
  });
});

describe('start-up with a bad configuration', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['PORT', { PORT: 'abc' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/forum' }],
    ['BASE_URL', { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:1', BASE_URL: '' }],
  ];
  for (const [variable, env] of cases) {
    it(`exits with code 1 and one line naming ${variable}`, () => {
      const result = spawnSync(process.execPath, ['src/main.ts'], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: CHILD_PROCESS_MS,
      });
      assert.equal(result.status, 1);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', new RegExp(`^Invalid configuration: ${variable} `));
    });
  }
});

describe('production install (npm ci --omit=dev && npm start)', () => {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('brings Node.js 24 as a runtime dependency, and npm start runs on it', () => {
    assert.match(manifest.dependencies['node'] ?? '', /^\^24\./);
    assert.equal(manifest.devDependencies['node'], undefined);
    assert.match(manifest.scripts['start'] ?? '', /^node src\/main\.ts$/, 'plain `node`: npm puts node_modules/.bin first on PATH');
  });

  it('imports at run time only packages that a production install has', () => {
    const files = readdirSync(new URL('../src/', import.meta.url), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const missing = new Set<string>();
    const seen = new Set<string>();
    for (const file of files) {
      const source = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
      for (const match of source.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'([^'.][^']*)'|^import\s+'([^'.][^']*)'/gm)) {
        const specifier = match[1] ?? match[2]!;
        if (specifier.startsWith('node:')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        seen.add(name);
        if (manifest.dependencies[name] === undefined) missing.add(`${name} (${file})`);
      }
    }
    assert.ok(
      ['fastify', 'helmet', 'kysely', 'nodemailer'].every((name) => seen.has(name)),
      `the scan finds imports: ${[...seen].join(', ')}`,
    );
    assert.deepEqual([...missing], []);
  });
});
