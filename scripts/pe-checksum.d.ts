/** scripts/pe-checksum.js: a Windows executable's PE checksum, computed, read and written. */
export function computePeChecksum(bytes: Buffer, checksumAt?: number): number
export function readPe(bytes: Buffer): {checksum: number; computed: number; signed: boolean} | undefined
export function writePeChecksum(file: string): number
export function hex(checksum: number): string
