/** A counting semaphore: FIFO, so rows go to the gateway in the order their intents were synced. */
export class Semaphore {
  private readonly waiting: (() => void)[] = []

  constructor(private free: number) {}

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--
      return
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  release(): void {
    const next = this.waiting.shift()
    if (next) next()
    else this.free++
  }

  add(permits: number): void {
    for (let i = 0; i < permits; i++) this.release()
  }
}
