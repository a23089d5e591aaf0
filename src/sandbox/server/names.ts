/** The local gateway started without --name: its profile is `local`, its files keep the names they always had. */
export const DEFAULT_SANDBOX = 'local'

/** What a local gateway's name may be: it names its files in gw's data folder and its profile. */
export const SANDBOX_NAME = /^[A-Za-z0-9][\w-]{0,39}$/
