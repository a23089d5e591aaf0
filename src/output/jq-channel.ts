/**
 * How --jq's worker thread hands its output to gw's main thread (jq-thread.ts, jq-worker.ts): two
 * rings of bytes in one SharedArrayBuffer, jq's stdout and its stderr. The worker writes into a
 * ring as jq prints and waits (Atomics.wait) while the ring is full; the main thread reads what is
 * there, gives it to stdout's reader, and frees the space only once the reader has taken it. So jq
 * runs exactly as far ahead of the reader as a ring holds: constant memory, whatever an expression
 * prints, and each line reaches the reader as soon as jq prints it. The worker posts a message
 * only when the main thread has asked to be told (WAKE): one per burst of output, not one a line.
 */

/** Bytes a ring holds: a power of two, so a position wraps with a mask. */
export const RING_BYTES = 64 * 1024

/** Int32 slots: per ring its read position (HEAD, moved by the reader) and write position (TAIL, moved by the writer); then WAKE. */
const SLOTS = 5
const HEAD = 0
const TAIL = 1
export const WAKE = 4

export type RingName = 'stdout' | 'stderr'
const RINGS: Record<RingName, number> = {stdout: 0, stderr: 1}

/** The memory both threads share: the control slots, then the two rings. */
export function sharedChannel(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * 4 + 2 * RING_BYTES)
}

export function controlOf(shared: SharedArrayBuffer): Int32Array {
  return new Int32Array(shared, 0, SLOTS)
}

function ringOf(shared: SharedArrayBuffer, name: RingName): {bytes: Uint8Array; head: number; tail: number} {
  const index = RINGS[name]
  return {bytes: new Uint8Array(shared, SLOTS * 4 + index * RING_BYTES, RING_BYTES), head: index * 2 + HEAD, tail: index * 2 + TAIL}
}

/**
 * The worker's end of a ring: bytes in, written to the ring a line at a time (or a ring's worth
 * of a longer line), waiting while the reader is a ring behind. Positions count every byte
 * written, modulo 2^32 (Int32 arithmetic wraps; a ring is far smaller).
 */
export class RingWriter {
  private readonly ring: ReturnType<typeof ringOf>
  private readonly line = new Uint8Array(RING_BYTES)
  private length = 0
  private written = 0

  constructor(
    private readonly control: Int32Array,
    shared: SharedArrayBuffer,
    name: RingName,
    /** Called once bytes are in a ring: tells the main thread when it asked to be told. */
    private readonly wake: () => void,
  ) {
    this.ring = ringOf(shared, name)
  }

  /** Where the next byte goes: the main thread reads up to here before it takes a run as done. */
  get position(): number {
    return this.written
  }

  push(byte: number): void {
    this.line[this.length++] = byte
    if (byte === 10 || this.length === this.line.length) this.flush()
  }

  /** The bytes of the line begun, handed back instead of written (a run's end, where the worker reads it). */
  takeLine(): Uint8Array {
    const line = this.line.slice(0, this.length)
    this.length = 0
    return line
  }

  /** The line begun, into the ring. */
  flush(): void {
    this.write(this.line.subarray(0, this.length))
    this.length = 0
  }

  write(bytes: Uint8Array): void {
    const {control} = this
    let from = 0
    while (from < bytes.length) {
      const head = Atomics.load(control, this.ring.head)
      const free = RING_BYTES - ((this.written - head) | 0)
      // Full: the reader has not taken what is there yet. Waits until it moves its position.
      if (free === 0) {
        Atomics.wait(control, this.ring.head, head)
        continue
      }
      const count = Math.min(free, bytes.length - from)
      const at = this.written & (RING_BYTES - 1)
      const first = Math.min(count, RING_BYTES - at)
      this.ring.bytes.set(bytes.subarray(from, from + first), at)
      if (first < count) this.ring.bytes.set(bytes.subarray(from + first, from + count), 0)
      from += count
      this.written = (this.written + count) | 0
      Atomics.store(control, this.ring.tail, this.written)
      this.wake()
    }
  }
}

/** The main thread's end of a ring: what is there to read, and the space freed once it is used. */
export class RingReader {
  private readonly ring: ReturnType<typeof ringOf>
  private read = 0
  private readonly decoder = new TextDecoder()

  constructor(
    private readonly control: Int32Array,
    shared: SharedArrayBuffer,
    name: RingName,
  ) {
    this.ring = ringOf(shared, name)
  }

  get empty(): boolean {
    return Atomics.load(this.control, this.ring.tail) === this.read
  }

  /** The text written since the last take (a character cut by the ring's end waits for its rest), its space not yet free. */
  take(): {text: string; upTo: number} | undefined {
    const tail = Atomics.load(this.control, this.ring.tail)
    const size = (tail - this.read) | 0
    if (size === 0) return undefined
    const at = this.read & (RING_BYTES - 1)
    const first = Math.min(size, RING_BYTES - at)
    let text = this.decoder.decode(this.ring.bytes.slice(at, at + first), {stream: true})
    if (first < size) text += this.decoder.decode(this.ring.bytes.slice(0, size - first), {stream: true})
    return {text, upTo: tail}
  }

  /** The space up to `upTo` is free again: a writer waiting for it goes on. */
  free(upTo: number): void {
    this.read = upTo
    Atomics.store(this.control, this.ring.head, upTo)
    Atomics.notify(this.control, this.ring.head)
  }
}
