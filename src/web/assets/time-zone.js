// Tells the server the browser's time zone (docs/i18n.md): a cookie read on
// the next page, so that times read as the clock on the wall unless the member
// chose a zone in their settings. Without JavaScript times stay in UTC.
'use strict';

(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (typeof zone !== 'string' || zone === '') return;
  const cookie = `tz=${encodeURIComponent(zone)}`;
  if (document.cookie.split('; ').includes(cookie)) return;
  document.cookie = `${cookie}; path=/; max-age=31536000; samesite=lax`;
})();
