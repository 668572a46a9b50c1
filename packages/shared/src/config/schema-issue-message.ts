import type * as z from 'zod';

/** A message for a zod issue that names what was expected, never the value received. */
export function describeSchemaIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${describeExpectedType(issue.expected)}, got ${describeValueType(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${formatAllowedValue(issue.values[0])}`
        : `expected one of ${issue.values.map(formatAllowedValue).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'expected a non-empty string';
      return describeBound(issue.origin, issue.minimum, issue.inclusive ?? true, 'at least', 'more than');
    case 'too_big':
      return describeBound(issue.origin, issue.maximum, issue.inclusive ?? true, 'at most', 'less than');
    case 'invalid_format':
      return `expected ${issue.format} format`;
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'does not match any allowed form';
    case 'invalid_key':
      return 'invalid key';
    default:
      return 'invalid value';
  }
}

function describeExpectedType(expected: string): string {
  return expected === 'int' ? 'an integer' : expected;
}

/** `null`, `array` or the `typeof` name: the kind of a value, never the value. */
export function describeValueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function formatAllowedValue(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : String(JSON.stringify(value));
}

function describeBound(
  origin: string,
  limit: number | bigint,
  inclusive: boolean,
  inclusiveWord: string,
  exclusiveWord: string,
): string {
  const bound = `${inclusive ? inclusiveWord : exclusiveWord} ${String(limit)}`;
  if (origin === 'string') return `expected ${bound} characters`;
  if (origin === 'array' || origin === 'set') return `expected ${bound} items`;
  return `expected a number ${bound}`;
}
