// Realistic forum titles in many scripts with the slug each must get. The unit
// tests check every row; bench/slug.ts measures speed and compares packages on
// the same titles. `note` marks rows whose slug is the best a table can do
// without a dictionary (abjads without vowels, Thai), kept as regressions.

export interface TitleCase {
  language: string;
  title: string;
  slug: string;
  note?: string;
}

export const MULTILINGUAL_TITLES: readonly TitleCase[] = [
  // Latin with diacritics
  { language: 'German', title: 'Wie messe ich die Größe meines Aquariums?', slug: 'wie-messe-ich-die-grosse-meines-aquariums' },
  { language: 'German', title: 'Straßenbahn in München: Übersicht der Linien', slug: 'strassenbahn-in-munchen-ubersicht-der-linien' },
  { language: 'French', title: 'Café au lait ou crème brûlée ? Les préférences', slug: 'cafe-au-lait-ou-creme-brulee-les-preferences' },
  { language: 'French', title: 'L’Œuvre d’art « naïve » à Besançon', slug: 'loeuvre-dart-naive-a-besancon' },
  { language: 'Polish', title: 'Zażółć gęślą jaźń – test polskich znaków', slug: 'zazolc-gesla-jazn-test-polskich-znakow' },
  { language: 'Polish', title: 'Łódź: gdzie zjeść pierogi?', slug: 'lodz-gdzie-zjesc-pierogi' },
  { language: 'Czech', title: 'Příliš žluťoučký kůň úpěl ďábelské ódy', slug: 'prilis-zlutoucky-kun-upel-dabelske-ody' },
  { language: 'Turkish', title: 'İstanbul’da en iyi kahvaltı nerede?', slug: 'istanbulda-en-iyi-kahvalti-nerede' },
  { language: 'Turkish', title: 'Şişli ve Beşiktaş arasında ulaşım', slug: 'sisli-ve-besiktas-arasinda-ulasim' },
  { language: 'Vietnamese', title: 'Tiếng Việt: Hướng dẫn cài đặt phần mềm', slug: 'tieng-viet-huong-dan-cai-dat-phan-mem' },
  { language: 'Vietnamese', title: 'Phở bò Hà Nội ngon nhất', slug: 'pho-bo-ha-noi-ngon-nhat' },
  { language: 'Spanish', title: 'Ñandú y pingüino en España', slug: 'nandu-y-pinguino-en-espana' },
  { language: 'Danish', title: 'Ærø og Ødegaard på Åland', slug: 'aero-og-odegaard-pa-aland' },
  { language: 'Icelandic', title: 'Íslenska: Þórður og Ðá', slug: 'islenska-thordur-og-da' },
  { language: 'Azerbaijani', title: 'Azərbaycan dili', slug: 'azerbaycan-dili' },
  // Cyrillic
  { language: 'Russian', title: 'Часть вторая', slug: 'chast-vtoraya' },
  { language: 'Russian', title: 'Щука, ёж и йогурт — объявление', slug: 'shchuka-yozh-i-yogurt-obyavlenie' },
  { language: 'Russian', title: 'Подъезд и съёмная квартира: советы', slug: 'podezd-i-syomnaya-kvartira-sovety' },
  { language: 'Russian', title: 'Хочу цветы и чай', slug: 'khochu-tsvety-i-chay' },
  { language: 'Ukrainian', title: 'Як доїхати до Києва зі Львова?', slug: 'yak-doikhaty-do-kyieva-zi-lvova' },
  { language: 'Ukrainian', title: 'Їжачок і ґанок: українська мова', slug: 'yizhachok-i-ganok-ukrainska-mova' },
  { language: 'Serbian', title: 'Ђурђевдан у Београду', slug: 'djurdjevdan-u-beogradu' },
  // Greek
  { language: 'Greek', title: 'Ελληνική κουζίνα: συνταγές', slug: 'elliniki-kouzina-syntages' },
  { language: 'Greek', title: 'Αθήνα ή Θεσσαλονίκη;', slug: 'athina-i-thessaloniki' },
  { language: 'Greek', title: 'Ευρώπη: αυτό είναι το θέμα', slug: 'evropi-afto-einai-to-thema' },
  // Chinese (pinyin, one syllable per character)
  { language: 'Chinese', title: '日本語', slug: 'ri-ben-yu' },
  { language: 'Chinese', title: '如何学习中文？', slug: 'ru-he-xue-xi-zhong-wen' },
  { language: 'Chinese', title: '北京烤鸭的做法', slug: 'bei-jing-kao-ya-de-zuo-fa' },
  { language: 'Chinese', title: 'Vue3教程：组件入门', slug: 'vue3-jiao-cheng-zu-jian-ru-men' },
  // Japanese kana (kanji read as pinyin, like 日本語)
  { language: 'Japanese', title: 'ひらがなとカタカナの練習', slug: 'hiraganato-katakana-no-lian-xi' },
  { language: 'Japanese', title: 'ラーメン・ガイド 2024', slug: 'ramen-gaido-2024' },
  { language: 'Japanese', title: 'ちょっと まっちゃ', slug: 'chotto-matcha' },
  { language: 'Japanese', title: 'ファイル共有ソフト', slug: 'fairu-gong-you-sofuto' },
  // Korean
  { language: 'Korean', title: '한국어 게시판', slug: 'hangugeo-gesipan' },
  { language: 'Korean', title: '서울 맛집 추천', slug: 'seoul-matjip-chucheon' },
  { language: 'Korean', title: '안녕하세요, 대한민국!', slug: 'annyeonghaseyo-daehanminguk' },
  // Arabic script
  { language: 'Arabic', title: 'مرحبا بالعالم', slug: 'mrhba-balalm', note: 'short vowels are not written' },
  { language: 'Arabic', title: 'تعلم اللغة العربية', slug: 'tlm-al-lgha-al-rbya', note: 'short vowels are not written' },
  { language: 'Persian', title: 'زبان فارسی', slug: 'zban-farsi', note: 'short vowels are not written' },
  // Hebrew
  { language: 'Hebrew', title: 'שלום עולם', slug: 'shlvm-vlm', note: 'vowels are not written' },
  { language: 'Hebrew', title: 'חדשות ישראל', slug: 'khdshvt-yshrl', note: 'vowels are not written' },
  // Thai
  { language: 'Thai', title: 'ภาษาไทย', slug: 'phasa-aithy', note: 'letter by letter; RTGS would be phasa-thai' },
  { language: 'Thai', title: 'สวัสดีครับ', slug: 'swasdi-khrab', note: 'letter by letter; RTGS would be sawatdi-khrap' },
  // Devanagari
  { language: 'Hindi', title: 'हिन्दी समाचार', slug: 'hindi-samachar' },
  { language: 'Hindi', title: 'भारत की राजधानी दिल्ली है', slug: 'bharat-ki-rajdhani-dilli-hai' },
  // Georgian
  { language: 'Georgian', title: 'ქართული ენა', slug: 'kartuli-ena' },
  { language: 'Georgian', title: 'თბილისის ამინდი', slug: 'tbilisis-amindi' },
  // Armenian
  { language: 'Armenian', title: 'Հայերեն լեզու', slug: 'hayeren-lezu' },
  { language: 'Armenian', title: 'Երևան քաղաք', slug: 'yerevan-kaghak' },
  // Mixed scripts
  { language: 'Russian + English', title: 'Windows 11 в России', slug: 'windows-11-v-rossii' },
  { language: 'Russian + symbols', title: 'C++ & C#: что выбрать?', slug: 'c-c-chto-vybrat' },
];
