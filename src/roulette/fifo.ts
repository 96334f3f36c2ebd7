// A first-in first-out line over an array. A Map used as a queue (delete at the front, read from
// the front) leaves deleted slots that every read from the front walks over again until the
// engine rehashes; this one drops its consumed front in bulk instead.
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.head += 1;
    // Dropped in bulk once the consumed front is at least half the array: amortised O(1).
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    } else if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return item;
  }
}
