// Addresses users give (a BBCode link or picture, the site's logo), let into
// an attribute only when they are what they claim: no `javascript:`, no
// `data:`, no protocol-relative `//host`.

/** A link target users may give: http(s) with a host, or a path on this site. */
export function safeUrl(value: string): string | undefined {
  const url = value.trim().replace(/^"(.*)"$/, '$1');
  if (/^\/(?!\/)[^\s\\]*$/.test(url) || /^#[A-Za-z0-9_-]+$/.test(url)) return url;
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    const parsed = new URL(url);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') return undefined;
    return parsed.href;
  } catch {
    return undefined;
  }
}
