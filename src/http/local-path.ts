// Where a request may be sent next: only to a path on this site.
/**
 * Redirect target from input (`next`, a form's `return`): a path on this site,
 * or `fallback`. The check is the browser's own URL parser, which drops tabs
 * and line breaks and reads a backslash as `/` (so `/<tab>/evil.example/` is
 * another site); control characters, backslashes and a leading `//` (another
 * host, whatever follows) are refused outright. The result is the parsed path,
 * query and fragment, percent-encoded ASCII, so any character is safe in a
 * Location header.
 *
 * The parser also resolves dot segments, so `/.//evil.example/` comes out as
 * `//evil.example/`, which a browser reads as another host: a path that
 * starts with two slashes is refused, and so is one that would once its
 * percent-escapes are decoded (`/%2f/evil.example`, `/%5cevil.example`), as a
 * proxy or the next hop may do.
 */
export function localPath(next: unknown, fallback = '/'): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (typeof next !== 'string' || next.length > MAX_LOCAL_PATH || !/^\/(?!\/)/.test(next) || /[\u0000-\u001f\u007f-\u009f\\]/.test(next)) return fallback;
  const url = onThisSite(next);
  if (url === null || onThisSite(decodedOnce(url.pathname)) === null) return fallback;
  return url.pathname + url.search + url.hash;
}

/** The URL `target` names when it stays on the stand-in origin with a path that is not `//…`; otherwise null. */
function onThisSite(target: string): URL | null {
  if (!URL.canParse(target, LOCAL_ORIGIN)) return null;
  const url = new URL(target, LOCAL_ORIGIN);
  return url.origin === LOCAL_ORIGIN && !url.pathname.startsWith('//') ? url : null;
}

/** The path with its percent-escapes decoded once; unchanged when they do not decode (that path is not read as another one). */
function decodedOnce(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Longer return addresses are not followed (and not echoed back into forms). */
const MAX_LOCAL_PATH = 2000;

/** A stand-in origin for parsing local paths; never sent anywhere. */
const LOCAL_ORIGIN = 'http://local.invalid';
