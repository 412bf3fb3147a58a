// XML text for feeds. Element text and attribute values are escaped the same
// way (`&`, `<`, `>`, `"`, `'`), and characters XML 1.0 cannot carry at all
// (C0 controls other than tab, line feed and carriage return; unpaired
// surrogates; U+FFFE and U+FFFF) are dropped: an escape cannot make them
// legal, and one of them in a post would make the whole feed unreadable.

/** Characters outside XML 1.0's Char production. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text made safe as XML element content or a quoted attribute value. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** `<name attr="value">text</name>`, or `<name attr="value"/>` without text; attribute values and text escaped. */
export function element(name: string, attributes: Readonly<Record<string, string>>, text?: string): string {
  let open = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) open += ` ${key}="${xmlText(value)}"`;
  return text === undefined ? `${open}/>` : `${open}>${xmlText(text)}</${name}>`;
}

/** `<name>` around already built child elements. */
export function parent(name: string, attributes: Readonly<Record<string, string>>, children: readonly string[]): string {
  let open = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) open += ` ${key}="${xmlText(value)}"`;
  return `${open}>\n${children.join('\n')}\n</${name}>`;
}
