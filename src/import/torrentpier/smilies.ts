// bb_smilies → image emojis in a category of their own, each under its code
// (`:aa:`), so the codes members typed in old posts draw the same pictures.
// The image is read from `<--files>/<smilies_path>/<smile_url>` and stored
// through the emoji catalog's own checks and store; the catalog's rules
// apply as to any new emoji (a code not in `:name:` form, or taken, stays
// behind with the reason).
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type mysql from 'mysql2/promise';
import type { EmojiServices } from '../../emoji/services.ts';
import { checkImage, type ImageStore } from '../../emoji/images/store.ts';
import { isCode } from '../../emoji/fields.ts';
import { ValidationError } from '../../http/errors.ts';
import { int, type ImportContext } from './context.ts';
import { decodeEntities } from './text.ts';

export const SMILIES_CATEGORY = 'Smilies (TorrentPier)';

async function smiliesPath(ctx: ImportContext): Promise<string> {
  const [rows] = await ctx.source.query<mysql.RowDataPacket[]>("SELECT config_value FROM bb_config WHERE config_name = 'smilies_path'");
  const value = rows[0]?.['config_value'];
  if (typeof value === 'string' && value !== '') return value.replace(/^\/+/, '');
  return ctx.version === '3.0' ? 'assets/images/smiles' : 'styles/images/smiles';
}

export async function importSmilies(ctx: ImportContext, emoji: EmojiServices, images: ImageStore): Promise<void> {
  const { report } = ctx;
  report.table('bb_smilies');
  const [rows] = await ctx.source.query<mysql.RowDataPacket[]>('SELECT smilies_id, code, smile_url, emoticon FROM bb_smilies ORDER BY smilies_id');
  ctx.progress.start('bb_smilies', rows.length);
  if (rows.length === 0) return ctx.progress.finish();
  const folder = await smiliesPath(ctx);
  const category = await emoji.categories.create({ title: SMILIES_CATEGORY, display_order: await nextCategoryOrder(ctx) });
  let position = 0;
  for (const row of rows) {
    const id = int(row['smilies_id']);
    const code = String(row['code'] ?? '').trim();
    report.read('bb_smilies');
    const reason = await importSmiley(ctx, emoji, images, { code, file: String(row['smile_url'] ?? ''), title: String(row['emoticon'] ?? '') }, folder, {
      category: category.id,
      position,
    });
    if (reason === null) {
      report.imported('bb_smilies');
      position++;
    } else report.skipped('bb_smilies', reason, id);
    ctx.progress.advance(1);
  }
  ctx.progress.finish();
}

async function importSmiley(
  ctx: ImportContext,
  emoji: EmojiServices,
  images: ImageStore,
  smiley: { code: string; file: string; title: string },
  folder: string,
  place: { category: number; position: number },
): Promise<string | null> {
  if (!isCode(smiley.code)) return `the code ${JSON.stringify(smiley.code)} is not in the catalog's :name: form (letters, digits, _ and -)`;
  if (ctx.files === null) return 'no --files folder given: the smiley images were not read';
  let bytes: Buffer;
  try {
    bytes = await readFile(join(ctx.files, folder, basename(smiley.file)));
  } catch (error) {
    return `its image ${join(folder, basename(smiley.file))} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}) under --files`;
  }
  const checked = checkImage(bytes, 'custom');
  if (!checked.ok) return `its image is refused: ${checked.message}`;
  const stored = await images.save('custom', bytes, checked.image);
  const title = decodeEntities(smiley.title).trim();
  try {
    await emoji.emojis.create({
      title: title === '' ? smiley.code : title,
      emoji_shortcode: smiley.code,
      image_url: stored.url,
      emoji_category_id: place.category,
      display_order: place.position,
    });
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return `the catalog refuses it: ${error.message}`;
    throw error;
  }
}

async function nextCategoryOrder(ctx: ImportContext): Promise<number> {
  const row = await ctx.target.db
    .selectFrom('emoji_categories')
    .select((eb) => eb.fn.max('display_order').as('last'))
    .executeTakeFirst();
  const last = row?.last;
  return last === null || last === undefined ? 0 : Number(last) + 1;
}
