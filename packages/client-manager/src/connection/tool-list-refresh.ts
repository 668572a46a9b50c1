/**
 * Re-lists a server's tools after `notifications/tools/list_changed`: one refresh at a time, and one more after it
 * when another notification arrived meanwhile (a burst of notifications costs at most two listings).
 */
export class ToolListRefresh {
  private running?: Promise<void>;
  private again = false;
  private latest?: () => Promise<void>;

  /** Runs `refresh` now, or once more after the refresh in flight. */
  request(refresh: () => Promise<void>): void {
    this.latest = refresh;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.latest?.();
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no refresh is in flight, so callers see the new list. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
