import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process found serving in a server's group: its pid and its start time (field 22 of /proc/<pid>/stat). */
export interface ServingProcess {
  pid: number;
  startTime: string;
}

/**
 * The process that actually serves in the group led by `leader` (Linux): from the leader, the only child holding the
 * same stdout, followed down as long as there is exactly one (a launcher's chain: `npx` → `sh` → `node`). Undefined
 * when the leader itself serves, off Linux, or when /proc cannot be read (then only the leader's own exit counts).
 *
 * The host calls it when the server first answers, so the process that answered is alive when it is looked for. The
 * watchdog used to look when it got to it, which on a busy machine could be seconds after a server that crashed
 * right after answering: behind `sh -c "node server.js; sleep 600"` it then found `sleep` and never saw `node` die.
 * Children come from /proc/<pid>/task/<tid>/children (a few small reads); a kernel without that file is scanned
 * for parent pids instead.
 */
export function findServingProcess(leader: number): ServingProcess | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stdout = readlinkSync(`/proc/${leader}/fd/1`);
    let current = leader;
    for (;;) {
      const holders = childrenOf(current).filter((pid) => linkOf(`/proc/${pid}/fd/1`) === stdout);
      if (holders.length !== 1 || holders[0] === undefined) break;
      current = holders[0];
    }
    if (current === leader) return undefined;
    const stat = readStat(current);
    return stat ? { pid: current, startTime: stat.startTime } : undefined;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      return childrenByScan(pid);
    }
    for (const entry of text.split(' ')) if (entry !== '') children.push(Number(entry));
  }
  return children;
}

/** Without /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN off): every process whose parent is `pid`. */
function childrenByScan(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && readStat(Number(entry))?.ppid === pid)
    .map(Number);
}

function readStat(pid: number): { ppid: number; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields are counted after the last `)`.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), startTime: fields[19] ?? '' };
}

function linkOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
