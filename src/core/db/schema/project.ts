// Project-owned tables: the user's work. An import of game data never touches them.
import type { Migration } from '../migrate';

export const PROJECT_KIND = 'pyops-project';
export const BUNDLE_KIND = 'pyops-bundle';

const V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE planning_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE block_groups (id TEXT PRIMARY KEY, name TEXT NOT NULL, sort_order REAL NOT NULL DEFAULT 0);
CREATE TABLE blocks (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, icon TEXT, data TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1, sort_order REAL NOT NULL DEFAULT 0, group_id TEXT, layout TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  -- cached projection of the last solve (valid while solve_generation/data_fingerprint match)
  electricity_w REAL, pollution_per_min REAL, solve_status TEXT, solve_diagnosis TEXT,
  data_fingerprint TEXT, solve_generation INTEGER
);
CREATE TABLE block_flows (
  block_id TEXT NOT NULL, item TEXT NOT NULL, kind TEXT NOT NULL, role TEXT NOT NULL, rate REAL NOT NULL,
  temperature_mode TEXT, temperature_min REAL, temperature_max REAL
);
CREATE INDEX block_flows_block ON block_flows(block_id);
CREATE INDEX block_flows_item ON block_flows(item);
CREATE TABLE block_machines (block_id TEXT NOT NULL, machine TEXT NOT NULL, recipe TEXT NOT NULL, count REAL NOT NULL);
CREATE INDEX block_machines_block ON block_machines(block_id);
CREATE TABLE block_snapshots (
  id TEXT PRIMARY KEY, block_id TEXT NOT NULL, name TEXT, reason TEXT NOT NULL, automatic INTEGER NOT NULL,
  data TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE INDEX block_snapshots_block ON block_snapshots(block_id, created_at);
CREATE TABLE module_presets (id TEXT PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL);

CREATE TABLE turd_selections (master TEXT PRIMARY KEY, branch TEXT NOT NULL, source TEXT NOT NULL, updated_at TEXT NOT NULL);

-- live-game snapshots: each sync replaces the whole set
CREATE TABLE live_sync (kind TEXT PRIMARY KEY, synced_at TEXT NOT NULL, count INTEGER NOT NULL);
CREATE TABLE researched_techs (name TEXT PRIMARY KEY);
CREATE TABLE built_machines (machine TEXT NOT NULL, recipe TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (machine, recipe));
CREATE TABLE production_stats (name TEXT NOT NULL, kind TEXT NOT NULL, produced REAL NOT NULL, consumed REAL NOT NULL, PRIMARY KEY (name, kind));

CREATE TABLE conversations (
  id TEXT PRIMARY KEY, title TEXT, model TEXT, reasoning_effort TEXT,
  last_input_tokens INTEGER, last_output_tokens INTEGER, last_total_tokens INTEGER, last_model_id TEXT,
  compaction_summary TEXT, compaction_anchor TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE conversation_messages (
  id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL, seq INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX conversation_messages_seq ON conversation_messages(conversation_id, seq);

CREATE TABLE tasks (
  id TEXT PRIMARY KEY, parent_id TEXT, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'open', priority INTEGER, priority_reason TEXT, sort_order REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE task_steps (id TEXT PRIMARY KEY, task_id TEXT NOT NULL, idx INTEGER NOT NULL, text TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0);
CREATE INDEX task_steps_task ON task_steps(task_id, idx);
CREATE TABLE task_links (id TEXT PRIMARY KEY, task_id TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, data TEXT);
CREATE INDEX task_links_task ON task_links(task_id);
CREATE TABLE notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, updated_at TEXT NOT NULL);

-- undo: one row per user-visible action; its changes are the inverse operations to apply
CREATE TABLE undo_actions (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, created_at TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0);
CREATE TABLE undo_changes (action_id INTEGER NOT NULL, seq INTEGER NOT NULL, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT, after TEXT, PRIMARY KEY (action_id, seq));
`;

// v2: UI message metadata (model id, usage, timestamps) next to the parts, so a reload shows the
// transcript exactly as streamed.
const V2 = `
ALTER TABLE conversation_messages ADD COLUMN metadata TEXT;
`;

// v3: drafts made by Copilot agent mode or an MCP client, kept until the user applies or dismisses
// them in the side panel (a chat's drafts live in its conversation instead).
const V3 = `
CREATE TABLE pending_proposals (
  id TEXT PRIMARY KEY, tool TEXT NOT NULL, source TEXT NOT NULL, title TEXT NOT NULL,
  input TEXT NOT NULL, result TEXT NOT NULL, created_at TEXT NOT NULL, applied TEXT
);
`;

export const PROJECT_MIGRATIONS: Migration[] = [
  { version: 1, sql: V1 },
  { version: 2, sql: V2 },
  { version: 3, sql: V3 },
];

/** Project-owned tables, for bundles and for the "import never touches these" check. */
export const PROJECT_TABLES = [
  'meta', 'planning_settings', 'block_groups', 'blocks', 'block_flows', 'block_machines', 'block_snapshots',
  'module_presets', 'turd_selections', 'live_sync', 'researched_techs', 'built_machines', 'production_stats',
  'conversations', 'conversation_messages', 'tasks', 'task_steps', 'task_links', 'notes', 'undo_actions',
  'undo_changes', 'pending_proposals',
] as const;
