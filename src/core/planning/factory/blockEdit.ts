// One edit of a block as the block editor makes it: a small, named change to the block document
// (a goal's rate or stock, a row's machine, fuel, modules, beacons, pin, fluid temperatures or reactor
// layout, a row added or removed, a good made or drained, a share pin, a spoil rate, a campaign, a row
// group), solved once and saved as one undoable action with stale-save protection. The editor, tests
// and the benchmark all go through here, so "an edit re-solves in time" is measured on the real path.
import type { Project } from '../../db/project';
import type { SolveResult } from '../solver/result';
import type { PlanningContext } from '../context';
import type { GameIndex } from '../gameIndex';
import type { BeaconConfig, ModuleCount } from '../effects';
import { drainGood, goalGoods, parseBlockDoc, type BlockDoc, type Goal, type Row, type RowGroup } from '../block/document';
import type { Campaign } from '../block/campaign';
import { mergeModules, rowBeaconsMisfit, rowModulesMisfit, rowTarget, type RowTarget } from '../moduleFit';
import { describeModules, getPreset, type ModulePreset } from '../modulePresets';
import { BlockError, getBlock, saveBlock, trySolve, type BlockRecord, type BlockSolver } from './blocks';

export type BlockEdit =
  | { kind: 'rename'; name: string }
  | { kind: 'goal-add'; good: string; rate: number; direction?: 'produce' | 'consume' }
  /** Sets a rate; a stock goal becomes a rate goal. */
  | { kind: 'goal-rate'; index: number; rate: number }
  /** Make `amount` within `window` seconds; a rate goal becomes a stock goal. */
  | { kind: 'goal-stock'; index: number; amount: number; window: number }
  | { kind: 'goal-remove'; index: number }
  /** `makes`: the good the recipe is added to make (a goal's or an import's maker): it is required made inside in the same edit. */
  | { kind: 'row-add'; recipe: string; makes?: string }
  /** Several rows at once, each for the good it makes (chain completion: complete.ts, blockCompletion). */
  | { kind: 'rows-add'; rows: Array<{ recipe: string; makes: string }> }
  | { kind: 'row-remove'; recipe: string }
  | { kind: 'row-disable'; recipe: string; disabled: boolean }
  | { kind: 'row-machine'; recipe: string; machine: string | null }
  | { kind: 'row-fuel'; recipe: string; fuel: string | null }
  /** The row's machine modules ([] clears them). */
  | { kind: 'row-modules'; recipe: string; modules: ModuleCount[] }
  /** The row's beacon configurations ([] clears them). */
  | { kind: 'row-beacons'; recipe: string; beacons: BeaconConfig[] }
  /** A module preset's modules and beacons, copied onto the row. */
  | { kind: 'row-preset'; recipe: string; preset: string }
  /** Exactly (`count`) or at most (`cap`) N buildings for the row; null removes the pin. */
  | { kind: 'row-pin'; recipe: string; pin: { kind: 'count' | 'cap'; buildings: number } | null }
  | { kind: 'good-made'; good: string; on: boolean }
  | { kind: 'good-drain'; good: string; on: boolean }
  /** The row takes `share` (0–1) of what the block makes of `good` (of the remainder, or of the total); null removes it. */
  | { kind: 'pin-share'; recipe: string; good: string; share: { share: number; base: 'remaining' | 'total' } | null }
  /** The temperature the row takes a fluid ingredient at (one produced temperature); null: any it accepts. */
  | { kind: 'row-temperature'; recipe: string; fluid: string; temperature: number | null }
  /** Reactor arrangement x by y for the neighbour bonus; null removes it. */
  | { kind: 'row-reactor'; recipe: string; layout: { x: number; y: number } | null }
  /** What of `good` rots per second (its spoil result becomes a byproduct); null removes it. */
  | { kind: 'spoil-rate'; good: string; rate: number | null }
  /** The block's campaign ("make N within T"); null removes it. */
  | { kind: 'campaign'; campaign: Campaign | null }
  /** Adds a row group, or replaces the one named `name` (renamed to `group.name`); `group` null removes it. */
  | { kind: 'group'; name?: string; group: RowGroup | null };

export interface AppliedEdit {
  doc: BlockDoc;
  name?: string;
  /** What Undo will say, e.g. `Set goal Iron plate to 2/s in "Smelting"`. */
  label: string;
}

/** What an edit may need beyond the document: names to show, the game data to check modules and beacons against, presets. */
export interface EditContext {
  display?: (name: string) => string;
  planning?: Pick<PlanningContext, 'g' | 'availability'>;
  preset?: (id: string) => ModulePreset;
}

const num = (r: number) => String(Number(r.toPrecision(4)));
const rateText = (r: number) => `${num(r)}/s`;
const buildingsText = (n: number) => `${num(n)} building${n === 1 ? '' : 's'}`;

/** The document after `edit`, with the words for Undo; throws a BlockError a user can act on. */
export function applyBlockEdit(b: Pick<BlockRecord, 'name' | 'doc'>, edit: BlockEdit, ec: EditContext = {}): AppliedEdit {
  const display = ec.display ?? ((n: string) => n);
  const doc: BlockDoc = structuredClone(b.doc);
  const inBlock = ` in "${b.name}"`;
  /** The row's recipe and machine, to check modules and beacons against (refused without game data). */
  const target = (r: Row): RowTarget & { g: GameIndex } => {
    if (!ec.planning) throw new BlockError('Modules and beacons are checked against the game data; import it first.', 'invalid');
    const t = rowTarget(ec.planning.g, ec.planning.availability, r);
    if (typeof t === 'string') throw new BlockError(`${display(r.recipe)}: ${t}.`, 'invalid');
    return { ...t, g: ec.planning.g };
  };
  const setModules = (r: Row, modules: ModuleCount[]) => {
    const merged = mergeModules(modules);
    const t = target(r);
    const why = rowModulesMisfit(t.g, t, merged);
    if (why) throw new BlockError(`${why}.`, 'invalid');
    if (merged.length) r.modules = merged;
    else delete r.modules;
  };
  const setBeacons = (r: Row, beacons: BeaconConfig[]) => {
    const live = beacons.filter((x) => x.count > 0).map((x) => ({ ...x, modules: mergeModules(x.modules) }));
    const t = target(r);
    const why = rowBeaconsMisfit(t.g, t, live);
    if (why) throw new BlockError(`${why}.`, 'invalid');
    if (live.length) r.beacons = live;
    else delete r.beacons;
  };
  const row = (recipe: string) => {
    const r = doc.recipes.find((x) => x.recipe === recipe);
    if (!r) throw new BlockError(`"${b.name}" has no row for recipe ${recipe}; reload the editor.`, 'invalid');
    return r;
  };
  const goal = (index: number): Goal => {
    const g = doc.goals[index];
    if (!g) throw new BlockError(`"${b.name}" has no goal number ${index + 1}; reload the editor.`, 'invalid');
    return g;
  };
  switch (edit.kind) {
    case 'rename': {
      const name = edit.name.trim();
      if (!name) throw new BlockError('A block needs a name.', 'invalid');
      return { doc, name, label: `Rename block "${b.name}" to "${name}"` };
    }
    case 'goal-add': {
      if (doc.goals.some((g) => g.good === edit.good)) throw new BlockError(`"${b.name}" already has a goal for ${display(edit.good)}; change its rate instead.`, 'invalid');
      const consume = edit.direction === 'consume';
      doc.goals.push({ good: edit.good, rate: Math.abs(edit.rate), ...(consume ? { direction: 'consume' as const } : {}) });
      return { doc, label: consume ? `Add goal: take ${display(edit.good)} ${rateText(Math.abs(edit.rate))}${inBlock}` : `Add goal ${display(edit.good)} ${rateText(edit.rate)}${inBlock}` };
    }
    case 'goal-rate': {
      const g = goal(edit.index);
      const wasStock = !!g.stock;
      delete g.stock;
      // The sign says the direction; keep the goal's own direction when it has one.
      g.rate = g.direction === 'consume' ? Math.abs(edit.rate) : edit.rate;
      return { doc, label: `Set goal ${display(g.good)} to ${rateText(edit.rate)}${wasStock ? ' (was a stock goal)' : ''}${inBlock}` };
    }
    case 'goal-stock': {
      const g = goal(edit.index);
      if (g.direction === 'consume' || (g.rate ?? 0) < 0) throw new BlockError(`The goal for ${display(g.good)} takes it in; a stock goal makes an amount. Remove the goal and add one that makes it.`, 'invalid');
      if (!(edit.amount > 0) || !(edit.window > 0)) throw new BlockError('A stock goal needs an amount and a time window above zero.', 'invalid');
      g.stock = { amount: edit.amount, window: edit.window };
      // The rate follows from the stock; a kept rate would come back unnoticed on switching back.
      delete g.rate;
      return { doc, label: `Set goal ${display(g.good)} to ${num(edit.amount)} within ${num(edit.window)} s${inBlock}` };
    }
    case 'goal-remove': {
      const g = goal(edit.index);
      doc.goals.splice(edit.index, 1);
      return { doc, label: `Remove goal ${display(g.good)}${inBlock}` };
    }
    case 'row-add': {
      if (doc.recipes.some((r) => r.recipe === edit.recipe)) throw new BlockError(`"${b.name}" already has ${display(edit.recipe)}.`, 'invalid');
      doc.recipes.push({ recipe: edit.recipe });
      // A maker added for a good the block imports would otherwise stay idle: importing is always
      // cheaper than making, so the good must be required made inside for the row to run. A goal's
      // good is made by the goal itself; a recipe that does not make the good leaves `made` alone.
      const makes = edit.makes;
      const rec = ec.planning?.g.recipes.get(edit.recipe);
      const makesIt = !!makes && (!rec || rec.products.some((x) => x.name === makes && x.amount * x.probability > 0));
      if (makes && makesIt && !doc.made.includes(makes) && !goalGoods(doc).includes(makes)) {
        doc.made.push(makes);
        const good = display(makes) === display(edit.recipe) ? 'it' : display(makes);
        return { doc, label: `Add recipe ${display(edit.recipe)} and make ${good} inside${inBlock}` };
      }
      return { doc, label: `Add recipe ${display(edit.recipe)}${inBlock}` };
    }
    case 'rows-add': {
      const fresh = edit.rows.filter((x, i) => !doc.recipes.some((r) => r.recipe === x.recipe) && edit.rows.findIndex((y) => y.recipe === x.recipe) === i);
      if (!fresh.length) throw new BlockError(`"${b.name}" already has every one of those recipes.`, 'invalid');
      const goals = goalGoods(doc);
      for (const x of fresh) {
        doc.recipes.push({ recipe: x.recipe });
        // As for one added maker (row-add): the good it was added for is made inside, or the row idles.
        if (!goals.includes(x.makes) && !doc.made.includes(x.makes)) doc.made.push(x.makes);
      }
      const names = fresh.slice(0, 3).map((x) => display(x.recipe)).join(', ');
      const more = fresh.length > 3 ? ` and ${fresh.length - 3} more` : '';
      return { doc, label: `Complete the chain: add ${fresh.length === 1 ? 'recipe' : `${fresh.length} recipes`} ${names}${more}${inBlock}` };
    }
    case 'row-remove':
      row(edit.recipe);
      doc.recipes = doc.recipes.filter((r) => r.recipe !== edit.recipe);
      // Pins and group memberships of a removed row would only fail the next solve.
      doc.pins = doc.pins.filter((p) => p.recipe !== edit.recipe);
      if (doc.groups) {
        const groups = doc.groups.map((x) => ({ ...x, recipes: x.recipes.filter((r) => r !== edit.recipe) })).filter((x) => x.recipes.length);
        if (groups.length) doc.groups = groups;
        else delete doc.groups;
      }
      return { doc, label: `Remove recipe ${display(edit.recipe)}${inBlock}` };
    case 'row-disable': {
      const r = row(edit.recipe);
      if (edit.disabled) r.disabled = true;
      else delete r.disabled;
      return { doc, label: `${edit.disabled ? 'Disable' : 'Enable'} recipe ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-machine': {
      const r = row(edit.recipe);
      if (edit.machine) r.machine = edit.machine;
      else delete r.machine;
      // Fuel was chosen for the old machine; the solver's default fits the new one. Modules and
      // beacons stay when they fit the new machine too (a faster tier with the same slots), else go.
      delete r.fuel;
      const t = ec.planning ? rowTarget(ec.planning.g, ec.planning.availability, r) : 'no game data';
      if (typeof t === 'string' || (r.modules && rowModulesMisfit(ec.planning!.g, t, r.modules))) delete r.modules;
      if (typeof t === 'string' || (r.beacons && rowBeaconsMisfit(ec.planning!.g, t, r.beacons))) delete r.beacons;
      return { doc, label: edit.machine ? `Use ${display(edit.machine)} for ${display(edit.recipe)}${inBlock}` : `Default machine for ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-fuel': {
      const r = row(edit.recipe);
      if (edit.fuel) r.fuel = edit.fuel;
      else delete r.fuel;
      return { doc, label: edit.fuel ? `Burn ${display(edit.fuel)} in ${display(edit.recipe)}${inBlock}` : `Default fuel for ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-modules': {
      const r = row(edit.recipe);
      setModules(r, edit.modules);
      return { doc, label: r.modules ? `Set modules of ${display(edit.recipe)} to ${describeModules(display, { modules: r.modules, beacons: [] })}${inBlock}` : `Clear modules of ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-beacons': {
      const r = row(edit.recipe);
      setBeacons(r, edit.beacons);
      return { doc, label: r.beacons ? `Set beacons of ${display(edit.recipe)} to ${describeModules(display, { modules: [], beacons: r.beacons })}${inBlock}` : `Clear beacons of ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-preset': {
      const r = row(edit.recipe);
      if (!ec.preset) throw new BlockError('Module presets are read from the project; apply the preset from the block editor.', 'invalid');
      const preset = ec.preset(edit.preset);
      try {
        setModules(r, preset.modules);
        setBeacons(r, preset.beacons);
      } catch (err) {
        throw err instanceof BlockError ? new BlockError(`Preset "${preset.name}" does not fit ${display(edit.recipe)}: ${err.message}`, 'invalid') : err;
      }
      return { doc, label: `Apply module preset "${preset.name}" to ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-pin': {
      row(edit.recipe);
      // One building pin per row: exactly and at most exclude each other. Share pins stay.
      doc.pins = doc.pins.filter((p) => p.recipe !== edit.recipe || p.kind === 'share');
      if (!edit.pin) return { doc, label: `Unpin the buildings of ${display(edit.recipe)}${inBlock}` };
      if (!(edit.pin.buildings >= 0) || !Number.isFinite(edit.pin.buildings)) throw new BlockError('A pin needs a number of buildings, 0 or more.', 'invalid');
      doc.pins.push({ kind: edit.pin.kind, recipe: edit.recipe, buildings: edit.pin.buildings });
      return { doc, label: `${edit.pin.kind === 'count' ? `Pin ${display(edit.recipe)} to exactly` : `Cap ${display(edit.recipe)} at`} ${buildingsText(edit.pin.buildings)}${inBlock}` };
    }
    case 'good-made': {
      doc.made = doc.made.filter((g) => g !== edit.good);
      if (edit.on) doc.made.push(edit.good);
      return { doc, label: `${edit.on ? 'Make' : 'Stop requiring'} ${display(edit.good)} inside${inBlock}` };
    }
    case 'good-drain': {
      doc.drains = doc.drains.filter((d) => drainGood(d) !== edit.good);
      if (edit.on) doc.drains.push(edit.good);
      return { doc, label: `${edit.on ? 'Balance' : 'Export'} ${display(edit.good)}${edit.on ? ' inside' : ''}${inBlock}` };
    }
    case 'pin-share': {
      row(edit.recipe);
      doc.pins = doc.pins.filter((p) => !(p.kind === 'share' && p.recipe === edit.recipe && p.good === edit.good));
      if (!edit.share) return { doc, label: `Remove the share of ${display(edit.good)} for ${display(edit.recipe)}${inBlock}` };
      if (!(edit.share.share >= 0 && edit.share.share <= 1)) throw new BlockError('A share is a fraction from 0 to 1 (50 % = 0.5).', 'invalid');
      doc.pins.push({ kind: 'share', recipe: edit.recipe, good: edit.good, share: edit.share.share, base: edit.share.base });
      return { doc, label: `Give ${display(edit.recipe)} ${num(edit.share.share * 100)} % of the ${edit.share.base === 'total' ? '' : 'remaining '}${display(edit.good)}${inBlock}` };
    }
    case 'row-temperature': {
      const r = row(edit.recipe);
      const temps = { ...(r.fluidTemperatures ?? {}) };
      if (edit.temperature === null) delete temps[edit.fluid];
      else {
        if (!Number.isFinite(edit.temperature)) throw new BlockError('A temperature needs a number of degrees.', 'invalid');
        temps[edit.fluid] = edit.temperature;
      }
      if (Object.keys(temps).length) r.fluidTemperatures = temps;
      else delete r.fluidTemperatures;
      return { doc, label: edit.temperature === null ? `Take ${display(edit.fluid)} at any temperature in ${display(edit.recipe)}${inBlock}` : `Take ${display(edit.fluid)} at ${num(edit.temperature)}° in ${display(edit.recipe)}${inBlock}` };
    }
    case 'row-reactor': {
      const r = row(edit.recipe);
      if (edit.layout) r.reactorLayout = { x: edit.layout.x, y: edit.layout.y };
      else delete r.reactorLayout;
      return { doc, label: edit.layout ? `Arrange ${display(edit.recipe)} as ${edit.layout.x} × ${edit.layout.y} reactors${inBlock}` : `Remove the reactor layout of ${display(edit.recipe)}${inBlock}` };
    }
    case 'spoil-rate': {
      const rates = { ...(doc.spoilRates ?? {}) };
      if (edit.rate === null) delete rates[edit.good];
      else {
        if (!(edit.rate >= 0) || !Number.isFinite(edit.rate)) throw new BlockError('A spoil rate is an amount per second, 0 or more.', 'invalid');
        rates[edit.good] = edit.rate;
      }
      if (Object.keys(rates).length) doc.spoilRates = rates;
      else delete doc.spoilRates;
      return { doc, label: edit.rate === null ? `Remove the spoil rate of ${display(edit.good)}${inBlock}` : `Let ${display(edit.good)} spoil at ${rateText(edit.rate)}${inBlock}` };
    }
    case 'campaign': {
      if (!edit.campaign) {
        delete doc.campaign;
        return { doc, label: `Remove the campaign${inBlock}` };
      }
      doc.campaign = structuredClone(edit.campaign);
      const c = edit.campaign;
      const what = c.quantities.map((q) => `${num(Math.abs(q.quantity))} ${display(q.good)}`).join(', ');
      return { doc, label: c.completedAt ? `Complete the campaign${inBlock}` : `Campaign: ${c.quantities.some((q) => q.quantity < 0) ? 'use' : 'make'} ${what} within ${num(c.duration)} s${inBlock}` };
    }
    case 'group': {
      const groups = [...(doc.groups ?? [])];
      const at = edit.name === undefined ? -1 : groups.findIndex((x) => x.name === edit.name);
      if (edit.name !== undefined && at < 0) throw new BlockError(`"${b.name}" has no group "${edit.name}"; reload the editor.`, 'invalid');
      if (!edit.group) {
        groups.splice(at, 1);
        if (groups.length) doc.groups = groups;
        else delete doc.groups;
        return { doc, label: `Remove group "${edit.name}"${inBlock}` };
      }
      const g = structuredClone(edit.group);
      const rows = new Set(doc.recipes.map((r) => r.recipe));
      const missing = g.recipes.filter((r) => !rows.has(r));
      if (missing.length) throw new BlockError(`Group "${g.name}" names ${missing.map(display).join(', ')}, which ${missing.length === 1 ? 'is not a row' : 'are not rows'} of "${b.name}"; add the rows first.`, 'invalid');
      if (groups.some((x, i) => i !== at && x.name === g.name)) throw new BlockError(`"${b.name}" already has a group named "${g.name}"; pick another name.`, 'invalid');
      // A row belongs to one group: taking it into this one takes it out of the others.
      const taken = new Set(g.recipes);
      for (let i = 0; i < groups.length; i++) if (i !== at) groups[i] = { ...groups[i], recipes: groups[i].recipes.filter((r) => !taken.has(r)) };
      if (at >= 0) groups[at] = g;
      else groups.push(g);
      const kept = groups.filter((x) => x.recipes.length);
      if (kept.length) doc.groups = kept;
      else delete doc.groups;
      const composed = g.composed ? ` as a module making ${rateText(g.composed.goal.rate)} ${display(g.composed.goal.good)}` : '';
      return { doc, label: at >= 0 ? `Change group "${g.name}"${composed}${inBlock}` : `Group ${g.recipes.length} rows as "${g.name}"${composed}${inBlock}` };
    }
  }
}

/**
 * Apply `edit` to block `id` as the editor read it at `baseUpdatedAt`: solve once, save with that
 * result as one undoable action, and return the saved block with the result to show. A block
 * changed meanwhile (another window, the chat, an undo) is refused with a 'stale' BlockError.
 */
export async function editBlock(
  p: Project, solve: BlockSolver, id: string, edit: BlockEdit, baseUpdatedAt: string, planning?: Pick<PlanningContext, 'g' | 'availability'>,
): Promise<{ block: BlockRecord; result: SolveResult | null; broken?: string; label: string }> {
  const current = getBlock(p, id);
  if (current.updatedAt !== baseUpdatedAt) {
    throw new BlockError(`Block "${current.name}" was changed since the editor loaded it; it now shows the current version — apply the change again.`, 'stale');
  }
  const applied = applyBlockEdit(current, edit, { ...(planning ? { planning, display: (n: string) => planning.g.displayOf(n) } : {}), preset: (pid) => getPreset(p, pid) });
  const doc = parseBlockDoc(applied.doc);
  const solved = await trySolve(solve, doc);
  const block = await saveBlock(p, solve, id, { doc, ...(applied.name ? { name: applied.name } : {}) }, baseUpdatedAt, { label: applied.label, solved });
  const { result, broken } = solved;
  return { block, result, ...(broken ? { broken } : {}), label: applied.label };
}
