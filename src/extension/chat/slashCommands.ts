// The @pyops slash commands. /plan, /block, /turd and /research frame the user's words for the
// agent (which tool to reach for, what to deliver); /compact and /new act on the conversation
// itself and never call a model. The descriptions here match package.json's chatParticipants.
export type SlashCommand = 'plan' | 'block' | 'turd' | 'research' | 'compact' | 'new';

interface PromptCommand {
  /** Put in front of the user's words. */
  instruction: string;
  /** Shown when the command came without any words. */
  example: string;
}

export const PROMPT_COMMANDS: Record<'plan' | 'block' | 'turd' | 'research', PromptCommand> = {
  plan: {
    instruction:
      'Draft a complete multi-block plan for the request below: explore with recipeGraph, check what existing blocks already make (factoryBlocks), then deliver the whole plan — new blocks plus updates to existing ones — in ONE submitPlan call.',
    example: '/plan 1 automation science pack per second from ore',
  },
  block: {
    instruction:
      'Draft one block for the request below with submitBlock (after recipeGraph and chainStatus); if it changes an existing block (see factoryBlocks), draft the change with reviseBlock instead.',
    example: '/block 2 iron plate/s',
  },
  turd: {
    instruction:
      'Compare the TURD branches that matter for the request below (turdChoices, then turdConsistency against the existing blocks) and recommend one branch per master, with what each changes and why.',
    example: '/turd which branch for my circuits?',
  },
  research: {
    instruction: 'Find the research path to the target below with researchPath: the technologies still needed in order, their total cost in science packs, and any TURD gates on the way.',
    example: '/research advanced circuits',
  },
};

export function isSlashCommand(c: string | undefined): c is SlashCommand {
  return c === 'plan' || c === 'block' || c === 'turd' || c === 'research' || c === 'compact' || c === 'new';
}

/** The message stored and sent for a prompt command, or undefined when the user gave no words. */
export function framedMessage(command: string | undefined, prompt: string): string | undefined {
  const text = prompt.trim();
  if (!command || !(command in PROMPT_COMMANDS)) return text || undefined;
  if (!text) return undefined;
  const c = PROMPT_COMMANDS[command as keyof typeof PROMPT_COMMANDS];
  return `/${command}: ${c.instruction}\n\n${text}`;
}

/** What to tell a user who typed a prompt command with nothing after it. */
export function emptyCommandHint(command: keyof typeof PROMPT_COMMANDS): string {
  return `Tell me what to ${command === 'research' ? 'research' : command === 'turd' ? 'compare' : 'draft'} after \`/${command}\`, for example \`${PROMPT_COMMANDS[command].example}\`.`;
}
