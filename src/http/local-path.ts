// Where a request may be sent next: only to a path on this site.
/**
 * Redirect target from input (`next`, a form's `return`): a path on this site,
 * or `fallback`. The check is the browser's own URL parser, which drops tabs
 * and line breaks and reads a backslash as `/` (so `/<tab>/evil.example/` is another
 * site); control characters and backslashes are refused outright. The result
 * is the parsed path, query and fragment, percent-encoded ASCII, so any
 * character is safe in a Location header.
 */
export function localPath(next: unknown, fallback = '/'): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (typeof next !== 'string' || next.length > MAX_LOCAL_PATH || !next.startsWith('/') || /[\u0000-\u001f\u007f-\u009f\\]/.test(next)) return fallback;
  const url = URL.canParse(next, LOCAL_ORIGIN) ? new URL(next, LOCAL_ORIGIN) : null;
  if (url === null || url.origin !== LOCAL_ORIGIN) return fallback;
  return url.pathname + url.search + url.hash;
}

/** Longer return addresses are not followed (and not echoed back into forms). */
const MAX_LOCAL_PATH = 2000;

/** A stand-in origin for parsing local paths; never sent anywhere. */
const LOCAL_ORIGIN = 'http://local.invalid';
