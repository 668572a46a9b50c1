import { describe, expect, it } from 'vitest';
import { hasInputRetry, isInputRequiredResult } from './input-required.js';

describe('input_required helpers', () => {
  it('tells an input_required answer from a complete one', () => {
    expect(isInputRequiredResult({ resultType: 'input_required', inputRequests: {}, requestState: 's' })).toBe(true);
    expect(isInputRequiredResult({ resultType: 'complete', content: [] })).toBe(false);
    expect(isInputRequiredResult({ content: [{ type: 'text', text: 'input_required' }] })).toBe(false);
    expect(isInputRequiredResult('input_required')).toBe(false);
    expect(isInputRequiredResult(null)).toBe(false);
    expect(isInputRequiredResult([{ resultType: 'input_required' }])).toBe(false);
  });

  it('sees a retry in either field, even an empty one', () => {
    expect(hasInputRetry(undefined)).toBe(false);
    expect(hasInputRetry({})).toBe(false);
    expect(hasInputRetry({ inputResponses: {} })).toBe(true);
    expect(hasInputRetry({ requestState: '' })).toBe(true);
  });
});
