/** One instruction of a Dockerfile: `RUN npm ci` → `{ keyword: 'RUN', value: 'npm ci' }` (continuations joined). */
export interface DockerInstruction {
  keyword: string;
  value: string;
}

export interface DockerStage {
  /** The `AS` name, or the stage's index as a string. */
  name: string;
  /** The base image with global `ARG` defaults substituted. */
  image: string;
  instructions: DockerInstruction[];
}

export interface ParsedDockerfile {
  /** `ARG`s declared before the first `FROM`, with their defaults. */
  globalArguments: Record<string, string>;
  stages: DockerStage[];
  /** The comment lines, without `#`: where the image documents its use. */
  comments: string[];
}

/** Substitutes `${NAME}` and `$NAME` from `values`; unknown names stay as written. */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    return values[name] ?? whole;
  });
}

/**
 * Reads the instructions of a Dockerfile (the subset this repository uses: comments, `\` continuations, stages with
 * `AS`, global `ARG`s). Enough to check the image's shape without a Docker engine.
 */
export function parseDockerfile(text: string): ParsedDockerfile {
  const comments: string[] = [];
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#')) {
      comments.push(line.replace(/^#\s?/, ''));
      continue;
    }
    if (line === '' && pending === '') continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  if (pending) logical.push(pending.trim());

  const globalArguments: Record<string, string> = {};
  const stages: DockerStage[] = [];
  for (const line of logical.filter((entry) => entry !== '')) {
    const match = /^(\w+)\s*(.*)$/s.exec(line);
    if (!match) throw new Error(`unreadable Dockerfile line: ${line}`);
    const keyword = (match[1] ?? '').toUpperCase();
    const value = match[2] ?? '';
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(value);
      if (!from) throw new Error(`unreadable FROM: ${value}`);
      stages.push({
        name: from[2] ?? String(stages.length),
        image: substitute(from[1] ?? '', globalArguments),
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) {
      if (keyword !== 'ARG') throw new Error(`${keyword} before the first FROM`);
      const [name, defaultValue] = value.split('=');
      if (name) globalArguments[name.trim()] = (defaultValue ?? '').trim();
      continue;
    }
    stage.instructions.push({ keyword, value });
  }
  return { globalArguments, stages, comments };
}

/** The arguments of an exec-form instruction (`CMD ["a", "b"]`), or undefined for the shell form. */
export function execForm(value: string): string[] | undefined {
  if (!value.trim().startsWith('[')) return undefined;
  const parsed = JSON.parse(value) as unknown;
  return Array.isArray(parsed) && parsed.every((entry) => typeof entry === 'string') ? parsed : undefined;
}
