import { describe, expect, it } from 'vitest';
import { listsTasksExtension, TASKS_EXTENSION } from './tasks-extension.js';

describe('listsTasksExtension', () => {
  it('finds the extension among the capabilities, and nothing else counts', () => {
    expect(listsTasksExtension({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    expect(listsTasksExtension({ extensions: { [TASKS_EXTENSION]: true } })).toBe(false);
    expect(listsTasksExtension({ extensions: { 'io.example/other': {} } })).toBe(false);
    expect(listsTasksExtension({ tasks: {} })).toBe(false);
    expect(listsTasksExtension([TASKS_EXTENSION])).toBe(false);
    expect(listsTasksExtension(undefined)).toBe(false);
  });
});
