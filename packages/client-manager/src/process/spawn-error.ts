import { existsSync } from 'node:fs';

/** A spawn failure of `child_process` as a message a user can act on. */
export function describeSpawnError(failure: NodeJS.ErrnoException, command: string, cwd: string | undefined): Error {
  const { code } = failure;
  const cause = failure;
  // Node reports a missing working directory as ENOENT of the command; naming the command would mislead.
  if (code === 'ENOENT' && cwd !== undefined && !existsSync(cwd)) {
    return new Error(`working directory does not exist: ${cwd}`, { cause });
  }
  if (code === 'ENOENT') return new Error(`command not found: ${command} (is it installed and on PATH?)`, { cause });
  if (code === 'EACCES') return new Error(`command is not executable: ${command}`, { cause });
  return new Error(`could not start ${command}: ${failure.message}`, { cause });
}
