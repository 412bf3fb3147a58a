// The ratio rule (tracker.md): a user whose ratio is below the minimum after
// the threshold downloaded may not download new .torrent files or start
// leeching; seeding is always allowed. Pure functions, used by the download
// route and by the announce path. The refusal is in the reader's language
// (the API's and the announce's: English).
import type { RatioRule } from './config.ts';
import { t } from '../i18n/messages.ts';
import { formatRatio } from '../web/format.ts';

export interface Transfer {
  /** Bytes, after freeleech. */
  uploaded: number;
  downloaded: number;
}

export type RatioVerdict = { allowed: true } | { allowed: false; reason: string };

/** uploaded / downloaded; null while nothing was downloaded. */
export function ratioOf(transfer: Transfer): number | null {
  return transfer.downloaded > 0 ? transfer.uploaded / transfer.downloaded : null;
}

/** The ratio is shown (and judged) only once the threshold is downloaded. */
export function ratioShown(transfer: Transfer, rule: RatioRule): boolean {
  return transfer.downloaded > 0 && transfer.downloaded >= rule.afterBytes;
}

/** May this user take new .torrent files and leech? */
export function ratioVerdict(transfer: Transfer, rule: RatioRule): RatioVerdict {
  if (rule.minimum <= 0 || !ratioShown(transfer, rule)) return { allowed: true };
  const ratio = transfer.uploaded / transfer.downloaded;
  if (ratio >= rule.minimum) return { allowed: true };
  return {
    allowed: false,
    reason: t('tracker.low_ratio', { ratio: formatRatio(ratio), minimum: formatRatio(rule.minimum) }),
  };
}
