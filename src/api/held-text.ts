import {recordFromText, sentAs} from './lazy-record.js'
import {RecordReader} from './record-facts.js'

// One answer that is the whole list (a gateway that ignores `limit`: 100,000 records in a page),
// to be handed over the other way round from how it came: its last record goes first, so every
// record is read before the first goes out. What is held meanwhile is each record's text, as the
// gateway sent it, never the objects it was read into, and packed: a list's records repeat their
// keys and much of their values, so deflated they take a tenth of the room or less.
// No string made here is larger than a record's text: V8 puts a string over 128 KiB in its large
// object space, which only a full collection frees, so a block's text is joined and taken apart
// as bytes (a Buffer's memory is freed with the Buffer, young), and a batch handed over (printed
// as one write) is kept under that size too. Measured: 200,000 records of 660 bytes, --all, the
// heap grew to ~50 MiB between full collections with blocks and batches of 500 as strings.

/** Records packed together, and characters of text at most however few records hold them: about what the body is read in (list-text.ts), so no batch holds the whole list. */
const PACKED_AT_ONCE = 500
const BLOCK_CHARS = 1 << 20

/** Records handed over at a time: their lines printed as one write stay a small string. */
export const HANDED_AT_ONCE = 100

/** Records' texts packed together: joined as UTF-8 and deflated, with each one's length in bytes to take them apart again. */
interface Block {
  lengths: number[]
  packed: Buffer
}

/**
 * The records of an answer as their texts, in the order they came, to be handed over last first.
 * With `keep`, only the last `keep` are handed over (all that will be taken), and those before
 * them are let go as the body is read.
 */
export class HeldTexts {
  private readonly blocks: Block[] = []
  /** Texts not packed yet, and their characters. */
  private open: string[] = []
  private openChars = 0
  private packedCount = 0
  private letGo = 0

  constructor(private readonly keep?: number) {}

  /** The records read next, held as the texts they came as. */
  add(records: readonly object[]): void {
    // A few kept (-L 50): held as they came, those before them let go now and then; never packed, as each block would be let go.
    const few = this.keep !== undefined && this.keep <= PACKED_AT_ONCE ? this.keep : undefined
    for (const record of records) {
      const text = sentAs(record) ?? JSON.stringify(record)
      this.open.push(text)
      this.openChars += text.length
      if (few !== undefined) {
        if (this.open.length >= 2 * few + 1) this.letGoBefore(this.open.length - few)
      } else if (this.open.length >= PACKED_AT_ONCE || this.openChars >= BLOCK_CHARS) this.pack()
    }
  }

  private letGoBefore(index: number): void {
    this.letGo += index
    this.open = this.open.slice(index)
    this.openChars = this.open.reduce((sum, text) => sum + text.length, 0)
  }

  /** Records read so far, those let go too. */
  get count(): number {
    return this.letGo + this.packedCount + this.open.length
  }

  /**
   * The records held, last first, HANDED_AT_ONCE at a time, each read again from its text as it
   * goes out (a stand-in, lazy-record.ts, as when it was read first); a block handed over is let go.
   */
  *lastFirst(): Generator<unknown[]> {
    this.pack()
    let left = this.keep ?? Infinity
    while (left > 0) {
      const block = this.blocks.pop()
      if (!block) return
      const texts = unpacked(block)
      const handed = texts.slice(Math.max(0, texts.length - left)).reverse()
      left -= handed.length
      for (let at = 0; at < handed.length; at += HANDED_AT_ONCE) yield handed.slice(at, at + HANDED_AT_ONCE).map(recordOfText)
    }
  }

  private pack(): void {
    if (this.open.length === 0) return
    const {deflateRawSync, constants} = process.getBuiltinModule('node:zlib')
    const lengths = this.open.map((text) => Buffer.byteLength(text))
    const joined = Buffer.allocUnsafe(lengths.reduce((sum, length) => sum + length, 0))
    let at = 0
    for (const text of this.open) at += joined.write(text, at)
    this.blocks.push({lengths, packed: deflateRawSync(joined, {level: constants.Z_BEST_SPEED})})
    this.packedCount += lengths.length
    this.open = []
    this.openChars = 0
    // Blocks whose records all come before the last `keep`: never handed over.
    while (this.keep !== undefined && this.blocks.length > 1 && this.packedCount - this.blocks[0]!.lengths.length >= this.keep) {
      const first = this.blocks.shift()!
      this.packedCount -= first.lengths.length
      this.letGo += first.lengths.length
    }
  }
}

/** A block's texts again, in the order they came, each read from the bytes on its own. */
function unpacked({lengths, packed}: Block): string[] {
  const joined = process.getBuiltinModule('node:zlib').inflateRawSync(packed)
  const texts: string[] = []
  let at = 0
  for (const length of lengths) {
    texts.push(joined.toString('utf8', at, at + length))
    at += length
  }
  return texts
}

/** A record from its text, as the list's answer read it: its facts read plainly where they can be (record-facts.ts), else parsed. */
function recordOfText(text: string): unknown {
  const read = new RecordReader(text).read(0)
  return recordFromText(typeof read === 'object' && read.end === text.length ? {text, facts: read.facts} : {text})
}
