// The admin pages' only script of our own. htmx does the inline actions;
// this sends the session's CSRF token with them, says so when one fails, and
// previews an image file before it is uploaded. Every form works without it.

document.addEventListener('htmx:configRequest', (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) event.detail.headers['X-CSRF-Token'] = meta.getAttribute('content');
});

function announce(message) {
  const region = document.getElementById('admin-live');
  if (!region) return;
  const p = document.createElement('p');
  p.className = 'notice error';
  p.textContent = message;
  region.replaceChildren(p);
}

document.addEventListener('htmx:responseError', (event) => {
  const status = event.detail.xhr.status;
  announce(
    status === 403
      ? 'That was refused (403): your session may have changed. Reload the page and try again.'
      : `That did not work (error ${status}). Reload the page and try again.`,
  );
});

document.addEventListener('htmx:sendError', () => {
  announce('The server could not be reached. Check the connection and try again.');
});

// <input type="file" data-preview="ID">: show the chosen image in the element with that id.
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== 'file' || !input.dataset.preview) return;
  const target = document.getElementById(input.dataset.preview);
  const file = input.files?.[0];
  if (!target || !file) return;
  const img = document.createElement('img');
  img.src = URL.createObjectURL(file);
  img.alt = `Preview of ${file.name}`;
  img.className = 'preview-image';
  target.replaceChildren(img);
});
