// The public pages' stylesheet, scripts and icon under fingerprinted names
// (http/fingerprinted-assets.ts); app.ts serves them.
import { fileURLToPath } from 'node:url';
import { FingerprintedAssets } from '../http/fingerprinted-assets.ts';

export const SITE_ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

export const SITE_ASSETS = new FingerprintedAssets('/assets/', SITE_ASSETS_DIR, [
  'style.css',
  'favicon.svg',
  'time-zone.js',
  'emoji-picker.js',
  'notification-count.js',
  'mention-complete.js',
]);
