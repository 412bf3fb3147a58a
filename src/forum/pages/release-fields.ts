// The release template's fields in a forum's new-topic form
// (docs/release-templates.md): a fieldset of the template's fields, each
// named `release.{key}` as the service names its errors, so a refused value
// is shown at its field; and what the form sent of them.
import { t } from '../../i18n/messages.ts';
import { pageFormState, selectField, textInput } from '../../web/form-controls.ts';
import type { FieldErrors } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { VALUE_MAX, type ReleaseField, type ReleaseTemplate } from '../release-templates.ts';

export function releaseFieldset(template: ReleaseTemplate, values: Readonly<Record<string, string>> | undefined, errors: FieldErrors | undefined): SafeHtml {
  const form = pageFormState(values, errors);
  return html`<fieldset class="field group release"><legend>${t('release.fieldset')}</legend>
${template.fields.map((field) => fieldControl(field, form))}
</fieldset>`;
}

function fieldControl(field: ReleaseField, form: ReturnType<typeof pageFormState>): SafeHtml {
  const name = `release.${field.key}`;
  const common = { name, id: `release-${field.key}`, label: field.label, required: field.required };
  switch (field.kind) {
    case 'choice':
      return selectField(form, { ...common, blank: t('release.choose'), options: field.choices.map((choice) => ({ value: choice, label: choice })) });
    case 'number':
      return textInput(form, { ...common, type: 'number', min: 0, inputmode: 'numeric' });
    case 'image':
      return textInput(form, { ...common, type: 'url', hint: t('release.image_hint'), maxlength: VALUE_MAX });
    case 'size':
      return textInput(form, { ...common, hint: t('release.size_hint'), maxlength: 40 });
    case 'text':
      return textInput(form, { ...common, maxlength: VALUE_MAX });
  }
}

/** The template's values the form sent, by key (every one, empty ones too: the service says which it needs). */
export function releaseValues(template: ReleaseTemplate, sent: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(template.fields.map((field) => [field.key, (sent[`release.${field.key}`] ?? '').slice(0, VALUE_MAX + 1)]));
}
