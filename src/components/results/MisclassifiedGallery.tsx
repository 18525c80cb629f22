import { useEffect, useRef } from 'react';
import type { Misclassified, Thumbnail } from '../../core/run/diagnostics';

/** Gallery entries shown at once; the rest are counted. */
const SHOWN = 48;

function Thumb({ thumbnail, alt }: { thumbnail: Thumbnail; alt: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    ctx?.putImageData(
      new ImageData(new Uint8ClampedArray(thumbnail.rgba), thumbnail.width, thumbnail.height),
      0,
      0,
    );
  }, [thumbnail]);
  return (
    <canvas ref={canvas} width={thumbnail.width} height={thumbnail.height} role="img" aria-label={alt} />
  );
}

interface Props {
  items: Misclassified[];
  classNames: readonly string[];
  /** What the items are, e.g. 'all misclassified' or 'cat predicted as dog'. */ title: string;
}

/** The misclassified validation images with true and predicted class and the model's confidence. */
export function MisclassifiedGallery({ items, classNames, title }: Props) {
  const name = (i: number) => classNames[i] ?? `class ${i}`;
  return (
    <section
      className="misclassified"
      aria-label="Misclassified images"
      data-testid="misclassified"
      data-count={items.length}
    >
      <h4>
        {title}: {items.length} image{items.length === 1 ? '' : 's'}
      </h4>
      {items.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="gallery">
          {items.slice(0, SHOWN).map((m) => (
            <li key={m.index} data-testid="misclassified-item">
              <figure>
                {m.thumbnail ? (
                  <Thumb
                    thumbnail={m.thumbnail}
                    alt={`${m.path}: ${name(m.label)} predicted as ${name(m.predicted)}`}
                  />
                ) : (
                  <div className="no-thumb" aria-hidden="true">
                    no preview
                  </div>
                )}
                <figcaption>
                  <span className="path">{m.path}</span>
                  <span>
                    {name(m.label)} → {name(m.predicted)} ({(m.confidence * 100).toFixed(0)}%)
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
      {items.length > SHOWN && <p className="muted">and {items.length - SHOWN} more.</p>}
    </section>
  );
}
