// @mention autocomplete in the post and message editors (docs/notifications.md):
// typing `@` and two letters of a name in a textarea marked data-emoji-picker
// lists up to eight members whose names hold them (GET /api/members); choosing
// one writes `@Name`, or `@"Name"` for a name with a space, in place of what
// was typed. Arrow keys move in the list, Enter or a click chooses, Escape
// closes it. Without JavaScript a mention is typed in full, as it works the same.
'use strict';

(() => {
  const LIMIT = 8;
  const WAIT_MS = 200;
  // `@` not glued to a word, then the start of a name, up to the cursor.
  const TYPED = /(?:^|[^\p{L}\p{M}\p{N}_.@])@([\p{L}\p{M}\p{N}_.\-]{2,32})$/u;

  function attach(textarea) {
    const list = document.createElement('ul');
    list.className = 'mention-list';
    list.hidden = true;
    textarea.insertAdjacentElement('afterend', list);
    let timer = 0;
    let asked = 0;

    const close = () => {
      list.hidden = true;
      list.replaceChildren();
    };

    const choose = (name, typedLength) => {
      const end = textarea.selectionStart ?? textarea.value.length;
      const start = end - typedLength;
      const mention = /\s/.test(name) ? `@"${name}" ` : `@${name} `;
      textarea.setRangeText(mention, start - 1, end, 'end');
      textarea.dispatchEvent(new Event('input', { bubbles: true }));
      close();
      textarea.focus();
    };

    const show = (names, typedLength) => {
      list.replaceChildren(
        ...names.map((name) => {
          const item = document.createElement('li');
          const button = document.createElement('button');
          button.type = 'button';
          button.className = 'link';
          button.textContent = name;
          button.addEventListener('click', () => choose(name, typedLength));
          item.append(button);
          return item;
        }),
      );
      list.hidden = names.length === 0;
    };

    textarea.addEventListener('input', () => {
      clearTimeout(timer);
      const before = textarea.value.slice(0, textarea.selectionStart ?? textarea.value.length);
      const typed = TYPED.exec(before);
      if (typed === null) return close();
      const fragment = typed[1];
      timer = setTimeout(async () => {
        const mine = ++asked;
        try {
          const answer = await fetch(`/api/members?search=${encodeURIComponent(fragment)}&sort=name&per_page=${LIMIT}`, { headers: { accept: 'application/json' } });
          if (!answer.ok || mine !== asked) return;
          const body = await answer.json();
          show(
            (body.data ?? []).map((member) => member.name),
            fragment.length,
          );
        } catch {
          close();
        }
      }, WAIT_MS);
    });

    textarea.addEventListener('keydown', (event) => {
      if (list.hidden) return;
      const options = [...list.querySelectorAll('button')];
      if (event.key === 'Escape') {
        event.preventDefault();
        close();
      } else if (event.key === 'ArrowDown' && options.length > 0) {
        event.preventDefault();
        options[0].focus();
      }
    });

    list.addEventListener('keydown', (event) => {
      const options = [...list.querySelectorAll('button')];
      const at = options.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' && at < options.length - 1) {
        event.preventDefault();
        options[at + 1].focus();
      } else if (event.key === 'ArrowUp') {
        event.preventDefault();
        if (at > 0) options[at - 1].focus();
        else textarea.focus();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        close();
        textarea.focus();
      }
    });
  }

  for (const textarea of document.querySelectorAll('textarea[data-emoji-picker]')) attach(textarea);
})();
