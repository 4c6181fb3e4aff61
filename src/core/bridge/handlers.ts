// What the app does with each message type from the mod. Every payload is validated here before
// it reaches the project; a payload that fails validation is rejected (and the mod is told why),
// and nothing is written. The bridge (bridge.ts) owns sockets, peers and counters and calls these,
// after it checked the protocol version and the pairing (so every handler may assume both).
import { z } from 'zod';
import type { Project } from '../db/project';
import { type AppMessageType, type ModEnvelope, type ModMessageType } from './protocol';
import { builtPayload, normalizeBuilt, normalizeResearch, normalizeStats, normalizeTurd, researchPayload, statsPayload, turdPayload, type StateKind } from './snapshots';
import { applyBuilt, applyResearch, applyStats, applyTurd, type ApplyResult } from './state';
import { captureTask, gameTaskList, taskCapturePayload } from './tasks';

export type Outcome = 'handled' | 'rejected' | 'ignored' | 'late' | 'failed';

export interface HandlerDeps {
  project(): Project | undefined;
  reply(type: AppMessageType, payload: unknown, requestId?: string): void;
  /** Settle a pending command; false when nothing waits for that id. */
  settle(requestId: string, payload: unknown): boolean;
  snapshotApplied(result: ApplyResult): void;
  taskCaptured(id: string, title: string): void;
  notice(message: string): void;
}

/** Optional facts the mod puts in its ping; they only feed the status view. */
export const pingPayload = z
  .object({
    player_name: z.string().max(100).optional(),
    force: z.string().max(200).optional(),
    multiplayer: z.boolean().optional(),
    game_version: z.string().max(32).optional(),
  })
  .partial()
  .catch({});

const resultPayload = z.object({ request_id: z.string().min(1).max(128), payload: z.unknown().optional() });

type Handler = (env: ModEnvelope, deps: HandlerDeps) => Outcome;

function reject(deps: HandlerDeps, env: ModEnvelope, err: z.ZodError): Outcome {
  const i = err.issues[0];
  deps.reply('error', { message: `PyOps rejected ${env.type}: ${i?.path.join('.') || 'payload'}: ${i?.message}`, type: env.type }, env.request_id);
  return 'rejected';
}

function stateHandler<S extends z.ZodType, N>(kind: StateKind, schema: S, normalize: (p: z.infer<S>) => N, apply: (p: Project, n: N) => ApplyResult): Handler {
  return (env, deps) => {
    const parsed = schema.safeParse(env.payload ?? {});
    if (!parsed.success) return reject(deps, env, parsed.error);
    const project = deps.project();
    if (!project) {
      deps.notice(`Received ${env.type} but no PyOps project is open; open a project to keep game state.`);
      return 'ignored';
    }
    if (project.readOnly) {
      deps.notice(`Received ${env.type} but "${project.name}" is read-only (${project.readOnlyReason}); game state is not saved.`);
      return 'ignored';
    }
    const normalized = normalize(parsed.data);
    let result: ApplyResult;
    try {
      result = apply(project, normalized);
    } catch (err) {
      deps.notice(`Could not save ${env.type} into "${project.name}": ${(err as Error).message}`);
      return 'failed';
    }
    deps.snapshotApplied(result);
    return result.ignored ? 'ignored' : 'handled';
  };
}

export const HANDLERS: Record<Exclude<ModMessageType, 'bridge.ping'>, Handler> = {
  'state.research': stateHandler('research', researchPayload, normalizeResearch, applyResearch),
  'state.turd': stateHandler('turd', turdPayload, normalizeTurd, applyTurd),
  'state.built': stateHandler('built', builtPayload, normalizeBuilt, applyBuilt),
  'state.stats': stateHandler('stats', statsPayload, normalizeStats, applyStats),

  'task.capture': (env, deps) => {
    const parsed = taskCapturePayload.safeParse(env.payload ?? {});
    if (!parsed.success) return reject(deps, env, parsed.error);
    const r = captureTask(deps.project(), parsed.data);
    deps.reply('task.captured', r, env.request_id);
    if (r.ok) deps.taskCaptured(r.id, r.title);
    return r.ok ? 'handled' : 'failed';
  },

  'task.list': (env, deps) => {
    let list;
    try {
      list = gameTaskList(deps.project());
    } catch (err) {
      deps.reply('error', { message: `PyOps could not list tasks: ${(err as Error).message}`, type: env.type }, env.request_id);
      return 'failed';
    }
    deps.reply('task.list', list, env.request_id);
    return 'handled';
  },

  'bridge.result': (env, deps) => {
    const parsed = resultPayload.safeParse(env.payload);
    const id = parsed.success ? parsed.data.request_id : env.request_id;
    if (!id) return 'rejected';
    return deps.settle(id, parsed.success ? parsed.data.payload : env.payload) ? 'handled' : 'late';
  },
};
