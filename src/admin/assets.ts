// The admin pages' client side: htmx from node_modules (no CDN, no build
// step) under a versioned, immutable path, and our own small script and
// stylesheet with a content hash in their links so a deploy is seen at once.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const htmxDir = dirname(require.resolve('htmx.org/package.json'));
const htmxVersion = (JSON.parse(readFileSync(join(htmxDir, 'package.json'), 'utf8')) as { version: string }).version;
const htmxSource = readFileSync(join(htmxDir, 'dist', 'htmx.min.js'));
const ownDir = fileURLToPath(new URL('./assets/', import.meta.url));

function contentHash(file: string): string {
  return createHash('sha256')
    .update(readFileSync(join(ownDir, file)))
    .digest('hex')
    .slice(0, 12);
}

export const ADMIN_ASSETS = {
  htmx: `/assets/admin/htmx-${htmxVersion}.min.js`,
  script: `/assets/admin/admin.js?v=${contentHash('admin.js')}`,
  stylesheet: `/assets/admin/admin.css?v=${contentHash('admin.css')}`,
};

export async function adminAssets(app: FastifyInstance): Promise<void> {
  app.get(ADMIN_ASSETS.htmx, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(htmxSource),
  );
  await app.register(fastifyStatic, { root: ownDir, prefix: '/assets/admin/', decorateReply: false, maxAge: '1h', index: false });
}
