import type {SeedReport, SeedStatus} from '../operations/seed.js'
import {redact} from '../safety/redact.js'
import {paint, type Style} from './colors.js'
import type {Io} from './io.js'
import {toJson, toNdjsonLine} from './json.js'
import {sanitizeLine} from '../safety/sanitize.js'

const STYLE: Record<SeedStatus, Style> = {created: 'green', present: 'dim', differs: 'red', declined: 'yellow', failed: 'red'}

/** What names a record in a line: its id, or a card's alias and token. */
const KEYS = ['id', 'alias', 'token', 'reference', 'address']

/**
 * `gw sandbox seed` as each step ends: one JSON line a step to a pipe (or with --json, pretty on a
 * terminal), `{"step", "name", "status", "record"}`, a failed one with `error` instead of its
 * record, one that differs with the record found, its `differences` (`{field, file, gateway}`) and
 * `error`; on a terminal a line a step, its status coloured. Card numbers masked, as everywhere.
 */
export function seedPrinter(io: Io, {json}: {json: boolean}): {step(report: SeedReport): void; summary(reports: SeedReport[]): void} {
  return {
    step(report) {
      if (!io.isStdoutTTY || json) {
        const line = {
          step: report.step,
          name: report.name,
          status: report.status,
          record: report.record ? redact(report.record) : null,
          ...(report.differences ? {differences: report.differences.map(({field, expected, found}) => redact({field, file: expected, gateway: found}))} : {}),
          ...(report.error ? {error: {kind: report.error.kind, exit_code: report.error.exitCode, message: report.error.message}} : {}),
        }
        io.out(io.isStdoutTTY ? toJson(line, io.color) : toNdjsonLine(line))
        return
      }
      const status = paint(io.color, STYLE[report.status], report.status.padEnd(8))
      const names = report.record ? KEYS.filter((key) => typeof report.record![key] === 'string').map((key) => sanitizeLine(String(report.record![key]))) : []
      const said = report.error ? sanitizeLine(report.error.message) : [...new Set(names)].join('  ')
      io.out(`${String(report.step).padStart(3)}  ${sanitizeLine(report.name).padEnd(16)} ${report.create.padEnd(12)} ${status}  ${said}\n`)
    },
    summary(reports) {
      const counts = (['created', 'present', 'declined'] as const).map((status) => [status, reports.filter((report) => report.status === status).length] as const)
      const told = counts.filter(([, count]) => count > 0).map(([status, count]) => `${count} ${status}`)
      io.err(`${reports.length} ${reports.length === 1 ? 'step' : 'steps'}: ${told.join(', ')}.\n`)
    },
  }
}
