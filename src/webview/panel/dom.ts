// A tiny element builder for the side panel. Text always goes in as text nodes (never innerHTML):
// names and answers come from game data and the model.
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Array<Child | Child[]>): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs | null, ...children: Array<Child | Child[]>): HTMLElement;
export function h(tag: string, attrs?: Attrs | null, ...children: Array<Child | Child[]>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v as EventListener);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Array<Child | Child[]>): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** A codicon (decorative unless labelled). */
export function icon(name: string, label?: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? undefined : 'true', 'aria-label': label, role: label ? 'img' : undefined });
}

/**
 * A game icon when there is one, else the codicon `fallback` (or nothing). A picture that fails to
 * load (the cache was cleared meanwhile) turns into the fallback instead of a broken image.
 */
export function picture(src: string | undefined, fallback?: string): HTMLElement | null {
  if (!src) return fallback ? icon(fallback) : null;
  const img = h('img', { class: 'game-icon', src, alt: '', width: 16, height: 16, 'aria-hidden': 'true' });
  img.addEventListener('error', () => img.replaceWith(fallback ? icon(fallback) : document.createTextNode('')), { once: true });
  return img;
}

/** A VS Code-styled button. */
export function button(label: string, onClick: () => void, opts: { icon?: string; secondary?: boolean; disabled?: boolean; title?: string; iconOnly?: boolean; key?: string } = {}): HTMLElement {
  const b = h('vscode-button', {
    icon: opts.icon,
    secondary: opts.secondary,
    disabled: opts.disabled,
    title: opts.title ?? (opts.iconOnly ? label : undefined),
    'aria-label': opts.iconOnly || opts.title ? label : undefined,
    'icon-only': opts.iconOnly,
    'data-focus-key': opts.key,
    onclick: () => {
      if (!(b as HTMLElement & { disabled?: boolean }).disabled) onClick();
    },
  }, opts.iconOnly ? null : label);
  return b;
}

export function badge(text: string, kind: 'ok' | 'warn' | 'error' | 'info' = 'info'): HTMLElement {
  return h('span', { class: `badge badge-${kind}` }, text);
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
