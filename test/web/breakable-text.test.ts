// Names and addresses that may wrap after their punctuation (web/format.ts):
// Chromium finds no break inside `Film.2026.1080p.mkv` or a long web address
// and would break it mid-word on a phone. The breaks are <wbr> between parts
// escaped one by one, so no entity or tag is ever cut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressText, breakableName, wrappableText } from '../../src/web/format.ts';

describe('breakable names and addresses', () => {
  it('may wrap a file name after each run of dots and underscores, never inside a word', () => {
    assert.equal(breakableName('The.Long.Goodbye.1973..1080p_BDRip.mkv').value, 'The.<wbr>Long.<wbr>Goodbye.<wbr>1973..<wbr>1080p_<wbr>BDRip.<wbr>mkv');
    assert.equal(breakableName('folder/sub\\file').value, 'folder/<wbr>sub\\<wbr>file');
    assert.equal(breakableName('name.').value, 'name.', 'nothing after the last dot');
  });

  it('escapes each part, so an entity is never cut by a break', () => {
    assert.equal(breakableName('a&b<c>.d').value, 'a&amp;<wbr>b&lt;c&gt;.<wbr>d');
    assert.equal(breakableName('x=<script>').value, 'x=<wbr>&lt;script&gt;');
  });

  it('leaves a short address as it is and makes a long one breakable', () => {
    assert.equal(addressText('https://example.org/a?b=1&c=2').value, 'https://example.org/a?b=1&amp;c=2');
    const long = 'https://example.org/a/very/long/path/that/does/not/break';
    assert.equal(addressText(long).value, 'https://<wbr>example.<wbr>org/<wbr>a/<wbr>very/<wbr>long/<wbr>path/<wbr>that/<wbr>does/<wbr>not/<wbr>break');
  });

  it('makes only the long runs of plain text breakable', () => {
    assert.equal(
      wrappableText('see https://example.org/a/very/long/path/that/does/not/break <b>here</b>').value,
      'see https://<wbr>example.<wbr>org/<wbr>a/<wbr>very/<wbr>long/<wbr>path/<wbr>that/<wbr>does/<wbr>not/<wbr>break &lt;b&gt;here&lt;/b&gt;',
    );
    assert.equal(wrappableText('short words. and.dots').value, 'short words. and.dots');
  });

  // A pattern that backtracked would not finish on these before the test's timeout.
  it('gets through long runs of punctuation and of letters', () => {
    const hostile = `${'.'.repeat(200_000)}a${'/'.repeat(200_000)}`;
    assert.equal(breakableName(hostile).value, `${'.'.repeat(200_000)}<wbr>a${'/'.repeat(200_000)}`);
    assert.equal(wrappableText(`${hostile} ${'x'.repeat(100_000)}`).value.length, 400_001 + '<wbr>'.length + 1 + 100_000);
  });
});
