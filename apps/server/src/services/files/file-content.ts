import { encode } from 'blurhash';
import type Sharp from 'sharp';

/** Image types whose size and BlurHash are read on upload. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  js: 'text/javascript',
};

/** The magic numbers of the image types we decode: what the bytes are, whatever the sender said. */
export function sniffImage(head: Buffer): ImageType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const ascii = head.subarray(0, 12).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image/gif';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** `Image/PNG; charset=x` → `image/png`; empty or generic types fall back to the file name's extension. */
export function declaredType(declared: string | null | undefined, fileName: string): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && type !== 'application/octet-stream') return type;
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || 'application/octet-stream';
}

export function isAllowedType(type: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

export const isImageType = (type: string): type is ImageType => (IMAGE_TYPES as readonly string[]).includes(type);

export interface ImageInfo {
  width: number;
  height: number;
  blurHash: string;
}

// A decompression bomb is refused by the decoder rather than filling the memory.
const MAX_INPUT_PIXELS = 100_000_000;
const THUMBNAIL_EDGE = 32;

let decoder: Promise<typeof Sharp> | null = null;

/** The image library is native and sizeable: loaded on the first image, without its operation cache (images are read once). */
function loadDecoder(): Promise<typeof Sharp> {
  decoder ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return decoder;
}

/** Size as displayed (EXIF orientation applied, first frame of an animation) and a BlurHash; null when the bytes do not decode. */
export async function describeImage(bytes: Buffer): Promise<ImageInfo | null> {
  try {
    const sharp = await loadDecoder();
    const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    let width = meta.width;
    let height = meta.pageHeight ?? meta.height;
    if (!width || !height) return null;
    if ((meta.orientation ?? 1) >= 5) [width, height] = [height, width];
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [x, y] = info.width >= info.height ? [4, 3] : [3, 4];
    return { width, height, blurHash: encode(new Uint8ClampedArray(data), info.width, info.height, x, y) };
  } catch {
    return null;
  }
}

/** Types a browser may show in place; everything else is offered as a download. */
export const showsInline = (type: string): boolean =>
  isImageType(type) || type.startsWith('video/') || type.startsWith('audio/') || type === 'application/pdf' || type === 'text/plain';

/** RFC 6266 with an ASCII fallback and the exact name in UTF-8. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 26214400 → "25 MiB"; 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : value >= 100 ? value.toFixed(0) : String(Number(value.toFixed(1)));
  return `${shown} ${UNITS[unit]}`;
}
