// A Windows executable's PE checksum, as Windows's CheckSumMappedFile computes it: the file's
// 16-bit words summed with their carries folded back in, the checksum field itself left out, plus
// the file's length. postject's injection changes the bytes and leaves the old checksum, which
// Windows tools (and osslsigncode verify) then call invalid: `npm run package` writes it again
// right after the injection (scripts/package.js), and scripts/release-files.js checks it with
// this code whether or not osslsigncode is installed.
import {readFileSync, writeFileSync} from 'node:fs'

/** Where a PE file's fields are: its checksum, and whether it carries a signature (the security directory). */
function layout(bytes) {
  if (bytes.length < 0x40 || bytes.toString('latin1', 0, 2) !== 'MZ') return undefined
  const pe = bytes.readUInt32LE(0x3c)
  if (bytes.length < pe + 24 + 96 || bytes.readUInt32BE(pe) !== 0x50450000) return undefined
  const optional = pe + 24
  const magic = bytes.readUInt16LE(optional)
  if (magic !== 0x10b && magic !== 0x20b) return undefined
  // The data directories follow the optional header's fixed part (96 bytes in PE32, 112 in PE32+); the fifth is the certificate table.
  const security = optional + (magic === 0x20b ? 112 : 96) + 4 * 8
  return {checksumAt: optional + 64, securitySizeAt: security + 4 < bytes.length ? security + 4 : undefined}
}

/** The checksum a PE file's bytes give, its own checksum field left out. */
export function computePeChecksum(bytes, checksumAt = layout(bytes)?.checksumAt) {
  if (checksumAt === undefined) throw new Error('not a PE file')
  const words = bytes.length >>> 1
  // A view of the bytes as 16-bit words, in the machine's order: little-endian, as PE is, on every
  // platform gw builds on (x64, arm64). The file read whole is aligned; a slice may not be.
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : Buffer.from(bytes)
  const view = new Uint16Array(aligned.buffer, aligned.byteOffset, words)
  let sum = 0
  for (let index = 0; index < words; index++) sum += view[index]
  sum -= bytes.readUInt16LE(checksumAt) + bytes.readUInt16LE(checksumAt + 2)
  if (bytes.length & 1) sum += bytes[bytes.length - 1]
  while (sum > 0xffff) sum = (sum % 0x10000) + Math.floor(sum / 0x10000)
  return (sum + bytes.length) >>> 0
}

/**
 * A PE file judged by its own bytes: `{checksum, computed, signed}`, the checksum its header
 * holds, the one its bytes give, and whether it carries a signature; undefined where it is no PE.
 */
export function readPe(bytes) {
  const found = layout(bytes)
  if (!found) return undefined
  const signed = found.securitySizeAt !== undefined && bytes.readUInt32LE(found.securitySizeAt) > 0
  return {checksum: bytes.readUInt32LE(found.checksumAt), computed: computePeChecksum(bytes, found.checksumAt), signed}
}

/** Writes the right checksum into the PE file at `file`; returns it. */
export function writePeChecksum(file) {
  const bytes = readFileSync(file)
  const found = layout(bytes)
  if (!found) throw new Error(`${file} is not a PE file`)
  const checksum = computePeChecksum(bytes, found.checksumAt)
  bytes.writeUInt32LE(checksum, found.checksumAt)
  writeFileSync(file, bytes)
  return checksum
}

/** A checksum as osslsigncode prints it: eight upper-case hex digits. */
export function hex(checksum) {
  return checksum.toString(16).toUpperCase().padStart(8, '0')
}
