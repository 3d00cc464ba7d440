/**
 * Zips written by hand for the spreadsheet tests, so a test controls every header field: sizes that lie, data
 * descriptors, extra fields. Only tests import this file.
 */
/* eslint-disable @typescript-eslint/no-unused-expressions -- headers are written as comma sequences, as in tests */

export interface ZipFile {
  name: string;
  /** The entry's data as written in the zip (already deflated when `method` is 8). */
  content: Uint8Array;
  /** 0, stored (the default), or 8, deflated. */
  method?: number;
  /** The uncompressed size the headers declare: the content's length by default. */
  size?: number;
  /** Whether the CRC and sizes follow the data in a data descriptor (the local header then holds zeros). */
  descriptor?: boolean;
  /** An extra field, written in both headers. */
  extra?: Uint8Array;
}

/** A zip of the given files, written by hand so tests control every header field (CRCs are left at 0). */
export function zipOf(files: ZipFile[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  const central: number[] = [];
  const u16 = (out: number[], v: number) => out.push(v & 0xff, (v >>> 8) & 0xff);
  const u32 = (out: number[], v: number) => out.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  for (const file of files) {
    const name = new TextEncoder().encode(file.name);
    const extra = file.extra ?? new Uint8Array(0);
    const method = file.method ?? 0;
    const size = file.size ?? file.content.length;
    const flags = file.descriptor ? 0x0008 : 0;
    const local: number[] = [];
    u32(local, 0x04034b50);
    (u16(local, 20), u16(local, flags), u16(local, method), u16(local, 0), u16(local, 0));
    (u32(local, 0), u32(local, file.descriptor ? 0 : file.content.length), u32(local, file.descriptor ? 0 : size));
    (u16(local, name.length), u16(local, extra.length));
    local.push(...name, ...extra);
    const descriptor: number[] = [];
    if (file.descriptor)
      (u32(descriptor, 0x08074b50), u32(descriptor, 0), u32(descriptor, file.content.length), u32(descriptor, size));
    u32(central, 0x02014b50);
    (u16(central, 20), u16(central, 20), u16(central, flags), u16(central, method), u16(central, 0), u16(central, 0));
    (u32(central, 0), u32(central, file.content.length), u32(central, size));
    (u16(central, name.length), u16(central, extra.length), u16(central, 0), u16(central, 0), u16(central, 0));
    (u32(central, 0), u32(central, offset));
    central.push(...name, ...extra);
    parts.push(new Uint8Array(local), file.content, new Uint8Array(descriptor));
    offset += local.length + file.content.length + descriptor.length;
  }
  const end: number[] = [];
  u32(end, 0x06054b50);
  (u16(end, 0), u16(end, 0), u16(end, files.length), u16(end, files.length));
  (u32(end, central.length), u32(end, offset), u16(end, 0));
  parts.push(new Uint8Array(central), new Uint8Array(end));
  return concat(parts);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) (out.set(part, at), (at += part.length));
  return out;
}
