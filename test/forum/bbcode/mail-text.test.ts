// BBCode as a plain-text mail carries it (a mass mail, docs/mass-mail.md):
// markup gone, what a reader needs kept: link addresses, image addresses,
// who a quote is from (in the reader's language), list items on their lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bbcodeMailText } from '../../../src/forum/bbcode/bbcode.ts';
import { asReader } from '../../../src/i18n/context.ts';

describe('BBCode as mail text', () => {
  it('leaves text without tags as it is', () => {
    assert.equal(bbcodeMailText('Plain [not a tag] <b>text</b>'), 'Plain [not a tag] <b>text</b>');
  });

  it('drops formatting and keeps each link address beside its words, once', () => {
    assert.equal(
      bbcodeMailText(
        '[b]Big[/b] [i]news[/i]: [url=https://example.org/a]the plan[/url], [url]https://example.org/b[/url], [url=https://example.org/c]https://example.org/c[/url]',
      ),
      'Big news: the plan (https://example.org/a), https://example.org/b, https://example.org/c',
    );
  });

  it('gives no address for a link that is not a web address', () => {
    assert.equal(bbcodeMailText('[url=javascript:alert(1)]click[/url]'), 'click');
  });

  it('shows images and mail addresses as their addresses, code as written, list items on their own lines', () => {
    assert.equal(
      bbcodeMailText('See [img]https://example.org/p.png[/img] or [email]team@example.org[/email]'),
      'See https://example.org/p.png or team@example.org',
    );
    assert.equal(bbcodeMailText('[code][b]not bold[/b][/code]'), '[b]not bold[/b]');
    assert.equal(bbcodeMailText('Steps:[list][*]one[*]two[/list]'), 'Steps:\n• one\n• two');
  });

  it("quotes with `> ` under who wrote it, in the reader's language", () => {
    const text = 'Before[quote=Alice]Line one\nLine two[/quote]After';
    assert.equal(bbcodeMailText(text), 'Before\n> Alice wrote:\n> Line one\n> Line two\nAfter');
    assert.equal(
      asReader({ locale: 'ru', timeZone: 'UTC' }, () => bbcodeMailText(text)),
      'Before\n> Alice писал(а):\n> Line one\n> Line two\nAfter',
    );
  });
});
