import type { ActivityRecord } from '../api/api-types.js';

/** The most records the Activity page keeps, like the server's own memory (docs/console.md: the last 500). */
export const activityLimit = 500;

/** `records` with `added` after them, the oldest dropped past the limit. */
export function appendRecords(records: ActivityRecord[], added: ActivityRecord[]): ActivityRecord[] {
  const all = added.length === 0 ? records : [...records, ...added];
  return all.length > activityLimit ? all.slice(all.length - activityLimit) : all;
}

export type OutcomeFilter = 'all' | 'ok' | 'failed' | ActivityRecord['outcome'];

/** The records matching the text (tool, server, caller or event) and the outcome; "failed" is error or tool_error. */
export function filterRecords(records: ActivityRecord[], text: string, outcome: OutcomeFilter): ActivityRecord[] {
  const needle = text.trim().toLowerCase();
  return records.filter((record) => {
    if (outcome === 'failed' && record.outcome !== 'error' && record.outcome !== 'tool_error') return false;
    if (outcome !== 'all' && outcome !== 'failed' && record.outcome !== outcome) return false;
    if (!needle) return true;
    return [record.toolKey, record.serverId, record.caller, record.event, ...(record.queries ?? [])].some((value) =>
      value?.toLowerCase().includes(needle),
    );
  });
}
