// Just enough of the DOM for the side panel's element builder (createElement/NS, text nodes,
// attributes, children, click listeners), so cards can be rendered and clicked in a unit test.
export class FakeNode {
  parentNode: FakeElement | null = null;
  constructor(readonly text = '') {}
  get textContent(): string {
    return this.text;
  }
}

export class FakeElement extends FakeNode {
  readonly attrs = new Map<string, string>();
  readonly childNodes: FakeNode[] = [];
  private readonly listeners = new Map<string, Array<(e: unknown) => void>>();
  private ownText = '';
  constructor(readonly tagName: string) {
    super();
  }
  setAttribute(k: string, v: string): void {
    this.attrs.set(k, v);
  }
  getAttribute(k: string): string | null {
    return this.attrs.get(k) ?? null;
  }
  appendChild<T extends FakeNode>(c: T): T {
    c.parentNode = this;
    this.childNodes.push(c);
    return c;
  }
  addEventListener(type: string, l: (e: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  click(): void {
    for (const l of this.listeners.get('click') ?? []) l({});
  }
  /** Fire an event the page would (an image's `error`). */
  dispatch(type: string): void {
    for (const l of this.listeners.get(type) ?? []) l({});
  }
  replaceWith(n: FakeNode): void {
    const p = this.parentNode;
    if (!p) return;
    p.childNodes[p.childNodes.indexOf(this)] = n;
    n.parentNode = p;
    this.parentNode = null;
  }
  remove(): void {
    const p = this.parentNode;
    if (!p) return;
    p.childNodes.splice(p.childNodes.indexOf(this), 1);
    this.parentNode = null;
  }
  override get textContent(): string {
    return this.ownText + this.childNodes.map((c) => c.textContent).join('');
  }
  override set textContent(t: string) {
    this.ownText = t;
  }
  /** Every descendant element, depth first. */
  all(): FakeElement[] {
    return this.childNodes.flatMap((c) => (c instanceof FakeElement ? [c, ...c.all()] : []));
  }
}

export function installFakeDom(): () => void {
  const g = globalThis as { document?: unknown };
  const before = g.document;
  g.document = {
    createElement: (tag: string) => new FakeElement(tag),
    createElementNS: (_ns: string, tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => new FakeNode(text),
  };
  return () => {
    g.document = before;
  };
}
