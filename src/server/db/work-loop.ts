/**
 * The loop of a worker that takes due rows from a queue table (the mail queue, the hand-off to
 * the banks): one round at a time, woken at once when this process or, through the database's
 * notice, another one queued work, and otherwise every pollMs. A wake during a round asks for
 * another round after it (`again`), so no queued row waits for the poll.
 */
export class WorkLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    /** One round: takes what is due now. */
    private readonly round: () => Promise<unknown>,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void,
    /** Told of a wake during a round (the mail queue ends its wait for a free slot early). */
    private readonly onWakeDuringRound: () => void = () => undefined,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Whether a wake came during the round: more work may have been queued meanwhile. */
  get woken(): boolean {
    return this.again;
  }

  /** As `woken`, and forgets it: the round goes to look for that work now. */
  takeWake(): boolean {
    const woken = this.again;
    this.again = false;
    return woken;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Stops looking for work and waits for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs a round now, or right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.onWakeDuringRound();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.round()
      .then(() => undefined)
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.takeWake()) this.wake();
        else {
          this.timer = setTimeout(() => this.wake(), this.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Waits until no round is under way or due: whatever was due when called has had its try. */
  async settle(): Promise<void> {
    this.again = true;
    this.wake();
    while (this.running) await this.running;
  }
}

/** The wait before the next try of a row tried `attempts` times: doubling from `first` up to `max`. */
export function backoffMs(settings: { retryFirstMs: number; retryMaxMs: number }, attempts: number): number {
  return Math.min(settings.retryMaxMs, settings.retryFirstMs * 2 ** (attempts - 1));
}
