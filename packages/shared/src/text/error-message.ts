/** The message of anything thrown: an `Error`'s message, or the value as a string. The one place for this rule. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
