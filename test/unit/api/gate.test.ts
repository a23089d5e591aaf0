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

/** A gate whose requests are answered within 70 s of leaving, as gw's are by default (a connect of 10 s, then 60 s for the headers). */
const newGate = (sim: SimulatedClock) => new Gate(sim.clock, 70_000)

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
    const gate = newGate(sim)
    const passes = await Promise.all(Array.from({length: 20}, () => gate.enter(60_000)))
    expect(passes.map((pass) => passed(pass).sentAt)).toEqual(Array(20).fill(0))
    expect(gate.met).toStrictEqual({limited: 0, waitedMs: 0})
  })

  it('holds every request while the gateway says wait, and counts waits that overlap once', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
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

  it('lets nothing through when the gateway asks a longer wait than the bound: the wait left is said, and nothing is held; a wait of the bound is waited', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    gate.limitedFor(passed(await gate.enter(60_000)), 3_600_000)
    sim.now = 1000
    expect(await gate.enter(60_000)).toEqual({waitMs: 3_599_000})
    // Nothing was held by it: a request allowed to wait that long goes once the wait is over.
    const later = gate.enter(7_200_000)
    await sim.runUntil(() => sim.now >= 3_600_000)
    expect(passed(await later).sentAt).toBe(3_600_000)
    // A wait of exactly the bound is waited.
    gate.limitedFor(passed(await later), 1000)
    const waiting = gate.enter(1000)
    await sim.runUntil(() => sim.now >= 3_601_000)
    expect(passed(await waiting).sentAt).toBe(3_601_000)
  })

  it('a request stopped while it waits out the gateway\'s wait is not sent, and holds no room', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    // One in flight at the 429: room for one.
    gate.limitedFor(passed(await gate.enter(60_000)), 1000)
    const stop = new AbortController()
    const waiting = gate.enter(60_000, stop.signal)
    stop.abort()
    let result: Pass | Held | undefined
    void waiting.then((held) => (result = held))
    await sim.runUntil(() => result !== undefined)
    expect(result).toEqual({stopped: true})
    expect(await roomFor(gate)).toBe(1)
  })

  it('after a 429 keeps half as many in flight, one more after each round of answers, and opens again past the most it had', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
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

  it('after a 429 the room grows by one a round of answers up to the most it had in flight, 8, and then opens', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    const inFlight = await Promise.all(Array.from({length: 8}, () => gate.enter(60_000).then(passed)))
    gate.limitedFor(inFlight[0]!, 0)
    // A round of 4 (the room of 4) makes room for 5; three more of the next round answer with it.
    for (const pass of inFlight.slice(1)) gate.answered(pass)
    const rooms = [await roomFor(gate)]
    for (const round of [2, 6, 7, 8]) {
      for (let i = 0; i < round; i++) gate.answered(passed(await gate.enter(60_000)))
      rooms.push(await roomFor(gate))
    }
    expect(rooms).toEqual([5, 6, 7, 8, 30])
  })

  it('paces by rate after a 429: the gateway took 100 in the second before, so 90 a second, one every 11.1 ms, and no burst to catch up', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    // gw's first request a second before those: its own traffic fills the second before the 429.
    gate.answered(passed(await gate.enter(60_000)))
    await taken(gate, sim, {count: 100, from: 1000, every: 5})
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

  /** `count` requests answered `every` ms apart from `from`. */
  async function taken(gate: Gate, sim: SimulatedClock, {count, from, every}: {count: number; from: number; every: number}): Promise<void> {
    for (let i = 0; i < count; i++) {
      sim.now = from + i * every
      gate.answered(passed(await gate.enter(60_000)))
    }
  }

  /** A gate whose first request left at 0, and 100 more answered from 1000 to 1495: at 1500, a second of its own taken. */
  async function aSecondTaken(sim: SimulatedClock): Promise<Gate> {
    const gate = newGate(sim)
    gate.answered(passed(await gate.enter(60_000)))
    await taken(gate, sim, {count: 100, from: 1000, every: 5})
    sim.now = 1500
    return gate
  }

  /** `count` requests answered `every` ms apart from `from`, then one at `limitedAt` answered 429 (a wait of a second). */
  async function takenThenLimited(gate: Gate, sim: SimulatedClock, {count, from, every, limitedAt}: {count: number; from: number; every: number; limitedAt: number}): Promise<void> {
    await taken(gate, sim, {count, from, every})
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
    const gate = newGate(sim)
    // Another client (an earlier batch, the merchant's site) had filled the gateway's second: gw's first 20 went in its first 200 ms.
    await takenThenLimited(gate, sim, {count: 20, from: 0, every: 10, limitedAt: 200})
    expect(gate.met).toStrictEqual({limited: 1, waitedMs: 0})
    // Over a whole second of its own, the next 429 is measured: 100 taken in the second before it.
    await takenThenLimited(gate, sim, {count: 100, from: 1500, every: 5, limitedAt: 2000})
    expect(gate.met.pacedPerSecond).toBe(90)
  })

  it.each([
    // how late the request left (ms), and when the next left
    [500, 4000],
    [1000, 5000],
  ])('paced to a request a second: one that leaves %s ms late moves the next turn on only if it was a whole turn late (the next leaves at %s)', async (lateMs, nextAt) => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    // One taken in the second before the 429: a request a second, its turns 1000 ms apart, from the end of the wait at 2000.
    await takenThenLimited(gate, sim, {count: 1, from: 0, every: 0, limitedAt: 1000})
    expect(gate.met.pacedPerSecond).toBe(1)
    const left: number[] = []
    const enter = () =>
      void gate.enter(60_000).then((held) => {
        const pass = passed(held)
        left.push(pass.sentAt)
        gate.answered(pass)
      })
    enter()
    enter()
    await sim.runUntil(() => left.length === 1)
    // The second's turn is at 3000; the process wakes it late, and the third asks then.
    sim.now = 3000 + lateMs
    await sim.runUntil(() => left.length === 2)
    enter()
    await sim.runUntil(() => left.length === 3)
    expect(left).toEqual([2000, 3000 + lateMs, nextAt])
  })

  it('paced, and the gateway says wait while requests wait for their turns: after the wait they leave a turn apart, not together', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    gate.answered(passed(await gate.enter(60_000)))
    // At 1000, 8 in flight; one refused: one taken in the second before, a request a second from 2000.
    sim.now = 1000
    const inFlight = await Promise.all(Array.from({length: 8}, () => gate.enter(60_000).then(passed)))
    gate.limitedFor(inFlight[0]!, 1000)
    for (const pass of inFlight.slice(1, 7)) gate.answered(pass)
    const left: number[] = []
    for (let i = 0; i < 3; i++) void gate.enter(60_000).then((pass) => left.push(passed(pass).sentAt))
    await sim.runUntil(() => left.length === 1)
    // The last of the 8, sent at the old pace, is refused at 2500 with a wait to 5500; the turns of 3000 and 4000 are taken then.
    sim.now = 2500
    gate.limitedFor(inFlight[7]!, 3000)
    await sim.runUntil(() => left.length === 3)
    expect(left).toEqual([2000, 5500, 6500])
    expect(gate.met.pacedPerSecond).toBe(1)
  })

  it.each<[string, (sim: SimulatedClock) => Promise<Gate>]>([
    [
      'limited exactly a second after its first request: that second was its own',
      async (sim) => {
        const gate = newGate(sim)
        await takenThenLimited(gate, sim, {count: 100, from: 0, every: 5, limitedAt: 1000})
        return gate
      },
    ],
    [
      'a 429 that comes two seconds after its request left: the second before it left, all the same',
      async (sim) => {
        const gate = await aSecondTaken(sim)
        const slow = passed(await gate.enter(60_000))
        sim.now = 3600
        gate.answered(passed(await gate.enter(60_000)))
        sim.now = 3700
        gate.limitedFor(slow, 1000)
        return gate
      },
    ],
    [
      'not a request sent in the same millisecond as the refused one and answered first',
      async (sim) => {
        const gate = await aSecondTaken(sim)
        const [refused, alongside] = await Promise.all([gate.enter(60_000).then(passed), gate.enter(60_000).then(passed)])
        gate.answered(alongside)
        gate.limitedFor(refused, 1000)
        return gate
      },
    ],
  ])('counts the 100 taken in the second before the refused request left, and paces to 90: %s', async (_, limited) => {
    const gate = await limited(new SimulatedClock())
    expect(gate.met.pacedPerSecond).toBe(90)
  })

  it('limited over a whole second of its own requests: what the gateway took is the ceiling, neared quickly, passed slowly', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    await takenThenLimited(gate, sim, {count: 300, from: 0, every: 5, limitedAt: 1500})
    expect(gate.met.pacedPerSecond).toBe(180)
    expect(await pacesAfter(gate, sim, 2500, 3)).toEqual([194, 194.39, 194.78])
  })

  it.each([
    ['answered 5 ms after it left', 1010],
    ['answered in the millisecond it left', 1005],
  ])('slows down once for the requests sent at one pace: the other 429s of a burst only hold the wait (%s)', async (_, limitedAt) => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    gate.answered(passed(await gate.enter(60_000)))
    sim.now = 1000
    for (let i = 0; i < 50; i++) gate.answered(passed(await gate.enter(60_000)))
    sim.now = 1005
    const burst = await Promise.all(Array.from({length: 8}, () => gate.enter(60_000).then(passed)))
    sim.now = limitedAt
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
    const gate = newGate(sim)
    const [a, b] = await Promise.all([gate.enter(60_000).then(passed), gate.enter(60_000).then(passed)])
    gate.limitedFor(a, 0)
    const stop = new AbortController()
    const waiting = gate.enter(60_000, stop.signal)
    stop.abort()
    expect(await waiting).toEqual({stopped: true})
    // b's answer is a round at a room of one: room for the two there were.
    gate.answered(b)
    expect(await roomFor(gate)).toBe(2)
  })

  it('a request whose signal stops it after it was let through changes nothing for those still waiting', async () => {
    const sim = new SimulatedClock()
    const gate = newGate(sim)
    // Two in flight, one refused: room for one, and the other (failed below) holds it.
    const [refused] = await Promise.all([gate.enter(60_000).then(passed), gate.enter(60_000).then(passed)])
    gate.limitedFor(refused, 0)
    const stop = new AbortController()
    const first = gate.enter(60_000, stop.signal)
    let second: Pass | undefined
    void gate.enter(60_000).then((pass) => (second = passed(pass)))
    // The other failed: room for first; second waits for the next.
    gate.failed()
    passed(await first)
    stop.abort()
    gate.failed()
    await sim.runUntil(() => second !== undefined)
    expect(second!.sentAt).toBe(0)
  })
})

/**
 * How many requests the gate lets through at once now: 30 are asked for, those let through are
 * ended as failures and the rest stopped, which leaves the gate's room as it was.
 */
async function roomFor(gate: Gate): Promise<number> {
  const stop = new AbortController()
  let room = 0
  const asked = Array.from({length: 30}, () => gate.enter(60_000, stop.signal).then((pass) => void ('sentAt' in pass && room++)))
  await new Promise((resolve) => setImmediate(resolve))
  stop.abort()
  for (let i = 0; i < room; i++) gate.failed()
  await Promise.all(asked)
  return room
}

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
    const gate = newGate(sim)
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
