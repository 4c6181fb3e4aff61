// The side panel's message protocol, shared by the extension (which validates every incoming
// message with the zod schema below: webview input is untrusted) and the webview (which imports
// the types only, so zod stays out of its bundle). Views are plain JSON built by the extension from
// the stored conversation; the webview never sees a project file or a secret.
import { z } from 'zod';

// ── views (extension → webview) ────────────────────────────────────────────

export interface ProposalRef {
  conversationId: string;
  messageId: string;
  toolCallId: string;
}

export interface FlowView {
  good: string;
  display: string;
  kind: 'item' | 'fluid';
  rate: number;
  /** Fluids: the exact temperature of an output, or the range an import accepts (null = open). */
  temperature?: number;
  minTemperature?: number | null;
  maxTemperature?: number | null;
  /** Blocks that supply it (imports from blocks). */
  blocks?: string[];
}

export interface RowView {
  recipe: string;
  display: string;
  machine: string | null;
  machineDisplay: string | null;
  machineRule: string;
  modules: Array<{ name: string; display: string; count: number }>;
  beacons: Array<{ beacon: string; display: string; count: number; modules: Array<{ name: string; display: string; count: number }> }>;
  fuel: string | null;
  fuelDisplay: string | null;
  craftsPerSecond: number;
  buildings: number;
  wholeBuildings: number;
  moduleReason?: string;
  /** The composed group the row belongs to. */
  group?: string;
  /** Added by chain completion: the good it was chosen for and how many other recipes make that good. */
  chosenFor?: { good: string; display: string; others: number };
}

export interface FlowGraphNode {
  id: string;
  kind: 'recipe' | 'good';
  label: string;
  role?: 'import' | 'goal' | 'byproduct' | 'export' | 'internal';
  /** Recipes: the machine and its fractional and whole counts. */
  machine?: string;
  buildings?: number;
  wholeBuildings?: number;
  /** Goods: an energy pseudo-good counted in MJ (fluid fuel, heat), so its rates are MW. */
  energy?: true;
  /** The block editor's game icon for it (webview URI); the side panel looks nodes up in PanelState.icons. */
  icon?: string;
}

export interface FlowGraphEdge {
  from: string;
  to: string;
  /** Per second (MW for energy goods); absent for drafts stored before rates were kept per row. */
  rate?: number;
  /** Burnt (or left as burnt result) by the building's energy source. */
  fuel?: true;
}

/** One node per recipe and per good of a block; edges run ingredient → recipe → product. */
export interface FlowGraphView {
  nodes: FlowGraphNode[];
  edges: FlowGraphEdge[];
}

/** A block's campaign: each quantity, what it plans for at the confidence, and the rate that sets. */
export interface CampaignView {
  duration: number;
  confidence: string;
  completed: boolean;
  quantities: Array<{ good: string; display: string; quantity: number; planned: number; rate: number }>;
}

export interface DraftView {
  kind: 'block' | 'update';
  name: string;
  ok: boolean;
  status: string;
  message?: string;
  diagnosis: Array<{ message: string; fixes: string[] }>;
  goals: Array<{ good: string; display: string; rate: number; stock?: number; window?: number; temperature?: number }>;
  campaign?: CampaignView;
  /** Composed groups: a module making `good` at `referenceRate`, run by the block at `scale` (= `rate`). */
  groups?: Array<{ name: string; good: string; display: string; referenceRate: number; scale: number; rate: number }>;
  rows: RowView[];
  powerW: number;
  /** Energy the block's fuel delivers (W). */
  fuelW: number;
  heatW: number;
  heatSourceNeeded: boolean;
  heatSources: string[];
  importsFromBlocks: FlowView[];
  importsExternal: FlowView[];
  exports: FlowView[];
  byproducts: FlowView[];
  subBlocksNeeded: Array<{ good: string; display: string; rate: number }>;
  /** `energy`: the pooled fluid fuel, a rate in MW; `burns`: the fluids the block burns into it, or
   *  when it is imported, `feeds`: fluids the player can make now that could supply it. */
  fuel: Array<{ fuel: string; display: string; rate: number; energy?: true; burns?: string[]; feeds?: string[] }>;
  pollutionPerMinute: number;
  turd: {
    requirements: Array<{ recipe: string; master: string; masterDisplay: string; branch: string; branchDisplay: string; state: string }>;
    conflicts: Array<{ master: string; masterDisplay: string; branches: string[] }>;
  };
  unmade: Array<{ good: string; reason: string }>;
  invalid: string[];
  warnings: string[];
  notes?: string;
  /** Revisions of an existing block. */
  revision?: { blockId: string; oldRate: number | null; recipesAdded: string[]; recipesRemoved: string[]; newByproducts: string[] };
  flow: FlowGraphView;
}

export interface PlanView {
  title: string;
  objective: string;
  ok: boolean;
  blocks: DraftView[];
  updates: DraftView[];
  buildingMaterialsIncluded: boolean;
  turd: { conflicts: Array<{ master: string; masterDisplay: string; branches: string[] }>; picks: Array<{ master: string; masterDisplay: string; branch: string; branchDisplay: string; state: string }> };
  invalid: string[];
  notes?: string;
}

/** A factory balance proposal: every goal the scenario changes, and what it leaves unsupplied. */
export interface BalanceView {
  ok: boolean;
  status: string;
  message?: string;
  pins: Array<{ good: string; display: string; rate: number; source: string }>;
  goalChanges: Array<{ blockId: string; block: string; good: string; display: string; current: number; next: number }>;
  unchanged: number;
  unsupplied: Array<{ good: string; label: string; rate: number; reason: string; newBlock: string }>;
  overproduced: Array<{ good: string; label: string; rate: number }>;
  rawInputs: Array<{ good: string; label: string; rate: number }>;
  science?: { name: string; labs: number; packs: Array<{ pack: string; display: string; rate: number }>; powerW: number; research?: string };
  excluded: Array<{ name: string; reason: string }>;
  warnings: string[];
}

export interface EvalView {
  code: string;
  note: string;
  /** The last run's result in this window. */
  result?: { ok: boolean; text: string; truncated?: boolean; at: string };
}

export interface AppliedView {
  label: string;
  created: string[];
  updated: string[];
  at: string;
  /** Every block it created is gone again (undone or deleted). */
  undone: boolean;
}

export type ProposalView =
  | { kind: 'block' | 'update'; ref: ProposalRef; title: string; draft: DraftView; applied?: AppliedView }
  | { kind: 'plan'; ref: ProposalRef; title: string; plan: PlanView; applied?: AppliedView }
  | { kind: 'balance'; ref: ProposalRef; title: string; balance: BalanceView; applied?: AppliedView }
  | { kind: 'eval'; ref: ProposalRef; title: string; eval: EvalView };

/** A draft from Copilot agent mode, an MCP client or `pyops tool`, kept in the project until applied or dismissed. */
export type PendingProposalView = (
  | { kind: 'block' | 'update'; title: string; draft: DraftView; applied?: AppliedView }
  | { kind: 'plan'; title: string; plan: PlanView; applied?: AppliedView }
  | { kind: 'balance'; title: string; balance: BalanceView; applied?: AppliedView }
) & { id: string; source: 'vscode' | 'mcp' | 'terminal'; createdAt: string };

export interface ConversationRow {
  id: string;
  title: string;
  model: string;
  reasoningEffort: 'low' | 'medium' | 'high' | null;
  /** Efforts the model accepts. */
  efforts: Array<'low' | 'medium' | 'high'>;
  lastUsage: { inputTokens: number | null; outputTokens: number | null; totalTokens: number | null; modelId: string | null } | null;
  messageCount: number;
  updatedAt: string;
  running: boolean;
  /** Compaction summaries in this conversation (their archived originals are viewable). */
  compactions: Array<{ messageId: string; originalCount: number; compactedAt: string }>;
}

export interface ContextView {
  usedTokens: number;
  contextWindow: number;
  ratio: number;
  source: 'measured' | 'estimated';
  modelId: string;
  level: 'ok' | 'warning' | 'danger';
}

export interface PanelState {
  project: { name: string; readOnly: boolean } | null;
  activeConversationId: string | null;
  activeTitle: string | null;
  conversations: ConversationRow[];
  /** Proposals of the active conversation, newest first. */
  proposals: ProposalView[];
  /** Pending proposals of the project (agent mode, MCP), newest first. */
  pending: PendingProposalView[];
  context: ContextView | null;
  game: { linked: boolean; detail: string };
  /**
   * Game icons of the goods (`good:<name>`), recipes (`recipe:<name>`) and machines (`entity:<name>`)
   * the cards show, as webview URIs; absent ones keep their usual symbol.
   */
  icons?: Record<string, string>;
}

export interface ArchivedMessage {
  id: string;
  role: string;
  text: string;
  tools: string[];
}

/** One piece of a transcript message, in the order the message holds them. */
export type TranscriptBlock =
  | { kind: 'text'; text: string; truncated?: boolean }
  /** The model's stored reasoning: shown collapsed. */
  | { kind: 'reasoning'; text: string; truncated?: boolean }
  /** A tool call in one line (`summary`); `detail` is its input and result, bounded, for the expanded view. */
  | { kind: 'tool'; tool: string; status: 'done' | 'failed' | 'pending'; summary: string; detail: string }
  | { kind: 'proposal'; ref: ProposalRef; proposal: 'block' | 'update' | 'plan' | 'balance' | 'eval'; title: string }
  | { kind: 'note'; text: string };

export interface TranscriptMessage {
  id: string;
  role: 'user' | 'assistant' | 'system';
  /** 'report': PyOps' own note ("created these blocks"); 'compaction': a summary replacing older messages. */
  origin: 'chat' | 'report' | 'compaction';
  blocks: TranscriptBlock[];
}

/** A stored conversation as the panel shows it; built on request, never part of the panel state. */
export interface TranscriptView {
  conversationId: string;
  title: string;
  /** All messages stored, of which `messages` is a window. */
  total: number;
  /** Index in the stored list of `messages[0]`. */
  start: number;
  messages: TranscriptMessage[];
}

/** A live-run event: the run's UI message chunks, replayed then followed. */
export interface RunEvent {
  conversationId: string;
  /**
   * 'start': a (re)subscription began (clear the view); 'chunk': one chunk; 'end': the run closed;
   * 'detach': the panel stopped following it (another conversation became active) — it may still run.
   */
  phase: 'start' | 'chunk' | 'end' | 'detach';
  chunk?: { type: string; [k: string]: unknown };
  reason?: string;
}

export type Tab = 'proposals' | 'conversations' | 'run';

export type ToWebview =
  | { type: 'state'; state: PanelState }
  | { type: 'run'; event: RunEvent }
  | { type: 'focus'; tab: Tab; ref?: ProposalRef }
  | { type: 'archive'; conversationId: string; messageId: string; messages: ArchivedMessage[] }
  /** The answer to 'showTranscript' (or a link): scroll to `focusMessageId` when given. */
  | { type: 'transcript'; transcript: TranscriptView; focusMessageId?: string }
  | { type: 'busy'; ref: ProposalRef; busy: boolean }
  | { type: 'busyPending'; id: string; busy: boolean };

// ── messages (webview → extension), validated ───────────────────────────────

const id = z.string().min(1).max(200);
export const proposalRefSchema = z.object({ conversationId: id, messageId: id, toolCallId: id }).strict();

export const fromWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('apply'), ref: proposalRefSchema }).strict(),
  z.object({ type: z.literal('showInGame'), ref: proposalRefSchema, blockIndex: z.number().int().min(0).max(50).optional() }).strict(),
  z.object({ type: z.literal('runEval'), ref: proposalRefSchema }).strict(),
  z.object({ type: z.literal('sendEvalResult'), ref: proposalRefSchema }).strict(),
  z.object({ type: z.literal('openInChat'), conversationId: id }).strict(),
  z.object({ type: z.literal('switchConversation'), conversationId: id }).strict(),
  z.object({ type: z.literal('newConversation') }).strict(),
  z.object({ type: z.literal('branchConversation'), conversationId: id }).strict(),
  z.object({ type: z.literal('renameConversation'), conversationId: id }).strict(),
  z.object({ type: z.literal('deleteConversation'), conversationId: id }).strict(),
  z.object({ type: z.literal('compactConversation'), conversationId: id }).strict(),
  z.object({ type: z.literal('setEffort'), conversationId: id, effort: z.enum(['low', 'medium', 'high']).nullable() }).strict(),
  z.object({ type: z.literal('showArchive'), conversationId: id, messageId: id }).strict(),
  z.object({ type: z.literal('stopRun'), conversationId: id }).strict(),
  z.object({ type: z.literal('showTranscript'), conversationId: id, messageId: id.optional(), start: z.number().int().min(0).max(1_000_000).optional() }).strict(),
  z.object({ type: z.literal('branchFromMessage'), conversationId: id, messageId: id }).strict(),
  z.object({ type: z.literal('copyLink'), conversationId: id, messageId: id.optional() }).strict(),
  z.object({ type: z.literal('revealProposal'), ref: proposalRefSchema }).strict(),
  z.object({ type: z.literal('applyPending'), id }).strict(),
  z.object({ type: z.literal('dismissPending'), id }).strict(),
  z.object({ type: z.literal('showPendingInGame'), id, blockIndex: z.number().int().min(0).max(50).optional() }).strict(),
  z.object({ type: z.literal('tab'), tab: z.enum(['proposals', 'conversations', 'run']) }).strict(),
]);

export type FromWebview = z.infer<typeof fromWebviewSchema>;
