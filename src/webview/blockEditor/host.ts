// What every part of the block editor's page needs from the page: sending an edit or a message, the
// rate unit the player picked for the block, and which rows are expanded.
import type { BlockEditMessage, EditorGroupView, FromBlockEditor } from '../blockEditorProtocol';
import { PER_UNIT, rate, power, type RateUnit } from '../format';

export interface EditorHost {
  edit(e: BlockEditMessage): void;
  post(m: FromBlockEditor): void;
  unit: RateUnit;
  /** Rows whose detail is shown. */
  isOpen(recipe: string): boolean;
  toggle(recipe: string): void;
}

/** A rate per second as a number in the block's unit (what a field shows). */
export const inUnit = (host: Pick<EditorHost, 'unit'>, perSecond: number): number => Number((perSecond * PER_UNIT[host.unit]).toPrecision(6));

/** A number typed in the block's unit, per second. */
export const perSecondOf = (host: Pick<EditorHost, 'unit'>, n: number): number => n / PER_UNIT[host.unit];

/** A rate in the block's unit; energy (counted in MJ/s) as power, whatever the unit. */
export function amount(host: Pick<EditorHost, 'unit'>, f: { rate: number; energy?: true }): string {
  return f.energy ? power(f.rate * 1e6) : rate(f.rate, host.unit);
}

/** "needs research X" for what is to do; a state in words ("unobtainable (…)", "crafted by hand only") as it stands. */
export const needsPhrase = (needs: string | undefined): string => (!needs ? 'locked' : /^(research |TURD branch |a machine)/.test(needs) ? `needs ${needs}` : needs);

/** The codicon font's lock glyph: options of a native select cannot hold an icon element, but their
 *  text falls back to the codicon font for it (media/block-editor.css). Never an emoji. */
export const LOCK = '\uea75';

type GroupDoc = Extract<BlockEditMessage, { kind: 'group' }>['group'] & object;

/**
 * A group as the document has it, with `recipes` or `composed` replaced: a change in the tab keeps
 * everything set elsewhere (the goal's temperature, made goods, drains from the CLI or the chat).
 */
export function groupDoc(g: EditorGroupView, change: { recipes?: string[]; composed?: EditorGroupView['composed'] | null } = {}): GroupDoc {
  const c = change.composed === undefined ? g.composed : change.composed;
  const keepTemperature = c?.temperature !== undefined && c.good === g.composed?.good;
  return {
    name: g.name,
    recipes: change.recipes ?? g.recipes,
    ...(c ? { composed: { goal: { good: c.good, rate: c.rate, ...(keepTemperature ? { temperature: c.temperature } : {}) }, ...(c.made ? { made: c.made } : {}), ...(c.drains ? { drains: c.drains } : {}) } } : {}),
  };
}
