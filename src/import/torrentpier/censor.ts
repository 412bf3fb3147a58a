// bb_words (the censor list) → word filters that replace. Upstream matches
// whole words, case-insensitively, with `*` as "any run of letters, digits
// and _": the same as our `wildcard` pattern type (a word without `*` is an
// `exact` rule). Upstream censors every text it shows; the rules apply to
// posts, topic titles, signatures and private messages here. They are active
// exactly when the upstream had `use_word_censor` on.
import type mysql from 'mysql2/promise';
import { ValidationError } from '../../http/errors.ts';
import type { WordFilterInput, WordFiltersService } from '../../word-filters/service.ts';
import { int, keep, skip, type ImportContext, type Mapped } from './context.ts';
import { decodeEntities } from './text.ts';

export function mapCensorWord(row: { word_id: number; word: string; replacement: string }, active: boolean): Mapped<WordFilterInput> {
  const word = decodeEntities(row.word).trim();
  if (word === '' || /^\*+$/.test(word)) return skip('the censored word is empty or only wildcards');
  return keep({
    pattern: word,
    replacement: decodeEntities(row.replacement).trim(),
    filter_type: 'replace',
    pattern_type: word.includes('*') ? 'wildcard' : 'exact',
    severity: 'medium',
    is_active: active,
    case_sensitive: false,
    applies_to: ['posts', 'topics', 'signatures', 'private_messages'],
    notes: `Imported from the TorrentPier censor list (bb_words ${row.word_id}).`,
  });
}

export async function importCensor(ctx: ImportContext, wordFilters: WordFiltersService): Promise<void> {
  const { report } = ctx;
  report.table('bb_words');
  const [rows] = await ctx.source.query<mysql.RowDataPacket[]>('SELECT word_id, word, replacement FROM bb_words ORDER BY word_id');
  const [config] = await ctx.source.query<mysql.RowDataPacket[]>("SELECT config_value FROM bb_config WHERE config_name = 'use_word_censor'");
  // TorrentPier's default is on; a board that turned it off keeps its list, inactive.
  const active = config.length === 0 || String(config[0]!['config_value']) !== '0';
  ctx.progress.start('bb_words', rows.length);
  for (const row of rows) {
    const upstream = { word_id: int(row['word_id']), word: String(row['word'] ?? ''), replacement: String(row['replacement'] ?? '') };
    report.read('bb_words');
    const mapped = mapCensorWord(upstream, active);
    if (!mapped.ok) {
      report.skipped('bb_words', mapped.reason, upstream.word_id);
      continue;
    }
    try {
      await wordFilters.create(mapped.row, null);
      report.imported('bb_words');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      report.skipped('bb_words', `the word-filter rules refuse it: ${error.message}`, upstream.word_id);
    }
    ctx.progress.advance(1);
  }
  ctx.progress.finish();
}
