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

/** Where the reader stands in the source: the index and the line it is on (for error messages). */
class Cursor {
  i = 0;
  line = 1;
  constructor(readonly source: string) {}
  advance(n: number): void {
    for (let k = 0; k < n; k++) if (this.source[this.i + k] === "\n") this.line++;
    this.i += n;
  }
  fail(msg: string): never {
    throw new Error(`line ${this.line}: ${msg}`);
  }
  at(s: string): boolean {
    return this.source.startsWith(s, this.i);
  }
}

/** What the parse has built so far: the open elements (innermost last) and the root once seen. */
interface Tree {
  stack: XmlElement[];
  root: XmlElement | undefined;
}

export function parseXml(source: string): XmlElement {
  const c = new Cursor(source);
  const tree: Tree = { stack: [], root: undefined };
  if (source.charCodeAt(0) === 0xfeff) c.i = 1;
  while (c.i < source.length) {
    const lt = source.indexOf("<", c.i);
    readText(c, tree, lt === -1 ? source.length : lt);
    if (lt === -1) break;
    readMarkup(c, tree);
  }
  const unclosed = tree.stack.at(-1);
  if (unclosed) throw new Error(`unclosed <${unclosed.name}>`);
  if (!tree.root) throw new Error("no root element");
  return tree.root;
}

/** Text up to `end` goes to the open element; outside the root only white space is allowed. */
function readText(c: Cursor, tree: Tree, end: number): void {
  const text = c.source.slice(c.i, end);
  if (!text) return;
  const parent = tree.stack.at(-1);
  if (!parent) {
    if (text.trim()) c.fail("text outside the root element");
  } else parent.text += decode(text, c.line);
  c.advance(text.length);
}

/** One piece of markup starting at "<": a processing instruction, comment, end tag or start tag. */
function readMarkup(c: Cursor, tree: Tree): void {
  if (c.at("<?")) {
    const end = c.source.indexOf("?>", c.i);
    if (end === -1) c.fail("unterminated processing instruction");
    c.advance(end + 2 - c.i);
  } else if (c.at("<!--")) skipComment(c);
  else if (c.at("<!")) c.fail("DOCTYPE and CDATA are not expected in a manifest");
  else if (c.at("</")) readEndTag(c, tree);
  else readStartTag(c, tree);
}

function skipComment(c: Cursor): void {
  const end = c.source.indexOf("-->", c.i);
  if (end === -1) c.fail("unterminated comment");
  // XML 1.0 (production [15]): "--" must not occur inside a comment, nor may it end with "-".
  const body = c.source.slice(c.i + 4, end);
  if (body.includes("--") || body.endsWith("-")) {
    c.advance(4 + Math.max(0, body.indexOf("--")));
    c.fail('"--" inside a comment (XML forbids it)');
  }
  c.advance(end + 3 - c.i);
}

/** An end tag must close the innermost open element. */
function readEndTag(c: Cursor, tree: Tree): void {
  const m = NAME.exec(c.source.slice(c.i + 2));
  if (!m) c.fail("bad end tag");
  const name = m[0];
  const close = c.source.indexOf(">", c.i);
  if (close === -1 || c.source.slice(c.i + 2 + name.length, close).trim()) c.fail(`bad end tag </${name}`);
  const open = tree.stack.pop();
  if (!open || open.name !== name) c.fail(`</${name}> closes <${open?.name ?? "nothing"}>`);
  c.advance(close + 1 - c.i);
}

/** A start tag (or empty-element tag): the element joins its parent, or becomes the one root. */
function readStartTag(c: Cursor, tree: Tree): void {
  const m = NAME.exec(c.source.slice(c.i + 1));
  if (!m) c.fail("bad start tag");
  const el: XmlElement = { name: m[0], attrs: {}, children: [], text: "", line: c.line };
  c.advance(1 + el.name.length);
  readAttributes(c, el);
  const selfClosing = c.at("/>");
  c.advance(selfClosing ? 2 : 1);
  const parent = tree.stack.at(-1);
  if (parent) parent.children.push(el);
  else if (tree.root) c.fail("a second root element");
  else tree.root = el;
  if (!selfClosing) tree.stack.push(el);
}

/** The attributes of `el`'s start tag, up to (not past) its closing "/>" or ">". */
function readAttributes(c: Cursor, el: XmlElement): void {
  for (;;) {
    const ws = /^\s*/.exec(c.source.slice(c.i))![0];
    c.advance(ws.length);
    if (c.at("/>") || c.at(">")) break;
    if (!ws) c.fail(`attributes of <${el.name}> need white space between them`);
    const a =
      /^([A-Za-z_][\w.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(c.source.slice(c.i)) ??
      c.fail(`bad attribute in <${el.name}>`);
    // Group 1 always matches; exactly one of the quoted groups 3 and 4 does.
    const [whole, attr = "", , doubleQuoted, singleQuoted = ""] = a;
    // Own keys only: an attribute named "constructor" is not a duplicate.
    if (Object.hasOwn(el.attrs, attr)) c.fail(`duplicate attribute ${attr} in <${el.name}>`);
    el.attrs[attr] = decode(doubleQuoted ?? singleQuoted, c.line);
    c.advance(whole.length);
  }
}

/** Every element below (and including) `el`, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}

/** Local name without a namespace prefix. */
export const localName = (el: XmlElement) => el.name.replace(/^.*:/, "");
