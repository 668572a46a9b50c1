/** Keeps the last lines a server wrote, for error reports (`lastError`) without unbounded memory. */
export class OutputTail {
  private readonly buffer: string[] = [];

  constructor(
    private readonly maxLines: number,
    private readonly maxLineLength = 500,
  ) {}

  push(line: string): void {
    if (this.maxLines <= 0) return;
    this.buffer.push(line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line);
    if (this.buffer.length > this.maxLines) this.buffer.shift();
  }

  lines(): string[] {
    return [...this.buffer];
  }

  clear(): void {
    this.buffer.length = 0;
  }
}
