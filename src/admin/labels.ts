// The names admin pages give stored values (a role, a rule's action, a log
// entry's action): the catalog's `<group>.<value>` in the reader's language,
// else the value itself made readable ("delete_topic" → "Delete topic"), so a
// value added to the code before its name reaches the catalogs still reads.
import { isTextKey, t } from '../i18n/messages.ts';
import { humanize, options, type Option } from '../web/form-controls.ts';

export function valueLabel(group: string, value: string): string {
  const key = `${group}.${value}`;
  return isTextKey(key) ? t(key) : humanize(value);
}

/** A select's or checkbox group's options for these values, each named as valueLabel names it. */
export function valueOptions(group: string, values: readonly string[]): Option[] {
  return options(values, (value) => valueLabel(group, value));
}
