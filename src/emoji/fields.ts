// Every emoji, alias and category input field, defined once: its limit, its
// format and its OpenAPI description. The request bodies, the list filters
// and the Unicode import all validate with these.
import { Type } from 'typebox';
import { Int32, Nullable, VisibleText } from '../http/schemas.ts';

export { Reference } from '../http/schemas.ts';
export { isStorableId } from '../http/integers.ts';

export const TITLE_MAX = 255;
export const CODE_MAX = 255;
export const EMOJI_TEXT_MAX = 10;
export const IMAGE_URL_MAX = 500;
export const SPRITE_SHEET_MAX = 255;

/** `:name:` where name is one or more of A-Z a-z 0-9 _ - (shortcodes and aliases alike). */
export const CODE_PATTERN = '^:[A-Za-z0-9_-]+:$';
const codePattern = new RegExp(CODE_PATTERN);

export function isCode(value: string): boolean {
  return value.length <= CODE_MAX && codePattern.test(value);
}

export const Title = VisibleText(TITLE_MAX, `Up to ${TITLE_MAX} characters, at least one of them visible`);

export const DisplayOrder = Int32('Position in lists, ascending (0 or more)');

export const EmojiShortcode = Type.String({
  maxLength: CODE_MAX,
  pattern: CODE_PATTERN,
  description: `\`:name:\` (letters, digits, _ and -), at most ${CODE_MAX} characters; unique across every shortcode and alias`,
});

export const AliasText = Type.String({
  maxLength: CODE_MAX,
  pattern: CODE_PATTERN,
  description: `\`:name:\` (letters, digits, _ and -), at most ${CODE_MAX} characters; unique across every alias and shortcode`,
});

export const EmojiText = Nullable(
  Type.String({ maxLength: EMOJI_TEXT_MAX, description: `Unicode emoji or text emoticon, at most ${EMOJI_TEXT_MAX} code points (Unicode emojis only)` }),
);

export const ImageUrl = Nullable(
  Type.String({
    maxLength: IMAGE_URL_MAX,
    webAddress: true,
    description: `Path on this site (\`/…\`) or http(s) URL of a custom image, at most ${IMAGE_URL_MAX} characters (custom-image emojis only)`,
  }),
);

export const SpriteMode = Type.Boolean({ description: 'CSS sprite emoji; sprite_params are then required' });

/** Members are checked for presence by the service: they are required only when sprite mode is on. */
export const SpriteParamsInput = Nullable(
  Type.Object(
    {
      x: Type.Optional(Int32('Left offset in the sheet, px')),
      y: Type.Optional(Int32('Top offset in the sheet, px')),
      width: Type.Optional(Int32('Width, px', 1)),
      height: Type.Optional(Int32('Height, px', 1)),
      sheet: Type.Optional(Type.String({ minLength: 1, maxLength: SPRITE_SHEET_MAX, description: 'Sprite sheet file name' })),
    },
    { description: 'Required (all five members) when sprite_mode is true; stored only then' },
  ),
);

export const SPRITE_MEMBERS = ['x', 'y', 'width', 'height', 'sheet'] as const;
