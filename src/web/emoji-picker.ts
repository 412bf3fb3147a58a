// The emoji picker of the text forms (assets/emoji-picker.js): a page with a
// form that renders emoji (posts, private messages) loads the script and marks
// its textarea; the script adds the catalog search beside it.
import { html } from './html.ts';

export const EMOJI_PICKER_SCRIPT = html`<script src="/assets/emoji-picker.js" defer></script>`;

/** The textarea attribute the script looks for. */
export const EMOJI_PICKER_FIELD = html` data-emoji-picker`;
