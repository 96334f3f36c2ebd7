// Sender-side typing signals: typing_start once after non-empty text; typing_stop after 1 s
// without typing, on sending, or when the text is emptied.
export const TYPING_STOP_MS = 1000;

export class TypingNotifier {
  private typing = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly signal: (typing: boolean) => void,
    private readonly idleMs: number = TYPING_STOP_MS,
  ) {}

  /** Call on every change of the text. */
  input(text: string): void {
    if (text.trim() === "") return this.stop();
    if (!this.typing) {
      this.typing = true;
      this.signal(true);
    }
    this.clearTimer();
    this.timer = setTimeout(() => this.stop(), this.idleMs);
  }

  /** Sending, emptying the text or leaving the chat ends typing. */
  stop(): void {
    this.clearTimer();
    if (!this.typing) return;
    this.typing = false;
    this.signal(false);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
