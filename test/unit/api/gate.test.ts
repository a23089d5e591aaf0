import {describe, expect, it} from 'vitest'
import {CUT, cutPace, Gate, type Held, NEAR, type Pass, raisedPace} from '../../../src/api/gate.js'

/**
 * A clock of the test's own: time moves only when every pause asked for is waiting, to the
 * earliest of them, so that a gateway's second of traffic is simulated in a moment, exactly.
 */
class SimulatedClock {
  now = 0
  private readonly timers: {at: number; wake: () => void}[] = []

  readonly clock = {now: () => this.now, sleep: (ms: number) => new Promise<void>((wake) => this.timers.push({at: this.now + Math.max(0, ms), wake}))}

  /** Runs until `done`, moving time on whenever nothing else can happen. */
  async runUntil(done: () => boolean): Promise<void> {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve))
      if (done()) return
      if (this.timers.length === 0) throw new Error('nothing left to wait for, and not done')
      let first = 0
      for (let i = 1; i < this.timers.length; i++) if (this.timers[i]!.at < this.timers[first]!.at) first = i
      const [timer] = this.timers.splice(first, 1)
      this.now = Math.max(this.now, timer!.at)
      timer!.wake()
    }
  }
}

const passed = (pass: Pass | Held): Pass => {
  if (!('sentAt' in pass)) throw new Error(`not let through: ${JSON.stringify(pass)}`)
  return pass
}

describe('the pace after a 429, and back up', () => {
  it('cuts to 0.9 of what the gateway took in the second before; of the pace itself when it took nothing; to none without either', () => {
    expect(CUT).toBe(0.9)
    expect(cutPace(100, undefined)).toEqual({perSecond: 90, ceiling: 100})
    expect(cutPace(100, 120)).toEqual({perSecond: 90, ceiling: 100})
    expect(cutPace(0, 50)).toEqual({perSecond: 45, ceiling: 50})
    expect(cutPace(0, undefined)).toBeUndefined()
    // Never below a request a second.
    expect(cutPace(1, undefined)).toEqual({perSecond: 1, ceiling: 1})
  })

  it('climbs a tenth a second to just under the rate refused (0.97 of it), then a fifth of a percent a second', () => {
    expect(NEAR).toBe(0.97)
    expect(raisedPace(80, 100)).toBeCloseTo(88)
    expect(raisedPace(90, 100)).toBeCloseTo(97)
    expect(raisedPace(97, 100)).toBeCloseTo(97.194)
    expect(raisedPace(120, 100)).toBeCloseTo(120.24)
  })
})

describe('Gate', () => {
  it('is open until the gateway first limits: every request leaves at once, none paced', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    const passes = await Promise.all(Array.from({length: 20}, () => gate.enter(60_000)))
    expect(passes.map((pass) => passed(pass).sentAt)).toEqual(Array(20).fill(0))
    expect(gate.met).toEqual({limited: 0, waitedMs: 0})
  })

  it('holds every request while the gateway says wait, and counts waits that overlap once', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    const first = passed(await gate.enter(60_000))
    const second = passed(await gate.enter(60_000))
    sim.now = 100
    gate.limitedFor(first, 2000)
    sim.now = 600
    gate.limitedFor(second, 2000)
    let left: Pass | undefined
    void gate.enter(60_000).then((pass) => (left = passed(pass)))
    await sim.runUntil(() => left !== undefined)
    expect(left!.sentAt).toBe(2600)
    gate.answered(left!)
    expect(gate.met.limited).toBe(2)
    expect(gate.met.waitedMs).toBe(2500)
    sim.now = 10_000
    gate.limitedFor(passed(await gate.enter(60_000)), 1000)
    sim.now = 10_400
    // A wait under way counts as far as it went.
    expect(gate.met.waitedMs).toBe(2900)
  })

  it('lets nothing through when the gateway asks a longer wait than the bound: the wait left is said, and nothing is held', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    gate.limitedFor(passed(await gate.enter(60_000)), 3_600_000)
    sim.now = 1000
    expect(await gate.enter(60_000)).toEqual({waitMs: 3_599_000})
    // Nothing was held by it: a request allowed to wait that long goes once the wait is over.
    const later = gate.enter(7_200_000)
    await sim.runUntil(() => sim.now >= 3_600_000)
    expect(passed(await later).sentAt).toBe(3_600_000)
  })

  it('after a 429 keeps half as many in flight, one more after each round of answers, and opens again past the most it had', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    const inFlight = await Promise.all(Array.from({length: 8}, () => gate.enter(60_000).then(passed)))
    gate.limitedFor(inFlight[0]!, 0)
    // 7 in flight, room for 4 (half of the 8 at the 429): the next wait for 4 to answer.
    let entered = 0
    const next = Array.from({length: 3}, () => gate.enter(60_000).then((pass) => (entered++, passed(pass))))
    for (const pass of inFlight.slice(1, 4)) gate.answered(pass)
    await sim.runUntil(() => true)
    expect(entered).toBe(0)
    // The 4th answer makes room for one, and is a round of 4 at a room of 4: room for 5.
    gate.answered(inFlight[4]!)
    await sim.runUntil(() => entered === 2)
    gate.answered(inFlight[5]!)
    await sim.runUntil(() => entered === 3)
    for (const pass of [...inFlight.slice(6), ...(await Promise.all(next))]) gate.answered(pass)
    // Rounds of 5, 6, 7 answers, and past the 8 it had, open.
    for (let i = 0; i < 5 + 6 + 7 + 8; i++) gate.answered(passed(await gate.enter(60_000)))
    const open = await Promise.all(Array.from({length: 30}, () => gate.enter(60_000)))
    expect(open.every((pass) => 'sentAt' in pass)).toBe(true)
  })

  it('paces by rate after a 429: the gateway took 100 in the second before, so 90 a second, one every 11.1 ms, and no burst to catch up', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    // gw's first request a second before those: its own traffic fills the second before the 429.
    gate.answered(passed(await gate.enter(60_000)))
    for (let i = 0; i < 100; i++) {
      sim.now = 1000 + i * 5
      gate.answered(passed(await gate.enter(60_000)))
    }
    sim.now = 1500
    gate.limitedFor(passed(await gate.enter(60_000)), 1000)
    expect(gate.met.pacedPerSecond).toBe(90)
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      void gate.enter(60_000).then((held) => {
        const pass = passed(held)
        times.push(pass.sentAt)
        gate.answered(pass)
      })
    }
    await sim.runUntil(() => times.length === 5)
    expect(times.map((time) => Math.round(time))).toEqual([2500, 2511, 2522, 2533, 2544])
    // Turns woken late (the process was busy) leave a turn apart, not together.
    const woken: number[] = []
    for (let i = 0; i < 3; i++) {
      void gate.enter(60_000).then((held) => {
        const pass = passed(held)
        woken.push(pass.sentAt)
        gate.answered(pass)
      })
    }
    await new Promise((resolve) => setImmediate(resolve))
    sim.now = 2700
    await sim.runUntil(() => woken.length === 3)
    expect(woken.map((time) => Math.round(time))).toEqual([2700, 2711, 2722])
    // Late to its turn (the process was busy): the next goes a turn after it, not at once.
    sim.now = 4000
    const late = passed(await gate.enter(60_000)).sentAt
    let after: number | undefined
    void gate.enter(60_000).then((pass) => (after = passed(pass).sentAt))
    await sim.runUntil(() => after !== undefined)
    expect(Math.round(after! - late)).toBe(11)
  })

  /** `count` requests answered `every` ms apart from `from`, then one at `limitedAt` answered 429 (a wait of a second). */
  async function takenThenLimited(gate: Gate, sim: SimulatedClock, {count, from, every, limitedAt}: {count: number; from: number; every: number; limitedAt: number}): Promise<void> {
    for (let i = 0; i < count; i++) {
      sim.now = from + i * every
      gate.answered(passed(await gate.enter(60_000)))
    }
    sim.now = limitedAt
    gate.limitedFor(passed(await gate.enter(60_000)), 1000)
  }

  /** Each second of answers after the wait, the pace gw keeps to. */
  async function pacesAfter(gate: Gate, sim: SimulatedClock, from: number, seconds: number): Promise<number[]> {
    const paces: number[] = []
    for (let second = 1; second <= seconds; second++) {
      sim.now = from + second * 1000
      gate.answered(passed(await gate.enter(60_000)))
      paces.push(Number(gate.met.pacedPerSecond!.toFixed(2)))
    }
    return paces
  }

  it('limited under a second after its first request: the rest of that second was others\' traffic, so no pace is set from it, only the wait and fewer in flight', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    // Another client (an earlier batch, the merchant's site) had filled the gateway's second: gw's first 20 went in its first 200 ms.
    await takenThenLimited(gate, sim, {count: 20, from: 0, every: 10, limitedAt: 200})
    expect(gate.met).toEqual({limited: 1, waitedMs: 0})
    // Over a whole second of its own, the next 429 is measured: 100 taken in the second before it.
    await takenThenLimited(gate, sim, {count: 100, from: 1500, every: 5, limitedAt: 2000})
    expect(gate.met.pacedPerSecond).toBe(90)
  })

  it('limited over a whole second of its own requests: what the gateway took is the ceiling, neared quickly, passed slowly', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    await takenThenLimited(gate, sim, {count: 300, from: 0, every: 5, limitedAt: 1500})
    expect(gate.met.pacedPerSecond).toBe(180)
    expect(await pacesAfter(gate, sim, 2500, 3)).toEqual([194, 194.39, 194.78])
  })

  it('slows down once for the requests sent at one pace: the other 429s of a burst only hold the wait', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    gate.answered(passed(await gate.enter(60_000)))
    sim.now = 1000
    for (let i = 0; i < 50; i++) gate.answered(passed(await gate.enter(60_000)))
    sim.now = 1005
    const burst = await Promise.all(Array.from({length: 8}, () => gate.enter(60_000).then(passed)))
    sim.now = 1010
    for (const pass of burst) gate.limitedFor(pass, 1000)
    expect(gate.met).toEqual({limited: 8, waitedMs: 0, pacedPerSecond: 45})
    // Half of the 8 in flight at the first 429: room for 4, not halved again by the other seven.
    let entered = 0
    for (let i = 0; i < 5; i++) void gate.enter(60_000).then(() => entered++)
    await sim.runUntil(() => entered === 4)
    await sim.runUntil(() => true)
    expect(entered).toBe(4)
  })

  it('a request stopped while it waits for room is not sent, and holds no room', async () => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    const [a, b] = await Promise.all([gate.enter(60_000).then(passed), gate.enter(60_000).then(passed)])
    gate.limitedFor(a, 0)
    const stop = new AbortController()
    const waiting = gate.enter(60_000, stop.signal)
    stop.abort()
    expect(await waiting).toEqual({stopped: true})
    gate.answered(b)
    expect('sentAt' in (await gate.enter(60_000))).toBe(true)
  })
})

/**
 * A gateway that takes `limit` requests in any sliding second (every request counts, refused ones
 * too), answering each after `latencyMs`, and a 429 with Retry-After in whole seconds, rounded up.
 */
function slidingWindowGateway(limit: number, sim: SimulatedClock) {
  const arrivals: number[] = []
  let refused = 0
  return {
    get refused() {
      return refused
    },
    arrive(): number | undefined {
      const now = sim.now
      while (arrivals.length > 0 && arrivals[0]! <= now - 1000) arrivals.shift()
      const over = arrivals.length >= limit
      arrivals.push(now)
      if (!over) return undefined
      refused++
      return Math.max(1, Math.ceil((arrivals[arrivals.length - limit - 1]! + 1000 - now) / 1000)) * 1000
    },
  }
}

describe('a batch through the gate against a limit of 100 a second (simulated)', () => {
  it.each([
    // concurrency, latency each way (ms)
    [4, 0],
    [8, 1],
    [16, 10],
    [32, 25],
  ])('3,000 rows, %s in flight, %s ms each way: every row once, at 85 a second or better, few 429s', async (concurrency, latencyMs) => {
    const sim = new SimulatedClock()
    const gate = new Gate(sim.clock)
    const gateway = slidingWindowGateway(100, sim)
    let next = 0
    let done = 0
    const worker = async () => {
      while (next < 3000) {
        next++
        for (;;) {
          const pass = passed(await gate.enter(60_000))
          await sim.clock.sleep(latencyMs)
          const retryAfterMs = gateway.arrive()
          await sim.clock.sleep(latencyMs)
          if (retryAfterMs === undefined) {
            gate.answered(pass)
            break
          }
          gate.limitedFor(pass, retryAfterMs)
        }
        done++
      }
    }
    const workers = Promise.all(Array.from({length: concurrency}, worker))
    await sim.runUntil(() => done === 3000)
    await workers
    const perSecond = 3000 / (sim.now / 1000)
    expect(perSecond).toBeGreaterThanOrEqual(85)
    expect(gateway.refused).toBeLessThan(concurrency * 4)
  })
})
