/**
 * `${VAR}` and `${VAR:-default}` in config strings (packages/shared/README.md, "Configuration"), with the shell's
 * meaning of "set":
 * `${VAR}` accepts an empty value, `${VAR:-default}` treats an empty value as unset. The default is taken
 * literally (no nested expansion). Text that is not a well-formed reference (`$VAR`, `${1X}`) is left as is.
 * `${env:VAR}` (the spelling of VS Code and Cursor configs) means `${VAR}`.
 */

export type VariableEnvironment = Readonly<Record<string, string | undefined>>;

export interface VariableExpansion {
  /** The expanded text; a missing variable expands to the empty string. */
  value: string;
  /** Names of variables that are unset and have no default, each once, in order of appearance. */
  missing: string[];
}

const VARIABLE_REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}/g;

export function expandVariables(text: string, env: VariableEnvironment): VariableExpansion {
  const missing: string[] = [];
  const value = text.replace(
    VARIABLE_REFERENCE,
    (_match, name: string, defaultPart: string | undefined, defaultValue: string | undefined) => {
      const current = Object.hasOwn(env, name) ? env[name] : undefined;
      if (defaultPart !== undefined) return current === undefined || current === '' ? (defaultValue ?? '') : current;
      if (current !== undefined) return current;
      if (!missing.includes(name)) missing.push(name);
      return '';
    },
  );
  return { value, missing };
}

export function containsVariableReference(text: string): boolean {
  return new RegExp(VARIABLE_REFERENCE.source).test(text);
}

/** `${input:name}`: VS Code's prompt-for-a-value variables, which only VS Code can answer. */
const INPUT_REFERENCE = /\$\{input:[^}]*\}/;

export function containsInputReference(text: string): boolean {
  return INPUT_REFERENCE.test(text);
}
