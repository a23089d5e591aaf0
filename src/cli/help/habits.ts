/**
 * Words other tools use for a verb or topic gw names otherwise, tried in order where gw has one
 * of them at that place: `gw purchase view` is gw purchase get (gh's view), `gw profile switch`
 * is use (kubectl's use-context), `gw charges list` is gw purchase list (the Stripe CLI's).
 */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  view: ['get'],
  show: ['get'],
  ls: ['list'],
  new: ['create'],
  add: ['create'],
  edit: ['update'],
  rm: ['delete', 'remove'],
  delete: ['remove'],
  remove: ['delete'],
  switch: ['use'],
  select: ['use'],
  charge: ['purchase'],
  charges: ['purchase'],
}

/** A command of gh or the Stripe CLI, and what does its work in gw (none: gw has nothing like it). */
interface Habit {
  command?: string
  does: string
}

/**
 * Commands of gh and the Stripe CLI that gw has under another name, by the words typed: a person's
 * habit is answered with the gw command that does the work (design.md §4: still a usage error).
 */
const HABITS: Readonly<Record<string, Habit>> = {
  logs: {command: 'sandbox logs', does: "It shows the local gateway's requests, and follows them with -f."},
  'logs tail': {command: 'sandbox logs -f', does: "It follows the local gateway's requests."},
  trigger: {command: 'sandbox trigger', does: 'It sends a sample web hook event from the local gateway.'},
  fixtures: {command: 'sandbox seed', does: 'It makes records in the local gateway from a fixtures file.'},
  config: {command: 'profile', does: "gw's settings are its profiles: gw profile list, show and use."},
  auth: {command: 'login', does: 'gw login, gw logout and gw status manage credentials.'},
  'auth login': {command: 'login', does: 'It saves a profile and its token.'},
  'auth logout': {command: 'logout', does: "It removes a profile's token."},
  'auth status': {command: 'status', does: 'It shows the profile in use and where its token is kept.'},
  'auth switch': {command: 'profile use', does: 'It makes another profile the active one.'},
  'auth token': {command: 'status', does: 'gw never prints a token; gw status says where it is kept.'},
  whoami: {command: 'status', does: 'It shows the profile in use, its merchant and gateway.'},
  get: {command: 'api', does: 'It sends a request of your own to the gateway: gw api GET /v1.0/purchases.'},
  post: {command: 'api', does: 'It sends a request of your own to the gateway: gw api POST /v1.0/purchases -f amount=1000.'},
  open: {does: "gw opens no browser: its guides are gw help's topics and the docs folder."},
  browse: {does: "gw opens no browser: its guides are gw help's topics and the docs folder."},
}

/** The habit the first words typed name (two words before one: `auth login` before `auth`), with the words it took. */
export function habitOf(words: readonly string[]): {typed: string[]; habit: Habit} | undefined {
  for (const count of [2, 1]) {
    const typed = words.slice(0, count)
    const habit = typed.length === count ? HABITS[typed.join(' ')] : undefined
    if (habit) return {typed, habit}
  }
  return undefined
}
