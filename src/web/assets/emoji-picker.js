// The emoji picker of the post forms (docs/formatting.md, "Emoji"): beside
// every textarea marked data-emoji-picker, a search of the emoji catalog
// (GET /api/emoji/emojis/search, the catalog's first emojis before anything
// is typed); choosing one puts its :shortcode: where the cursor is. Without
// JavaScript none of this appears and shortcodes typed by hand still work.
'use strict';

(() => {
  const SPRITES = '/emojis/sprites/';
  const LIMIT = 24;
  let count = 0;

  function picture(emoji) {
    if (emoji.emoji_text) {
      const span = document.createElement('span');
      span.className = 'emoji';
      span.textContent = emoji.emoji_text;
      return span;
    }
    if (emoji.sprite_mode && emoji.sprite_params) {
      const { sheet, x, y, width, height } = emoji.sprite_params;
      const span = document.createElement('span');
      span.className = 'sprite';
      span.style.width = `${width}px`;
      span.style.height = `${height}px`;
      span.style.backgroundImage = `url("${SPRITES}${encodeURIComponent(sheet)}")`;
      span.style.backgroundPosition = `-${x}px -${y}px`;
      return span;
    }
    const img = document.createElement('img');
    img.className = 'emoji';
    img.src = emoji.image_url ?? '';
    img.alt = '';
    return img;
  }

  /** Puts the text at the cursor (replacing a selection), as typing it would. */
  function insert(textarea, text) {
    const start = textarea.selectionStart ?? textarea.value.length;
    const end = textarea.selectionEnd ?? start;
    const before = textarea.value.slice(0, start);
    const spaced = (before === '' || /\s$/.test(before) ? '' : ' ') + text;
    textarea.setRangeText(spaced, start, end, 'end');
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
    textarea.focus();
  }

  async function found(query) {
    const url =
      query === ''
        ? `/api/emoji/emojis?per_page=${LIMIT}`
        : `/api/emoji/emojis/search?limit=${LIMIT}&q=${encodeURIComponent(query)}`;
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) return [];
    return (await response.json()).data;
  }

  function attach(textarea) {
    const texts = JSON.parse(textarea.dataset.emojiPicker || '{}');
    const plural = new Intl.PluralRules(document.documentElement.lang || 'en');
    count += 1;
    const id = `emoji-picker-${count}`;
    const details = document.createElement('details');
    details.className = 'emoji-picker';
    const summary = document.createElement('summary');
    summary.textContent = texts.open ?? 'Insert an emoji';
    const label = document.createElement('label');
    label.htmlFor = `${id}-search`;
    label.textContent = texts.find ?? 'Find an emoji';
    const search = document.createElement('input');
    search.type = 'search';
    search.id = `${id}-search`;
    search.autocomplete = 'off';
    search.maxLength = 100;
    const status = document.createElement('p');
    status.className = 'muted';
    status.setAttribute('role', 'status');
    const list = document.createElement('ul');
    list.className = 'emoji-results';
    details.append(summary, label, search, status, list);
    textarea.closest('.field').after(details);

    let asked = 0;
    async function show() {
      const query = search.value.trim();
      const mine = ++asked;
      const emojis = await found(query).catch(() => []);
      if (mine !== asked) return; // a later search already answered
      list.replaceChildren(
        ...emojis.map((emoji) => {
          const item = document.createElement('li');
          const button = document.createElement('button');
          button.type = 'button';
          button.className = 'secondary';
          button.title = emoji.emoji_shortcode;
          button.dataset.shortcode = emoji.emoji_shortcode;
          const name = document.createElement('span');
          name.className = 'visually-hidden';
          name.textContent = `${emoji.title} ${emoji.emoji_shortcode}`;
          button.append(picture(emoji), name);
          button.addEventListener('click', () => insert(textarea, emoji.emoji_shortcode));
          item.append(button);
          return item;
        }),
      );
      const shown = texts.shown?.[plural.select(emojis.length)] ?? texts.shown?.other ?? '{count} emoji shown.';
      status.textContent = emojis.length === 0 ? (texts.none ?? 'No emoji found.') : shown.replace('{count}', String(emojis.length));
    }

    let timer;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(show, 150);
    });
    // Enter in the search must not send the post.
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') event.preventDefault();
    });
    details.addEventListener('toggle', () => {
      if (details.open && list.childElementCount === 0) void show();
    });
  }

  for (const textarea of document.querySelectorAll('textarea[data-emoji-picker]')) attach(textarea);
})();
