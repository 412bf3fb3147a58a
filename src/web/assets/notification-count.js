// Keeps the header's count of unread notifications current without a reload
// (docs/notifications.md): asks the API once a minute while the page is in
// view, and at once when it comes back into view. Without JavaScript the
// count is the one the page was served with.
'use strict';

(() => {
  const link = document.querySelector('a[data-notifications]');
  if (link === null) return;
  const EVERY_MS = 60_000;
  const show = (unread) => {
    // The number itself says it from now on: the words beside it were the served count's.
    link.querySelector('.visually-hidden')?.remove();
    const count = link.querySelector('.count');
    if (unread === 0) {
      if (count !== null) count.remove();
      return;
    }
    if (count !== null) count.textContent = String(unread);
    else {
      const badge = document.createElement('span');
      badge.className = 'count';
      badge.textContent = String(unread);
      link.append(' ', badge);
    }
  };
  const ask = async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      const answer = await fetch('/api/notifications/unread-count', { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!answer.ok) return;
      const body = await answer.json();
      if (typeof body?.data?.unread === 'number') show(body.data.unread);
    } catch {
      // Offline or the server away: the count stays as it was until the next try.
    }
  };
  setInterval(ask, EVERY_MS);
  document.addEventListener('visibilitychange', ask);
})();
