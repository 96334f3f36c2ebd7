// Hand-made image files for the abuse tests: tiny files that declare huge canvases (the decode
// bombs of issue 9), and pictures that carry a location in metadata sharp itself would not write.
import { deflateSync } from "node:zlib";

const ascii = (text: string) => [...new TextEncoder().encode(text)];
const le16 = (n: number) => [n & 255, (n >> 8) & 255];
const le32 = (n: number) => [...le16(n & 0xffff), ...le16(n >>> 16)];

/** Writes bits least significant first, as VP8L and GIF's LZW read them. */
class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private used = 0;
  put(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.acc |= ((value >> i) & 1) << this.used;
      if (++this.used === 8) [this.bytes, this.acc, this.used] = [[...this.bytes, this.acc], 0, 0];
    }
  }
  done(): number[] {
    return this.used ? [...this.bytes, this.acc] : this.bytes;
  }
}

/**
 * A lossless WebP of one colour: every prefix code has a single symbol, so the pixels take zero
 * bits and 32 bytes declare any canvas up to 16384x16384 that libwebp really decodes.
 */
export function webpBomb(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bits = new BitWriter();
  bits.put(0x2f, 8);
  bits.put(width - 1, 14);
  bits.put(height - 1, 14);
  bits.put(0, 4); // no alpha, version 0
  bits.put(0, 3); // no transform, no colour cache, no meta prefix codes
  for (const symbol of [0x80, 0x40, 0x20, 0xff]) [1, 0, 1].forEach((bit) => bits.put(bit, 1)), bits.put(symbol, 8);
  [1, 0, 0, 0].forEach((bit) => bits.put(bit, 1)); // distance code: one 1-bit symbol
  const vp8l = bits.done();
  if (vp8l.length % 2) vp8l.push(0);
  return new Uint8Array([...ascii("RIFF"), ...le32(12 + vp8l.length), ...ascii("WEBPVP8L"), ...le32(vp8l.length), ...vp8l]);
}

/** One GIF frame of `width`x`height` whose LZW data is just clear, one pixel, end. */
const gifFrame = (width: number, height: number) => [0x2c, ...le16(0), ...le16(0), ...le16(width), ...le16(height), 0, 2, 2, 0x44, 0x01, 0];

/** A GIF whose screen and frames declare `width`x`height`: libnsgif allocates the whole canvas. */
export function gifBomb(width: number, height: number, frames = 1): Uint8Array<ArrayBuffer> {
  const head = [...ascii("GIF89a"), ...le16(width), ...le16(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  const body = Array.from({ length: frames }, () => gifFrame(width, height)).flat();
  return new Uint8Array([...head, ...body, 0x3b]);
}

function pngChunk(type: string, data: Uint8Array): number[] {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(ascii(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return [...out];
}

/** A black 1-bit PNG: deflate shrinks its rows of zeros about a thousand times. */
export function pngBomb(width: number, height: number): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header[8] = 1; // bit depth; colour type 0 (grey)
  const rows = deflateSync(new Uint8Array((Math.ceil(width / 8) + 1) * height), { level: 9 });
  return new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, ...pngChunk("IHDR", header), ...pngChunk("IDAT", rows), ...pngChunk("IEND", new Uint8Array(0))]);
}

/** An XMP packet with a location, as phones write it. */
export const XMP_GPS = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,31.2N" exif:GPSLongitude="13,24.0E"/></rdf:RDF></x:xmpmeta>`;

/**
 * Puts an XMP application extension right after a GIF's global colour table, the way Photoshop
 * does: the raw packet followed by the 258-byte "magic trailer" that makes it valid sub-blocks.
 */
export function withGifXmp(gif: Uint8Array, xmp = XMP_GPS): Uint8Array<ArrayBuffer> {
  const flags = gif[10]!;
  const tableEnd = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  const trailer = [1, ...Array.from({ length: 256 }, (_, i) => 255 - i), 0];
  const extension = [0x21, 0xff, 11, ...ascii("XMP DataXMP"), ...ascii(xmp), ...trailer];
  return new Uint8Array([...gif.subarray(0, tableEnd), ...extension, ...gif.subarray(tableEnd)]);
}

/** A 1x1 grey TIFF whose IFD0 carries a description and a GPS IFD with latitude and longitude. */
export function tiffWithGps(): Uint8Array<ArrayBuffer> {
  const description = ascii("secret location 52.52N 13.40E\0");
  // Layout: header 8 | IFD0 (2 + 11*12 + 4 = 138) at 8 | GPS IFD (2 + 5*12 + 4 = 66) at 146 |
  // rationals (2 * 24) at 212 | description at 260 | pixel after it.
  const [ifd0, gpsIfd, rationals, text] = [8, 146, 212, 260];
  const pixel = text + description.length;
  const entry = (tag: number, type: number, count: number, value: number[]) => [...le16(tag), ...le16(type), ...le32(count), ...value, 0, 0, 0, 0].slice(0, 12);
  const short = (tag: number, n: number) => entry(tag, 3, 1, le16(n));
  const long = (tag: number, n: number) => entry(tag, 4, 1, le32(n));
  const entries0 = [
    short(256, 1), short(257, 1), short(258, 8), short(259, 1), short(262, 1), entry(270, 2, description.length, le32(text)),
    long(273, pixel), short(277, 1), short(278, 1), long(279, 1), long(34853, gpsIfd),
  ];
  const gps = [
    entry(0, 1, 4, [2, 2, 0, 0]), entry(1, 2, 2, ascii("N\0")), entry(2, 5, 3, le32(rationals)),
    entry(3, 2, 2, ascii("E\0")), entry(4, 5, 3, le32(rationals + 24)),
  ];
  const rational = (...parts: number[]) => parts.flatMap((n) => [...le32(n), ...le32(1)]);
  return new Uint8Array([
    ...ascii("II"), 42, 0, ...le32(ifd0),
    ...le16(entries0.length), ...entries0.flat(), ...le32(0),
    ...le16(gps.length), ...gps.flat(), ...le32(0),
    ...rational(52, 31, 12), ...rational(13, 24, 0),
    ...description, 128,
  ]);
}

/** The start of a HEIC file (an HEVC-coded picture): the prebuilt libvips cannot decode it. */
export const heicHeader = (): Uint8Array<ArrayBuffer> =>
  new Uint8Array([0, 0, 0, 0x18, ...ascii("ftypheic"), 0, 0, 0, 0, ...ascii("mif1heic"), 0, 0, 0, 8, ...ascii("free")]);
