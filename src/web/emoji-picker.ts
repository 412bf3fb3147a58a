// The emoji picker of the text forms (assets/emoji-picker.js): a page with a
// form that renders emoji (posts, private messages) loads the script and marks
// its textarea; the script adds the catalog search beside it, labelled in the
// reader's language (the texts travel in the marking attribute).
import { currentReader } from '../i18n/context.ts';
import { CATALOGS, t } from '../i18n/messages.ts';
import { html, type SafeHtml } from './html.ts';
import { SITE_ASSETS } from './site-assets.ts';

/** The editors' scripts: the emoji picker and the @mention autocomplete, both on textareas marked by emojiPickerField(). */
export const EDITOR_SCRIPTS = html`<script src="${SITE_ASSETS.url('emoji-picker.js')}" defer></script><script src="${SITE_ASSETS.url('mention-complete.js')}" defer></script>`;

/** The textarea attribute the script looks for, with the picker's texts (the count's plural forms chosen in the browser). */
export function emojiPickerField(): SafeHtml {
  const texts = { open: t('picker.open'), find: t('picker.find'), none: t('picker.none'), shown: CATALOGS[currentReader().locale]['picker.shown'] };
  return html` data-emoji-picker="${JSON.stringify(texts)}"`;
}
