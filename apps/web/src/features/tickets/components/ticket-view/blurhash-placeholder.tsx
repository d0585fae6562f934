import { decode, isBlurhashValid } from 'blurhash';
import { type CSSProperties, useEffect, useRef, useState } from 'react';

/** Decoded small and stretched by CSS: a blur needs no more pixels. */
const SIZE = 32;

const fill: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%' };

/**
 * What an image shows while it loads: its BlurHash, decoded to a small canvas; a plain coloured box
 * when there is no hash or it cannot be decoded. Decorative: the image's own text says what it is.
 */
export function BlurhashPlaceholder({ hash }: { hash: string | null }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(() => !hash || !isBlurhashValid(hash).result);

  useEffect(() => {
    if (!hash || failed) return;
    try {
      const context = canvas.current?.getContext('2d');
      if (!context) throw new Error('No 2D canvas');
      const image = context.createImageData(SIZE, SIZE);
      image.data.set(decode(hash, SIZE, SIZE));
      context.putImageData(image, 0, 0);
    } catch {
      setFailed(true);
    }
  }, [hash, failed]);

  if (failed) {
    return <div aria-hidden data-placeholder="box" style={{ ...fill, background: 'var(--mantine-color-default-hover)' }} />;
  }
  return <canvas ref={canvas} width={SIZE} height={SIZE} aria-hidden data-placeholder="blurhash" style={fill} />;
}
