/** Whether the local gateway answers as the sandbox or as the live gateway. Imports nothing, so any module may use it. */
export type Mode = 'sandbox' | 'live'
