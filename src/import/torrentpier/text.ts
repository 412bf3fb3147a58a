// Upstream text as people typed it. TorrentPier stores names and titles
// through htmlspecialchars() and post BBCode through htmlCHR(ENT_NOQUOTES,
// double_encode=false), and its pages print them as HTML; decoding every HTML
// entity gives what those pages showed (`&copy;` was ©, `&lt;` was <). Our
// renderer escapes on output, so the decoded text is what we store.
import { decodeHTML } from 'entities';

export function decodeEntities(text: string): string {
  const decoded = text.includes('&') ? decodeHTML(text) : text;
  // NUL is no character anyone typed, and PostgreSQL refuses it in text.
  return decoded.includes('\u0000') ? decoded.replaceAll('\u0000', '') : decoded;
}

/** Unix seconds as the ISO timestamp both databases store; null for 0 or nonsense. */
export function unixToIso(seconds: number | string | null | undefined): string | null {
  const value = Number(seconds);
  if (!Number.isFinite(value) || value <= 0 || value > 253_402_300_799) return null;
  return new Date(Math.floor(value) * 1000).toISOString();
}

/** The first usable time of several (for instance an edit time, else the post time), else `fallback`. */
export function firstTime(fallback: string, ...seconds: (number | string | null | undefined)[]): string {
  for (const value of seconds) {
    const iso = unixToIso(value);
    if (iso !== null) return iso;
  }
  return fallback;
}
