/** Lets go of one thing the gateway opened: a lock, a file, a socket, a timer. */
export type Release = () => void | Promise<void>

/**
 * What a start has opened, each registered with its release as it opens, and let go of in the
 * reverse order, once: by a start that fails part-way, which so releases exactly what it had
 * opened, and by the close of a gateway that started. Every release runs even when one before it
 * fails: unwind() rejects with the first failure, and the others are reported.
 */
export class DisposerStack {
  private readonly releases: Release[] = []
  private unwound: Promise<void> | undefined

  constructor(private readonly report: (error: unknown) => void) {}

  /** Registers the release of what has just opened: it runs before every release registered earlier. */
  defer(release: Release): void {
    this.releases.push(release)
  }

  /**
   * Registers a release that runs after every other, however late it is registered: what
   * announces the rest (a runtime file) is withdrawn only once all it announced is let go.
   */
  deferLast(release: Release): void {
    this.releases.unshift(release)
  }

  /** Runs every release, the latest registered first; a second call gets the first one's promise. */
  unwind(): Promise<void> {
    return (this.unwound ??= this.releaseAll())
  }

  private async releaseAll(): Promise<void> {
    const failures: unknown[] = []
    for (const release of this.releases.splice(0).reverse()) {
      try {
        await release()
      } catch (error) {
        failures.push(error)
      }
    }
    const [first, ...others] = failures
    for (const other of others) this.report(other)
    if (failures.length > 0) throw first
  }
}
