/** A release cover thumbnail from an authenticated route, with a placeholder when there is none or it fails. */
import { Music2 } from 'lucide-react';
import { useState } from 'react';
import { cn } from './cn';

export function CoverThumb({
  src,
  alt,
  size = 64,
  className,
}: {
  src: string | null;
  alt: string;
  size?: number;
  className?: string;
}) {
  const [hasFailed, setHasFailed] = useState(false);
  const box = cn('shrink-0 overflow-hidden rounded-lg bg-ink-800', className);
  if (!src || hasFailed) {
    return (
      <div
        className={cn(box, 'flex items-center justify-center text-zinc-500')}
        style={{ width: size, height: size }}
        role="img"
        aria-label={`${alt} (no cover)`}
      >
        <Music2 aria-hidden className="size-1/3" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      onError={() => setHasFailed(true)}
      className={cn(box, 'object-cover')}
      style={{ width: size, height: size }}
    />
  );
}
