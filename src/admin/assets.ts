// The admin pages' client side: htmx from node_modules (no CDN, no build
// step) and our own small script and stylesheet, all under fingerprinted
// names (http/fingerprinted-assets.ts), so a deploy is seen at once and
// browsers keep each name for a year.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { FingerprintedAssets } from '../http/fingerprinted-assets.ts';

const require = createRequire(import.meta.url);
const htmxDir = dirname(require.resolve('htmx.org/package.json'));
const htmxVersion = (JSON.parse(readFileSync(join(htmxDir, 'package.json'), 'utf8')) as { version: string }).version;
const HTMX = `htmx-${htmxVersion}.min.js`;
const ownDir = fileURLToPath(new URL('./assets/', import.meta.url));

const assets = new FingerprintedAssets('/assets/admin/', ownDir, ['admin.js', 'admin.css']);
assets.add(HTMX, readFileSync(join(htmxDir, 'dist', 'htmx.min.js')));

export const ADMIN_ASSETS = {
  htmx: assets.url(HTMX),
  script: assets.url('admin.js'),
  stylesheet: assets.url('admin.css'),
};

export async function adminAssets(app: FastifyInstance): Promise<void> {
  await assets.register(app);
  // The plain names, for links from outside.
  await app.register(fastifyStatic, { root: ownDir, prefix: '/assets/admin/', decorateReply: false, maxAge: '1h', index: false });
}
