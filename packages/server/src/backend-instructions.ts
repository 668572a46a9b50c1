import { truncateText } from '@search-mcp/shared';

export interface InstructionsBudget {
  /** Characters at most for the whole summary, heading included. */
  total: number;
  /** Characters at most for one server's note. */
  perServer: number;
}

export const defaultInstructionsBudget: InstructionsBudget = { total: 2000, perServer: 400 };

const heading = 'Notes from the servers (their own instructions, shortened):';

/**
 * The backends' own `instructions`, summarised into ours: one line per server that gave any (`- id: text`), in the
 * order given, whitespace collapsed, each cut to `perServer`, and the whole within `total`; servers that do not fit
 * are counted ("… 3 more servers have notes") so the model knows it is not the whole story. Empty when none.
 */
export function summarizeBackendInstructions(
  entries: ReadonlyArray<{ serverId: string; instructions: string | undefined }>,
  budget: InstructionsBudget = defaultInstructionsBudget,
): string {
  const notes = entries.flatMap(({ serverId, instructions }) => {
    const text = instructions?.replace(/\s+/g, ' ').trim();
    return text ? [`- ${serverId}: ${truncateText(text, budget.perServer)}`] : [];
  });
  if (notes.length === 0) return '';
  const lines = [heading];
  let length = heading.length;
  for (const [index, note] of notes.entries()) {
    const left = notes.length - index - 1;
    // Room is kept for the overflow line whenever another note could still follow.
    const reserve = left > 0 ? overflowLine(left + 1).length + 1 : 0;
    if (length + 1 + note.length + reserve > budget.total) {
      lines.push(overflowLine(notes.length - index));
      return lines.join('\n');
    }
    lines.push(note);
    length += 1 + note.length;
  }
  return lines.join('\n');
}

function overflowLine(count: number): string {
  return count === 1 ? '… 1 more server has notes' : `… ${count} more servers have notes`;
}

/** Servers named at most in the note on servers still starting; the rest are counted. */
const maxStartingNamed = 10;

/**
 * The instructions' note on the caller's servers still starting when `initialize` (or `server/discover`) was
 * answered: their own notes are missing, and where their tools will appear (`meta`: `tool_discovery` waits for
 * them; `proxy`: the tool list grows and `tools/list_changed` says so). Empty when none is starting.
 */
export function stillStartingNote(serverIds: readonly string[], mode: 'meta' | 'proxy'): string {
  if (serverIds.length === 0) return '';
  const named = serverIds.slice(0, maxStartingNamed).join(', ');
  const more = serverIds.length > maxStartingNamed ? ` and ${serverIds.length - maxStartingNamed} more` : '';
  const where =
    mode === 'meta'
      ? 'tool_discovery waits for servers still starting and searches their tools once they are connected.'
      : 'Their tools are added to the tool list once they are connected.';
  return `Still starting (their own notes are not included): ${named}${more}. ${where}`;
}
