// The factory board's message protocol, shared like protocol.ts: the extension validates every
// incoming message with the zod schema below; the webview imports the types only. Rates per second.
import { z } from 'zod';

export interface BoardGoodView {
  good: string;
  /** The good with its temperature when that tells supplies apart. */
  label: string;
  rate: number;
}

export interface BoardNodeView {
  id: string;
  name: string;
  /** Webview URI of the game icon of what it makes (its lab for the science block), when there is one. */
  icon?: string;
  /** solved, infeasible, stale, broken, error (the Factory view's words). */
  state: string;
  stateDetail?: string;
  science: boolean;
  /** What it makes or takes as goals, in a few words ("Gear 2/s"). */
  goals: string;
  buildings: number;
  powerW: number | null;
  /** Where the player put it (board units, its centre); null: laid out automatically. */
  layout: { x: number; y: number } | null;
  /** What it makes beyond what the blocks take (a byproduct no block takes, too; not a goal nothing takes). */
  surplus: BoardGoodView[];
  /** What it takes that the blocks making it do not supply enough of. */
  short: BoardGoodView[];
  /** What it takes that no enabled block makes: from outside. */
  imports: BoardGoodView[];
}

/** The goods from one block to another. */
export interface BoardEdgeView {
  from: string;
  to: string;
  goods: Array<BoardGoodView & { short: boolean; surplus: boolean }>;
}

export interface BoardView {
  project: string;
  nodes: BoardNodeView[];
  edges: BoardEdgeView[];
  /** Why the board is empty, when it is. */
  empty?: string;
}

export type ToBoard = { type: 'state'; view: BoardView } | { type: 'error'; message: string };

// ── messages (webview → extension), validated ───────────────────────────────

const id = z.string().min(1).max(100);
const coordinate = z.number().finite().min(-1e7).max(1e7);

export const fromBoardSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  /** Positions of the blocks on the board (all of them, so the layout the player saw stays as it was). */
  z.object({ type: z.literal('place'), positions: z.array(z.object({ id, x: coordinate, y: coordinate }).strict()).min(1).max(2000) }).strict(),
  /** Forget every position: lay the board out automatically again. */
  z.object({ type: z.literal('autoLayout') }).strict(),
  /** Open a block in its editor (the science block in the science editor). */
  z.object({ type: z.literal('open'), id }).strict(),
]);

export type FromBoard = z.infer<typeof fromBoardSchema>;
