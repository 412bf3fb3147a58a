// Armenian → ASCII after BGN/PCGN: the package writes ու as "ow" and և as "ew"
// (Երևան → "erewan"); the usual spelling is u, ev, and ye/vo at the start of a
// word (Երևան → yerevan, Ոսկի → voski). Input is lower case and NFKC, which
// has already split the ligature և into ե + ւ.

const LETTERS: Readonly<Record<string, string>> = {
  ա: 'a',
  բ: 'b',
  գ: 'g',
  դ: 'd',
  ե: 'e',
  զ: 'z',
  է: 'e',
  ը: 'y',
  թ: 't',
  ժ: 'zh',
  ի: 'i',
  լ: 'l',
  խ: 'kh',
  ծ: 'ts',
  կ: 'k',
  հ: 'h',
  ձ: 'dz',
  ղ: 'gh',
  ճ: 'ch',
  մ: 'm',
  յ: 'y',
  ն: 'n',
  շ: 'sh',
  ո: 'o',
  չ: 'ch',
  պ: 'p',
  ջ: 'j',
  ռ: 'r',
  ս: 's',
  վ: 'v',
  տ: 't',
  ր: 'r',
  ց: 'ts',
  ւ: 'v',
  փ: 'p',
  ք: 'k',
  օ: 'o',
  ֆ: 'f',
};

const WORD_START: Readonly<Record<string, string>> = { ե: 'ye', ո: 'vo' };

export const ARMENIAN_RUN = '[\\u0531-\\u0556\\u0560-\\u0588]+';

/** Romanizes one run (a word) of Armenian letters. */
export function romanizeArmenian(run: string): string {
  let out = '';
  for (let i = 0; i < run.length; i++) {
    const ch = run[i]!;
    if (ch === 'ո' && run[i + 1] === 'ւ') {
      out += 'u';
      i++;
    } else {
      out += (i === 0 ? WORD_START[ch] : undefined) ?? LETTERS[ch] ?? ch;
    }
  }
  return out;
}
