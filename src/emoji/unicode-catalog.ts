// The Unicode emoji set (emojibase-data, English) turned into categories,
// emojis and aliases that obey every catalog rule. Anything that would break
// one is left out and reported, never stored.
//
// - One category per Unicode group, in Unicode order; the "component" group
//   (skin tones, hair styles: parts of other emojis, not emojis to pick) is not one.
// - Every fully-qualified base emoji of those groups, titled with its CLDR name
//   (first letter capitalised), in Unicode order. Skin-tone variants are left
//   out: pickers offer them as a modifier of the base emoji, and as separate
//   rows they would double the catalog and bury search results under five
//   copies of every hand.
// - Shortcodes from the GitHub preset first (the ones people type on GitHub,
//   Slack and Discord: :smile:, :thumbsup:), then emojibase's own preset (which
//   names every emoji, so nothing is left without one). The first usable code
//   is the emoji's shortcode; the others become its aliases. All GitHub codes
//   are assigned before any emojibase code, so where the presets disagree
//   (:dog: is the dog face on GitHub, the whole dog in emojibase) GitHub wins.
import type { Emoji as UnicodeEmoji, MessagesDataset, ShortcodesDataset } from 'emojibase';
import type { ErrorObject } from 'ajv';
import { readFile } from 'node:fs/promises';
import { Type } from 'typebox';
import { fieldErrors, validatorCompiler } from '../http/validation.ts';
import { AliasText, DisplayOrder, EmojiShortcode, EmojiText, Title } from './fields.ts';

export interface UnicodeSource {
  emojis: readonly UnicodeEmoji[];
  messages: MessagesDataset;
  /** In order of preference. */
  presets: ReadonlyArray<{ name: string; shortcodes: ShortcodesDataset }>;
}

export interface PlannedEmoji {
  title: string;
  emoji_text: string;
  emoji_shortcode: string;
  display_order: number;
  aliases: string[];
}

export interface PlannedCategory {
  title: string;
  display_order: number;
  emojis: PlannedEmoji[];
}

export interface Skipped {
  /** What was left out, e.g. "alias :+1: of 👍 (thumbs up)". */
  item: string;
  reason: string;
}

export interface UnicodePlan {
  categories: PlannedCategory[];
  skipped: Skipped[];
  /** Left out by design, not because they break a rule. */
  leftOut: { skinToneVariants: number; components: number; ungrouped: number };
}

/** Validates an imported emoji with the API's own field rules. */
const ImportedEmoji = Type.Object({ title: Title, emoji_text: EmojiText, emoji_shortcode: EmojiShortcode, display_order: DisplayOrder });
const ImportedCode = Type.Object({ code: AliasText });

type Check = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };
const compile = (schema: object): Check => validatorCompiler({ schema, method: 'POST', url: '/api/emoji/import', httpPart: 'body' }) as Check;

export function planUnicodeCatalog(source: UnicodeSource): UnicodePlan {
  const checkEmoji = compile(ImportedEmoji);
  const checkCode = compile(ImportedCode);
  const skipped: Skipped[] = [];
  const leftOut = { skinToneVariants: 0, components: 0, ungrouped: 0 };

  const groups = source.messages.groups.filter((group) => group.key !== 'component').sort((a, b) => a.order - b.order);
  const componentGroup = source.messages.groups.find((group) => group.key === 'component')?.order;

  type Candidate = { emoji: UnicodeEmoji; title: string; codes: string[] };
  const candidates: Candidate[] = [];
  for (const emoji of [...source.emojis].sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) {
    leftOut.skinToneVariants += emoji.skins?.length ?? 0;
    if (emoji.group === undefined || emoji.order === undefined) {
      leftOut.ungrouped += 1;
      continue;
    }
    if (emoji.group === componentGroup) {
      leftOut.components += 1;
      continue;
    }
    const title = capitalise(emoji.label);
    // The shortcode is checked below, once it is chosen; this checks the rest.
    if (!checkEmoji({ title, emoji_text: emoji.emoji, emoji_shortcode: ':placeholder:', display_order: emoji.order })) {
      skipped.push({ item: `emoji ${emoji.emoji} (${emoji.label})`, reason: describe(checkEmoji.errors) });
      continue;
    }
    candidates.push({ emoji, title, codes: [] });
  }

  // Codes are handed out preset by preset, so a preferred preset's code always
  // beats a later preset's code for another emoji.
  const owner = new Map<string, Candidate>();
  const seen = new Set<string>();
  for (const preset of source.presets) {
    for (const candidate of candidates) {
      for (const name of asList(preset.shortcodes[candidate.emoji.hexcode])) {
        const code = `:${name}:`;
        const holder = owner.get(code);
        // A code both presets give the same emoji is placed (or reported) once.
        const key = `${candidate.emoji.hexcode} ${code}`;
        if (holder === candidate || seen.has(key)) continue;
        seen.add(key);
        const item = `code ${code} (${preset.name}) of ${candidate.emoji.emoji} (${candidate.emoji.label})`;
        if (holder !== undefined) {
          skipped.push({ item, reason: `already taken by ${holder.emoji.emoji} (${holder.emoji.label})` });
          continue;
        }
        if (!checkCode({ code })) {
          skipped.push({ item, reason: describe(checkCode.errors) });
          continue;
        }
        owner.set(code, candidate);
        candidate.codes.push(code);
      }
    }
  }

  const categories: PlannedCategory[] = groups.map((group) => ({ title: capitalise(group.message), display_order: group.order, emojis: [] }));
  const categoryOf = new Map(groups.map((group, index) => [group.order, categories[index]!]));
  for (const candidate of candidates) {
    const [shortcode, ...aliases] = candidate.codes;
    const category = categoryOf.get(candidate.emoji.group!);
    if (shortcode === undefined || category === undefined) {
      skipped.push({
        item: `emoji ${candidate.emoji.emoji} (${candidate.emoji.label})`,
        reason: shortcode === undefined ? 'no usable shortcode' : 'unknown group',
      });
      continue;
    }
    category.emojis.push({
      title: candidate.title,
      emoji_text: candidate.emoji.emoji,
      emoji_shortcode: shortcode,
      display_order: candidate.emoji.order!,
      aliases,
    });
  }
  return { categories, skipped, leftOut };
}

/** emojibase-data as installed: data, group names, and the GitHub and emojibase shortcode presets. */
export async function loadUnicodeSource(): Promise<UnicodeSource> {
  const [emojis, messages, github, emojibase] = await Promise.all([
    readDataset<UnicodeEmoji[]>('en/data.json'),
    readDataset<MessagesDataset>('en/messages.json'),
    readDataset<ShortcodesDataset>('en/shortcodes/github.json'),
    readDataset<ShortcodesDataset>('en/shortcodes/emojibase.json'),
  ]);
  return {
    emojis,
    messages,
    presets: [
      { name: 'github', shortcodes: github },
      { name: 'emojibase', shortcodes: emojibase },
    ],
  };
}

/** Read at run time (not imported), so neither start-up without the import nor the type check parses these files. */
async function readDataset<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(new URL(import.meta.resolve(`emojibase-data/${path}`)), 'utf8')) as T;
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return Object.values(fieldErrors(errors ?? []))
    .flat()
    .join(' ');
}
