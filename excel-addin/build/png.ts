/**
 * A minimal PNG encoder (RGBA, 8 bit, no interlace) on node:zlib, so the
 * build draws its icons without an image dependency.
 */
import { deflateSync } from "node:zlib";

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  // `& 0xff` keeps the index within the table's 256 entries: the `?? 0` never applies.
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** `rgba` holds width*height*4 bytes, row by row. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4) throw new Error(`expected ${width * height * 4} bytes, got ${rgba.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  // compression, filter, interlace: all 0
  const raw = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    raw[y * (1 + width * 4)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (1 + width * 4) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

type Rgb = [number, number, number];

/**
 * The add-in's icon at any size: a blue rounded square with a white
 * building (three storeys of windows). Drawn in unit coordinates so every
 * size is the same picture.
 */
export function drawIcon(size: number): Uint8Array {
  const px = new Uint8Array(size * size * 4);
  const blue: Rgb = [0x1f, 0x5f, 0xa8];
  const white: Rgb = [0xff, 0xff, 0xff];
  const radius = 0.18;
  const inRounded = (u: number, v: number) => {
    const dx = Math.max(radius - u, 0, u - (1 - radius));
    const dy = Math.max(radius - v, 0, v - (1 - radius));
    return dx * dx + dy * dy <= radius * radius;
  };
  const inBuilding = (u: number, v: number) => u >= 0.28 && u <= 0.72 && v >= 0.2 && v <= 0.84;
  const inWindow = (u: number, v: number) => {
    const cols: [number, number][] = [
      [0.36, 0.46],
      [0.54, 0.64],
    ];
    const rows: [number, number][] = [
      [0.3, 0.4],
      [0.48, 0.58],
    ];
    const door = u >= 0.44 && u <= 0.56 && v >= 0.66 && v <= 0.84;
    return door || (cols.some(([a, b]) => u >= a && u <= b) && rows.some(([a, b]) => v >= a && v <= b));
  };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const u = (x + 0.5) / size;
      const v = (y + 0.5) / size;
      const i = (y * size + x) * 4;
      if (!inRounded(u, v)) continue; // transparent corner
      const c = inBuilding(u, v) && !inWindow(u, v) ? white : blue;
      px[i] = c[0];
      px[i + 1] = c[1];
      px[i + 2] = c[2];
      px[i + 3] = 0xff;
    }
  }
  return px;
}

/** Ribbon (16, 32, 80) and store (64, 128) sizes. */
export const ICON_SIZES = [16, 32, 64, 80, 128] as const;

export const iconPng = (size: number) => encodePng(size, size, drawIcon(size));
