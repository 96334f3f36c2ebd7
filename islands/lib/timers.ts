/** Timeouts owned by one object, all cancelled by its clean-up: nothing fires after it is gone. */
export class Timers {
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();

  later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      fn();
    }, ms);
    this.pending.add(timer);
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
