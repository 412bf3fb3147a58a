// The admin pages' only script of our own. htmx does the inline actions;
// this sends the session's CSRF token with them, says so when one fails, and
// previews an image file before it is uploaded. Every form works without it.

document.addEventListener('htmx:configRequest', (event) => {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta) event.detail.headers['X-CSRF-Token'] = meta.getAttribute('content');
});

// The page's texts in its reader's language (layout.ts puts them on .admin); `{status}` and `{name}` are filled here.
function text(name, values = {}) {
  const template = document.querySelector('.admin')?.dataset[name] ?? '';
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

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
  announce(status === 403 ? text('refused') : text('failed', { status }));
});

document.addEventListener('htmx:sendError', () => {
  announce(text('unreachable'));
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
  img.alt = text('previewOf', { name: file.name });
  img.className = 'preview-image';
  target.replaceChildren(img);
});
