// A member's avatar on a page: the stored square, drawn at `size` CSS pixels
// (the file has twice as many for sharp screens). Decorative beside the name
// it accompanies, so its text alternative is empty unless told.
import { html, type SafeHtml } from './html.ts';

export function avatarImg(url: string | null, size: number, alt = ''): SafeHtml {
  if (url === null) return html``;
  return html`<img class="avatar" src="${url}" alt="${alt}" width="${size}" height="${size}" loading="lazy">`;
}
