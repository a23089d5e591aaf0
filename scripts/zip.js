// A zip archive of a few files, as Windows users expect a download to be (Explorer opens it,
// Expand-Archive and Scoop unpack it): each file deflated, with its CRC-32 (node:zlib has both),
// no zip64 (the files are far below 4 GiB), and the time of the newest file, so that the same
// files make the same archive.
import {readFileSync, statSync, writeFileSync} from 'node:fs'
import {crc32, deflateRawSync, inflateRawSync} from 'node:zlib'

/** Writes `file`, holding each {name, path} of `entries` under its name (forward slashes). */
export function writeZip(file, entries) {
  const when = dosTime(new Date(Math.max(...entries.map(({path}) => statSync(path).mtimeMs))))
  const locals = []
  const central = []
  let offset = 0
  for (const {name, path} of entries) {
    const data = readFileSync(path)
    const packed = deflateRawSync(data, {level: 9})
    const nameBytes = Buffer.from(name, 'utf8')
    // version needed 2.0, flags (bit 11: the name is UTF-8), method 8 (deflate), time, date, crc, sizes, name length, extra length.
    const fields = (header) => {
      header.writeUInt16LE(20, 4)
      header.writeUInt16LE(0x800, 6)
      header.writeUInt16LE(8, 8)
      header.writeUInt16LE(when.time, 10)
      header.writeUInt16LE(when.date, 12)
      header.writeUInt32LE(crc32(data), 14)
      header.writeUInt32LE(packed.length, 18)
      header.writeUInt32LE(data.length, 22)
      header.writeUInt16LE(nameBytes.length, 26)
    }
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    fields(local)
    locals.push(local, nameBytes, packed)

    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    // version made by: 3.0 on Unix (3), so the mode in the external attributes is read.
    entry.writeUInt16LE((3 << 8) | 30, 4)
    // The same fields as the local header's, two bytes on.
    fields(entry.subarray(2))
    entry.writeUInt32LE((((statSync(path).mode & 0o777) | 0o100000) << 16) >>> 0, 38)
    entry.writeUInt32LE(offset, 42)
    central.push(entry, nameBytes)
    offset += local.length + nameBytes.length + packed.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  writeFileSync(file, Buffer.concat([...locals, directory, end]))
}

/**
 * The bytes of the entry `name` in the zip archive `file`, found through its central directory,
 * or undefined where it holds none: how a release's Windows executable is read where no unzip is
 * installed (Windows). Stored and deflated entries; no zip64, as writeZip makes none.
 */
export function readZipEntry(file, name) {
  const zip = readFileSync(file)
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || end + 22 > zip.length) throw new Error(`${file} is not a zip archive`)
  let at = zip.readUInt32LE(end + 16)
  for (let index = 0; index < zip.readUInt16LE(end + 10); index++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: its central directory is damaged`)
    const method = zip.readUInt16LE(at + 10)
    const [packedSize, size] = [zip.readUInt32LE(at + 20), zip.readUInt32LE(at + 24)]
    const [nameLength, extraLength, commentLength] = [28, 30, 32].map((field) => zip.readUInt16LE(at + field))
    const offset = zip.readUInt32LE(at + 42)
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const data = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28)
      const packed = zip.subarray(data, data + packedSize)
      const bytes = method === 0 ? Buffer.from(packed) : method === 8 ? inflateRawSync(packed) : undefined
      if (!bytes || bytes.length !== size || crc32(bytes) !== zip.readUInt32LE(at + 16)) throw new Error(`${file}: ${name} cannot be read whole (method ${method})`)
      return bytes
    }
    at += 46 + nameLength + extraLength + commentLength
  }
  return undefined
}

/** MS-DOS time and date, as zip keeps them (local time, two-second steps). */
function dosTime(date) {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  }
}
