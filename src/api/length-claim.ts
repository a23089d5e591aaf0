// What a gateway says of a list's length, believed only while its pages bear it out (design.md §3:
// a total is a claim). A list walk (paging.ts) asks it where the list ends and what a page should hold.

/**
 * How many records a list is taken to hold at most, unless the gateway claims more (then twice its
 * claim): over the largest page seen, the pages a walk reads before it stops as one that would never end.
 */
export const GENEROUS_RECORDS = 1_000_000

/** The gateway's claim of a list's length, in pages of `size`: a count of records, or of pages only (the live gateway's total_pages). */
export class LengthClaim {
  /** Whether the claim still stands: the gateway made one, and no page has contradicted it. */
  private standing: boolean

  constructor(
    private readonly said: {total?: number; pages?: number},
    readonly size: number,
  ) {
    this.standing = this.made()
  }

  /** Whether the claim still stands. */
  stands(): boolean {
    return this.standing
  }

  /** The count of records claimed, while the claim stands. */
  total(): number | undefined {
    return this.standing ? this.said.total : undefined
  }

  /** Whether the page at `offset`, holding `count` records, bears the claim out; the first that does not ends it. */
  check(offset: number, count: number): void {
    if (!this.standing) return
    const {total, pages} = this.said
    let agrees: boolean
    if (total !== undefined) agrees = count === Math.max(0, Math.min(this.size, total - offset))
    else {
      const lastOffset = Math.max(0, (pages ?? 1) - 1) * this.size
      agrees = offset < lastOffset ? count === this.size : offset === lastOffset ? count > 0 && count <= this.size : count === 0
    }
    if (!agrees) this.standing = false
  }

  /**
   * Whether the list ends with the page at `offset`: an empty one; the last the claim names, while
   * it stands; a short one when the gateway claimed nothing (once its claim fell, only an empty page).
   */
  endsAt(offset: number, count: number): boolean {
    if (count === 0) return true
    if (this.standing) return offset >= this.lastOffset()
    return !this.made() && count < this.size
  }

  /** Where the last page the gateway claims begins. */
  lastOffset(): number {
    const {total, pages} = this.said
    const count = total ?? (pages ?? 1) * this.size
    return Math.max(0, Math.ceil(count / this.size) - 1) * this.size
  }

  /** Records the page at `offset` should hold: what the claim says of it, or a full page. */
  expectedAt(offset: number): number {
    const total = this.total()
    return total === undefined ? this.size : Math.max(0, Math.min(this.size, total - offset))
  }

  /** Records the list is taken to hold at most: GENEROUS_RECORDS, or twice what the gateway claims while its claim stands. */
  generous(): number {
    const {total, pages} = this.said
    return Math.max(GENEROUS_RECORDS, this.standing ? 2 * (total ?? (pages ?? 0) * this.size) : 0)
  }

  /** Whether the gateway said anything of the list's length at all. */
  private made(): boolean {
    return this.said.total !== undefined || this.said.pages !== undefined
  }
}
