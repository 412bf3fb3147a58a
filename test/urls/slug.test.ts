import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SLUG_MAX_LENGTH, slugify } from '../../src/urls/slug.ts';
import { MULTILINGUAL_TITLES } from './multilingual-titles.ts';

const SLUG_SHAPE = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/;

describe('slugify: rule 1, non-ASCII is transliterated to readable ASCII', () => {
  it('spells the examples of decisions.md', () => {
    assert.equal(slugify('Часть вторая'), 'chast-vtoraya');
    assert.equal(slugify('日本語'), 'ri-ben-yu');
    assert.equal(slugify('Größe café'), 'grosse-cafe');
  });

  it(`spells ${MULTILINGUAL_TITLES.length} titles in ${new Set(MULTILINGUAL_TITLES.map((t) => t.language)).size} languages conventionally`, () => {
    const wrong = MULTILINGUAL_TITLES.map(({ language, title, slug }) => ({ language, title, expected: slug, actual: slugify(title) })).filter(
      ({ expected, actual }) => expected !== actual,
    );
    assert.deepEqual(wrong, []);
  });

  describe('Russian', () => {
    it('writes я ya, ю yu, щ shch, й y, ё yo, х kh, ц ts, ж zh, ч ch, ш sh, ы y', () => {
      assert.equal(slugify('я ю щ й ё х ц ж ч ш ы'), 'ya-yu-shch-y-yo-kh-ts-zh-ch-sh-y');
    });

    it('drops the soft and hard signs', () => {
      assert.equal(slugify('Объявление: мальчик'), 'obyavlenie-malchik');
    });
  });

  describe('Ukrainian (a title with і, ї, є or ґ)', () => {
    it('writes г as h and и as y', () => {
      assert.equal(slugify('Гриби і гори'), 'hryby-i-hory');
    });

    it('writes є ї й ю я as ye yi y yu ya at the start of a word and ie i i iu ia inside it', () => {
      assert.equal(slugify('Євген їде, йому юний ябко і'), 'yevhen-yide-yomu-yunyi-yabko-i');
      assert.equal(slugify('Моє подвір’я, Україна, Київ'), 'moie-podviria-ukraina-kyiv');
    });

    it('writes зг as zgh so it does not read as ж', () => {
      assert.equal(slugify('Згадка і розгляд'), 'zghadka-i-rozghliad');
    });

    it('reads a title without Ukrainian-only letters the Russian way', () => {
      assert.equal(slugify('Гора'), 'gora');
    });
  });

  describe('German and other Latin letters', () => {
    it('writes ß and ẞ as ss and drops umlauts to their base letter (Größe → grosse)', () => {
      assert.equal(slugify('Fuß GROẞE Ärger Öl Über'), 'fuss-grosse-arger-ol-uber');
    });

    it('writes ligatures and special letters out', () => {
      assert.equal(slugify('Æsir Œuvre Þing ﬁnale Ŋ'), 'aesir-oeuvre-thing-finale-ng');
    });

    it('reads a combining accent as part of its letter', () => {
      assert.equal(slugify('Cafe\u0301 nai\u0308ve'), 'cafe-naive');
    });
  });

  describe('Greek (ELOT 743)', () => {
    it('writes ου ou, χ ch, and αυ/ευ as av/ev before voiced sounds, af/ef before voiceless', () => {
      assert.equal(slugify('Ουρανός χαρά αύριο Ευρώπη ευχαριστώ αυτό'), 'ouranos-chara-avrio-evropi-efcharisto-afto');
    });

    it('keeps a vowel with diaeresis out of a diphthong', () => {
      assert.equal(slugify('Ταΰγετος Πρωτεΐνη'), 'taygetos-proteini');
    });

    it('writes nasal γ as n', () => {
      assert.equal(slugify('Άγγελος Σφίγξ'), 'angelos-sfinx');
    });
  });

  describe('Japanese kana (Hepburn)', () => {
    it('reads contracted sounds and the small tsu', () => {
      assert.equal(slugify('きゃく しゃしん ちょっと じゃま マッチャ'), 'kyaku-shashin-chotto-jama-matcha');
    });

    it('reads katakana loan-word spellings', () => {
      assert.equal(slugify('ファン ティー ウィキ ヴァイオリン チェック ジェット ツァー'), 'fan-ti-wiki-vaiorin-chekku-jetto-tsa');
    });

    it('drops the long-vowel mark and separates hiragana, katakana and kanji', () => {
      assert.equal(slugify('コーヒーが好き'), 'kohi-ga-hao-ki');
    });

    it('reads half-width katakana like full-width', () => {
      assert.equal(slugify('ｶﾀｶﾅ'), 'katakana');
    });
  });

  describe('Korean (Revised Romanization)', () => {
    it('writes ㅊ ch, ㅈ j and final consonants as k/t/p/l/ng', () => {
      assert.equal(slugify('추천 맛집 부엌 밭 앞 강'), 'chucheon-matjip-bueok-bat-ap-gang');
    });

    it('carries a final consonant over to a following silent ㅇ', () => {
      assert.equal(slugify('한국어 좋아요 없어요'), 'hangugeo-joayo-eopseoyo');
    });

    it('writes ㄹㄹ as ll', () => {
      assert.equal(slugify('서울로 달력'), 'seoullo-dallyeok');
    });
  });

  describe('Hindi (Devanagari)', () => {
    it('drops the inherent vowel at the end of a word and between a vowel and a consonant-vowel', () => {
      assert.equal(slugify('किताब कमला सरकार समझना'), 'kitab-kamla-sarkar-samajhna');
    });

    it('keeps the inherent vowel after a conjunct, before a nasal sign and in one-letter words', () => {
      assert.equal(slugify('मित्र नमस्ते संसार न'), 'mitra-namaste-sansar-na');
    });

    it('reads nukta letters and Devanagari digits', () => {
      assert.equal(slugify('ज़िंदगी फ़िल्म २०२४'), 'zindagi-film-2024');
    });

    it('leaves letters outside the Hindi table to the generic fallback (Sindhi ॻ)', () => {
      assert.equal(slugify('ॻाल्हि'), 'galhi');
    });

    it('keeps the final a after a conjunct ending in r, y or v only', () => {
      assert.equal(slugify('चित्र सत्य धर्म शब्द'), 'chitra-satya-dharm-shabd');
    });
  });

  describe('Arabic script', () => {
    it('writes digraphs, alef as a, the article as al- and و/ي between consonants as u/i', () => {
      assert.equal(slugify('الشمس سوريا كبير'), 'al-shms-surya-kbir');
    });

    it('reads Arabic-Indic and Persian digits and Persian letters', () => {
      assert.equal(slugify('٢٠٢٤ ۱۴۰۳ پژوهش گچ'), '2024-1403-pzhuhsh-gch');
    });

    it('reads written short vowels, doubles a consonant under shadda, ignores tatweel and tanwin', () => {
      assert.equal(slugify('مُحَمَّد عـــربي شكرًا'), 'muhammad-rbi-shkra');
    });
  });

  describe('Armenian and Georgian', () => {
    it('writes Armenian ու as u, և as ev, and ե/ո as ye/vo at the start of a word', () => {
      assert.equal(slugify('Երևան Ոսկի ուր'), 'yerevan-voski-ur');
    });

    it('writes Georgian without aspiration marks, upper-case Mtavruli like Mkhedruli', () => {
      assert.equal(slugify('ქართული ᲥᲐᲠᲗᲣᲚᲘ'), 'kartuli-kartuli');
    });
  });

  describe('mixed scripts and digits', () => {
    it('separates a script change inside a word where the scripts have no spaces', () => {
      assert.equal(slugify('iPhone15手机'), 'iphone15-shou-ji');
    });

    it('keeps digits in any script as ASCII digits', () => {
      assert.equal(slugify('Ⅻ ① ２０２４ ²'), 'xii-1-2024-2');
    });

    it('keeps words of different scripts in order', () => {
      assert.equal(slugify('Москва Moscow Μόσχα 莫斯科 모스크바'), 'moskva-moscow-moscha-mo-si-ke-moseukeuba');
    });
  });

  describe('every title with a letter or digit gets a non-empty slug', () => {
    const titles: [string, string][] = [
      ['Tifinagh', 'ⵜⴰⵎⴰⵣⵉⵖⵜ'],
      ['N’Ko', 'ߒߞߏ'],
      ['Ethiopic', 'አማርኛ'],
      ['Cherokee', 'ᏣᎳᎩ'],
      ['Myanmar', 'မြန်မာ'],
      ['Khmer', 'ភាសាខ្មែរ'],
      ['Sinhala', 'සිංහල'],
      ['Tamil', 'தமிழ்'],
      ['Bengali', 'বাংলা'],
      ['Mongolian', 'ᠮᠣᠩᠭᠣᠯ'],
      ['CJK extension A', '㐀㐁'],
      ['CJK extension B', '𠀀'],
      ['a lone modifier letter', 'ー'],
      ['a lone modifier apostrophe', 'ʼ'],
      ['Cuneiform', '𒀀'],
    ];
    for (const [script, title] of titles) {
      it(`gives ${script} (${title}) a slug of the allowed shape`, () => {
        const slug = slugify(title);
        assert.notEqual(slug, '');
        assert.match(slug, SLUG_SHAPE);
      });
    }

    it('names a title no romanization knows by its code points', () => {
      assert.equal(slugify('𒀀'), 'u12000');
    });
  });
});

describe('slugify: rule 2, only a-z, 0-9 and single inner hyphens', () => {
  it('lower-cases', () => {
    assert.equal(slugify('Hello WORLD'), 'hello-world');
  });

  it('turns special characters into hyphens and collapses runs of them', () => {
    assert.equal(slugify('a!!!b???c---d   e/\\f|g'), 'a-b-c-d-e-f-g');
    assert.equal(slugify('What?! <b>Bold</b> & "quoted" — done…'), 'what-b-bold-b-quoted-done');
  });

  it('turns dots and underscores into hyphens, since the dot separates slug and id', () => {
    assert.equal(slugify('config_file.v2.txt'), 'config-file-v2-txt');
    assert.equal(slugify('Node.js 24.1 __init__'), 'node-js-24-1-init');
  });

  it('strips hyphens at both ends', () => {
    assert.equal(slugify('--- Hello ---'), 'hello');
    assert.equal(slugify('¿¡Qué!?'), 'que');
  });

  it('keeps numbers', () => {
    assert.equal(slugify('Top 10 of 2024: 3.5 stars'), 'top-10-of-2024-3-5-stars');
  });

  it('drops apostrophes inside words instead of splitting them', () => {
    assert.equal(slugify("Don't stop rock'n'roll"), 'dont-stop-rocknroll');
    assert.equal(slugify('It’s O`Brien'), 'its-obrien');
  });

  it('treats an emoji between words as a separator', () => {
    assert.equal(slugify('Party🎉time ✨ now'), 'party-time-now');
  });

  it('gives an empty slug to a title of emoji and punctuation only', () => {
    assert.equal(slugify('🎉🎉🎉'), '');
    assert.equal(slugify('👨‍👩‍👧 ❤️ 🇺🇦'), '');
    assert.equal(slugify('?!... --- ___'), '');
    assert.equal(slugify('   '), '');
  });

  it('ignores a soft hyphen inside a word; a zero-width space separates words like a space', () => {
    assert.equal(slugify('soft\u00adware zero\u200bwidth'), 'software-zero-width');
  });

  it('produces only the allowed shape for any input (generated titles)', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const ranges = [
      [0x20, 0x7e],
      [0xa0, 0x24f],
      [0x370, 0x52f],
      [0x530, 0x6ff],
      [0x900, 0x97f],
      [0xe00, 0xe7f],
      [0x10a0, 0x10ff],
      [0x3040, 0x30ff],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
      [0x1f300, 0x1f64f],
    ] as const;
    for (let n = 0; n < 500; n++) {
      let title = '';
      const length = Math.floor(random() * 80);
      for (let i = 0; i < length; i++) {
        const [from, to] = ranges[Math.floor(random() * ranges.length)]!;
        title += String.fromCodePoint(from + Math.floor(random() * (to - from + 1)));
      }
      const slug = slugify(title);
      assert.match(slug, SLUG_SHAPE, `slug of ${JSON.stringify(title)}`);
      assert.ok(slug.length <= SLUG_MAX_LENGTH, `slug of ${JSON.stringify(title)} is ${slug.length} long`);
      assert.equal(slugify(slug), slug, `a slug is its own slug (${JSON.stringify(title)})`);
    }
  });
});

describe('slugify: rule 3, truncated at 50 characters at a word boundary', () => {
  const word = (length: number, letter = 'a') => letter.repeat(length);

  it('keeps a slug of exactly 50 characters', () => {
    const title = `${word(24)} ${word(25, 'b')}`;
    assert.equal(slugify(title).length, 50);
    assert.equal(slugify(title), `${word(24)}-${word(25, 'b')}`);
  });

  it('cuts at 50 when the 51st character is a hyphen (the cut is between words)', () => {
    assert.equal(slugify(`${word(20)} ${word(29, 'b')} ccc`), `${word(20)}-${word(29, 'b')}`);
  });

  it('drops the trailing hyphen when the 50th character is one', () => {
    assert.equal(slugify(`${word(20)} ${word(28, 'b')} ccc`), `${word(20)}-${word(28, 'b')}`);
  });

  it('moves a cut inside a word back to the last hyphen past the middle', () => {
    // 30 + 1 + 25: the cut at 50 falls inside the second word; the hyphen is at position 31
    assert.equal(slugify(`${word(30)} ${word(25, 'b')}`), word(30));
    assert.equal(slugify('The quick brown fox jumps over the lazy dog and keeps running'), 'the-quick-brown-fox-jumps-over-the-lazy-dog-and');
  });

  it('moves back to a hyphen that leaves exactly half (25 characters)', () => {
    assert.equal(slugify(`${word(25)} ${word(40, 'b')}`), word(25));
  });

  it('cuts a word where the limit falls when the last hyphen is before the middle', () => {
    assert.equal(slugify(`${word(24)} ${word(40, 'b')}`), `${word(24)}-${word(25, 'b')}`);
  });

  it('cuts a long word without hyphens at 50', () => {
    assert.equal(slugify(word(120)), word(50));
    assert.equal(
      slugify('Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft'),
      'donaudampfschifffahrtselektrizitatenhauptbetriebsw',
    );
  });

  it('counts the characters of the slug, not of the title', () => {
    // a 49-character title whose romanization is 58 characters long (щ is shch)
    const title = 'Щедрый щавель и борщ с пампушками на обед сегодня';
    assert.equal([...title].length, 49);
    assert.equal(slugify(title), 'shchedryy-shchavel-i-borshch-s-pampushkami-na-obed');
  });

  it('truncates long non-Latin titles too, with the same shape', () => {
    const slug = slugify('如何学习中文如何学习中文如何学习中文如何学习中文');
    assert.ok(slug.length <= 50);
    assert.match(slug, SLUG_SHAPE);
    assert.ok(slug.startsWith('ru-he-xue-xi-zhong-wen-ru-he'));
  });
});

describe('slugify: rule 4, an empty title gives an empty slug', () => {
  it('returns an empty slug for an empty title', () => {
    assert.equal(slugify(''), '');
  });
});
