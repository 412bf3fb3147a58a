// Redirect targets (`next`, `return`) that must never take a browser off the
// site: every spelling of "another host" a browser, a proxy or a path
// normaliser may read out of something that starts like a local path
// (issue 27: `/.//evil.example/` was normalised to `//evil.example/`).
import fc from 'fast-check';

/** The host the hostile targets aim at. */
export const EVIL_HOST = 'evil.example';

/**
 * Targets whose only safe answer is the fallback: each leaves the site as a
 * browser reads it, or once its path is percent-decoded (as a proxy or a
 * second hop may), or is not a path at all.
 */
export const OFF_SITE_TARGETS: readonly string[] = [
  // Another host outright.
  `//${EVIL_HOST}/`,
  `///${EVIL_HOST}/`,
  `////${EVIL_HOST}`,
  `https://${EVIL_HOST}/`,
  `http://${EVIL_HOST}`,
  `HTTPS://${EVIL_HOST}/`,
  `https:/${EVIL_HOST}/`,
  `https:${EVIL_HOST}`,
  `http:\\\\${EVIL_HOST}`,
  `//${EVIL_HOST}@local.invalid/`,
  `ftp://${EVIL_HOST}/`,
  EVIL_HOST,
  `${EVIL_HOST}/x`,
  // Dot segments that normalise to `//host` (issue 27).
  `/.//${EVIL_HOST}/`,
  `/..//${EVIL_HOST}/`,
  `/x/..//${EVIL_HOST}/`,
  `/a/b/../..//${EVIL_HOST}/`,
  `/./..//${EVIL_HOST}`,
  `/././/${EVIL_HOST}`,
  `/%2e//${EVIL_HOST}/`,
  `/%2E//${EVIL_HOST}/`,
  `/%2e%2e//${EVIL_HOST}/`,
  `/x/%2e%2e//${EVIL_HOST}/`,
  `/.%2e//${EVIL_HOST}/`,
  // Backslashes, which browsers read as slashes.
  `/\\${EVIL_HOST}`,
  `\\\\${EVIL_HOST}`,
  `\\/${EVIL_HOST}`,
  `/\\/${EVIL_HOST}/`,
  `/.\\/${EVIL_HOST}/`,
  // Encoded slashes and backslashes: harmless to a browser, another host once decoded.
  `/%2f${EVIL_HOST}`,
  `/%2F/${EVIL_HOST}/`,
  `/%2f%2f${EVIL_HOST}`,
  `/%5c${EVIL_HOST}`,
  `/%5C/${EVIL_HOST}/`,
  `/%5c%5c${EVIL_HOST}`,
  `/.%2f/${EVIL_HOST}/`,
  `/%2e%2e%2f%2f${EVIL_HOST}`,
  `/x/%2e%2e%2f/${EVIL_HOST}`,
  // Tabs and line breaks, which browsers drop: raw and encoded.
  `/\t/${EVIL_HOST}/`,
  `/\n/${EVIL_HOST}/`,
  `/\r\n/${EVIL_HOST}`,
  `\t//${EVIL_HOST}/`,
  `/%09/${EVIL_HOST}/`,
  `/%0a/${EVIL_HOST}/`,
  `/%0d%0a/${EVIL_HOST}`,
  `/%09%2f${EVIL_HOST}`,
  // Schemes that run or show content.
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'javascript://%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  // Header splitting and characters a Location cannot carry.
  '/\r\nSet-Cookie: x=1',
  '/a\u0000b',
  '/a\u0085b',
  `/${'a'.repeat(2000)}`,
  '',
];

/** Local targets and where they lead (the parsed path, percent-encoded). */
export const LOCAL_TARGETS: ReadonlyArray<readonly [string, string]> = [
  ['/', '/'],
  ['/settings/', '/settings/'],
  ['/forum/general.1/?page=2#top', '/forum/general.1/?page=2#top'],
  ['/./settings/', '/settings/'],
  ['/x/../settings/', '/settings/'],
  ['/%2e/settings/', '/settings/'],
  ['/ /evil.example', '/%20/evil.example'],
  ['/search/?q=//evil.example', '/search/?q=//evil.example'],
  ['/search/?q=%2F%2Fevil', '/search/?q=%2F%2Fevil'],
  ['/%E2%82%AC/', '/%E2%82%AC/'],
  ['/€/', '/%E2%82%AC/'],
  ['/a%2fb/', '/a%2fb/'],
];

/**
 * Generated spellings of "another host" behind a path-looking start: a
 * prefix (dot segments, raw or encoded), two separators of any kind, a host.
 */
export function offSiteTarget(): fc.Arbitrary<string> {
  const prefix = fc.constantFrom('', '/.', '/..', '/x/..', '/%2e', '/%2e%2e', '/./.', '/x/%2e%2e', '/.%2e');
  const separator = fc.constantFrom('/', '\\', '%2f', '%2F', '%5c', '%5C', '\t/', '%09/', '\n', '%0a/');
  const host = fc.constantFrom(EVIL_HOST, `${EVIL_HOST}/`, `${EVIL_HOST}:80/x?y=1`, `user@${EVIL_HOST}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...OFF_SITE_TARGETS) },
    { weight: 2, arbitrary: fc.tuple(prefix, separator, separator, host).map(([p, a, b, h]) => `${p.startsWith('/') ? p : '/'}${a}${b}${h}`) },
  );
}

/** Fields and query parameters whose value the site may redirect to (the login's `next`, an admin form's `return`, a torrent form's `return_to`). */
export function isRedirectField(name: string): boolean {
  return name === 'next' || name === 'return' || name === 'return_to';
}

/** A value for a `next` or `return` field or query parameter: mostly hostile, sometimes local. */
export function redirectTarget(): fc.Arbitrary<string> {
  return fc.oneof({ weight: 3, arbitrary: offSiteTarget() }, { weight: 1, arbitrary: fc.constantFrom(...LOCAL_TARGETS.map(([target]) => target)) });
}

/**
 * Would a browser that follows `location` from a page of this site stay on it,
 * also after a proxy decoded its path once? (Browsers drop tabs and line
 * breaks and read `\` as `/`; the URL parser does both.)
 */
export function staysOnSite(location: string): boolean {
  const origin = 'http://forum.test';
  const leaves = (target: string): boolean => {
    if (!URL.canParse(target, `${origin}/`)) return true;
    const url = new URL(target, `${origin}/`);
    return url.origin !== origin || url.pathname.startsWith('//');
  };
  if (!location.startsWith('/') || leaves(location)) return false;
  const path = new URL(location, `${origin}/`).pathname;
  try {
    return !leaves(decodeURIComponent(path));
  } catch {
    return true;
  }
}
