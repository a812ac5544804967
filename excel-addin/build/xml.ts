/**
 * A small, strict XML reader for the add-in manifest: enough of XML 1.0 to
 * check that a manifest is well formed (one root, nested tags, quoted unique
 * attributes, known entities) and to walk its elements in tests and in the
 * build. No DTDs, no CDATA (manifests have neither: both are rejected).
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
  /** 1-based line of the start tag, for error messages. */
  line: number;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
// A Map, not an object literal: `&constructor;` must be unknown, not Object's own function.
const ENTITIES = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
]);

function decode(s: string, line: number): string {
  return s.replace(/&([^;]*);?/g, (m, ref: string) => {
    if (!m.endsWith(";")) throw new Error(`line ${line}: bare & in text`);
    if (ref.startsWith("#x")) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const entity = ENTITIES.get(ref);
    if (entity === undefined) throw new Error(`line ${line}: unknown entity &${ref};`);
    return entity;
  });
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  let line = 1;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const advance = (n: number) => {
    for (let k = 0; k < n; k++) if (source[i + k] === "\n") line++;
    i += n;
  };
  const fail = (msg: string): never => {
    throw new Error(`line ${line}: ${msg}`);
  };
  if (source.charCodeAt(0) === 0xfeff) i = 1;
  while (i < source.length) {
    const lt = source.indexOf("<", i);
    const text = source.slice(i, lt === -1 ? source.length : lt);
    if (text) {
      const parent = stack.at(-1);
      if (!parent) {
        if (text.trim()) fail("text outside the root element");
      } else parent.text += decode(text, line);
      advance(text.length);
    }
    if (lt === -1) break;
    if (source.startsWith("<?", i)) {
      const end = source.indexOf("?>", i);
      if (end === -1) fail("unterminated processing instruction");
      advance(end + 2 - i);
    } else if (source.startsWith("<!--", i)) {
      const end = source.indexOf("-->", i);
      if (end === -1) fail("unterminated comment");
      // XML 1.0 (production [15]): "--" must not occur inside a comment, nor may it end with "-".
      const body = source.slice(i + 4, end);
      if (body.includes("--") || body.endsWith("-")) {
        advance(4 + Math.max(0, body.indexOf("--")));
        fail('"--" inside a comment (XML forbids it)');
      }
      advance(end + 3 - i);
    } else if (source.startsWith("<!", i)) {
      fail("DOCTYPE and CDATA are not expected in a manifest");
    } else if (source.startsWith("</", i)) {
      const m = NAME.exec(source.slice(i + 2));
      if (!m) fail("bad end tag");
      const name = m![0];
      const close = source.indexOf(">", i);
      if (close === -1 || source.slice(i + 2 + name.length, close).trim()) fail(`bad end tag </${name}`);
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes <${open?.name ?? "nothing"}>`);
      advance(close + 1 - i);
    } else {
      const m = NAME.exec(source.slice(i + 1));
      if (!m) fail("bad start tag");
      const el: XmlElement = { name: m![0], attrs: {}, children: [], text: "", line };
      advance(1 + el.name.length);
      for (;;) {
        const ws = /^\s*/.exec(source.slice(i))![0];
        advance(ws.length);
        if (source.startsWith("/>", i) || source.startsWith(">", i)) break;
        if (!ws) fail(`attributes of <${el.name}> need white space between them`);
        const a =
          /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(source.slice(i)) ??
          fail(`bad attribute in <${el.name}>`);
        // Group 1 always matches; exactly one of the quoted groups 3 and 4 does.
        const [whole, attr = "", , doubleQuoted, singleQuoted = ""] = a;
        // Own keys only: an attribute named "constructor" is not a duplicate.
        if (Object.hasOwn(el.attrs, attr)) fail(`duplicate attribute ${attr} in <${el.name}>`);
        el.attrs[attr] = decode(doubleQuoted ?? singleQuoted, line);
        advance(whole.length);
      }
      const selfClosing = source.startsWith("/>", i);
      advance(selfClosing ? 2 : 1);
      const parent = stack.at(-1);
      if (parent) parent.children.push(el);
      else if (root) fail("a second root element");
      else root = el;
      if (!selfClosing) stack.push(el);
    }
  }
  const unclosed = stack.at(-1);
  if (unclosed) throw new Error(`unclosed <${unclosed.name}>`);
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element below (and including) `el`, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}

/** Local name without a namespace prefix. */
export const localName = (el: XmlElement) => el.name.replace(/^.*:/, "");
