/**
 * `${VAR}` and `${VAR:-default}` in config strings (packages/shared/README.md, "Configuration"), with the shell's
 * meaning of "set":
 * `${VAR}` accepts an empty value, `${VAR:-default}` treats an empty value as unset. The default is taken
 * literally (no nested expansion). Text that is not a well-formed reference (`$VAR`, `${1X}`) is left as is.
 * `${env:VAR}` (the spelling of VS Code and Cursor configs) means `${VAR}`.
 * `${keyring:NAME}` is the secret NAME from the OS keyring (docs/trust.md, "Secrets in the OS keyring"), looked up
 * through a `SecretResolver` so that this file, like the rest of the root entry, does no I/O.
 */

export type VariableEnvironment = Readonly<Record<string, string | undefined>>;

/** What a `SecretResolver` answers for one name: the value, or why there is none (shown in the config error). */
export type SecretLookup = { value: string } | { problem: string };

/** Looks up `${keyring:NAME}` secrets; `@search-mcp/shared/node` has the OS keyring's (`keyringSecretResolver`). */
export type SecretResolver = (name: string) => SecretLookup;

export interface VariableExpansion {
  /** The expanded text; a missing variable or secret expands to the empty string. */
  value: string;
  /** Names of variables that are unset and have no default, each once, in order of appearance. */
  missing: string[];
  /** `${keyring:NAME}` references that could not be resolved, each once, with the resolver's reason. */
  missingSecrets: Array<{ name: string; problem: string }>;
  /** The secret values that were substituted, for the redactor. */
  secretValues: string[];
}

const VARIABLE_REFERENCE = /\$\{(?:keyring:([A-Za-z_][A-Za-z0-9_]*)|(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?)\}/g;

/** Without a resolver (a browser, a test) `${keyring:NAME}` cannot be answered: the fallback is a variable. */
const NO_SECRET_RESOLVER: SecretResolver = () => ({
  problem: 'the OS keyring is not available here: use an environment variable instead',
});

export function expandVariables(
  text: string,
  env: VariableEnvironment,
  secrets: SecretResolver = NO_SECRET_RESOLVER,
): VariableExpansion {
  const missing: string[] = [];
  const missingSecrets: VariableExpansion['missingSecrets'] = [];
  const secretValues: string[] = [];
  const value = text.replace(
    VARIABLE_REFERENCE,
    (
      _match,
      secretName: string | undefined,
      name: string,
      defaultPart: string | undefined,
      defaultValue: string | undefined,
    ) => {
      if (secretName !== undefined) {
        const lookup = secrets(secretName);
        if ('value' in lookup) {
          secretValues.push(lookup.value);
          return lookup.value;
        }
        if (!missingSecrets.some((secret) => secret.name === secretName)) {
          missingSecrets.push({ name: secretName, problem: lookup.problem });
        }
        return '';
      }
      const current = Object.hasOwn(env, name) ? env[name] : undefined;
      if (defaultPart !== undefined) return current === undefined || current === '' ? (defaultValue ?? '') : current;
      if (current !== undefined) return current;
      if (!missing.includes(name)) missing.push(name);
      return '';
    },
  );
  return { value, missing, missingSecrets, secretValues };
}

export function containsVariableReference(text: string): boolean {
  return new RegExp(VARIABLE_REFERENCE.source).test(text);
}

/** `${input:name}`: VS Code's prompt-for-a-value variables, which only VS Code can answer. */
const INPUT_REFERENCE = /\$\{input:[^}]*\}/;

export function containsInputReference(text: string): boolean {
  return INPUT_REFERENCE.test(text);
}
