import { spawn } from 'node:child_process';

export const isWindows = process.platform === 'win32';

/**
 * Signals a server's whole process group (the server runs as a group leader, so its pid is the group id). Windows
 * has no process groups: SIGKILL becomes `taskkill /T /F` on the process tree, other signals go to the process only
 * (untested on Windows).
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (!isWindows) process.kill(-pid, signal);
    else if (signal === 'SIGKILL') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    else process.kill(pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
