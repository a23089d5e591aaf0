import {join} from 'node:path'

// Where gw's guides are in this install, as bin/start.js found them as gw started (guidesPlace):
// docs/ beside gw, or, for a gw copied without them, their copy online for this version. Help and
// hints name a guide by its place there, never a docs/ that the install may not have.

const GUIDES = Symbol.for('gw.guides')

/** The guides' folder or address; undefined where gw was not started by its bin (a test, the command reference's build). */
export function guidesPlace(): string | undefined {
  const place = (globalThis as Record<symbol, unknown>)[GUIDES]
  return typeof place === 'string' ? place : undefined
}

/** A guide's place in this install: `guide('finding-records.md')`; under a bare `docs/` where gw knows none. */
export function guide(file: string, place = guidesPlace()): string {
  if (!place) return `docs/${file}`
  return /^https?:\/\//.test(place) ? `${place}/${file}` : join(place, file)
}

/** Text whose guides (`docs/` and a page's name) are made this install's places: help is written once for every install. */
export function placeGuides(text: string, place = guidesPlace()): string {
  return place ? text.replace(/\bdocs\/([\w-]+\.md)\b/g, (_, file: string) => guide(file, place)) : text
}
