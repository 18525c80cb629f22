import { useEffect, useRef } from 'react';
import type { PreviewImage } from '../../core/run/protocol';
import { commands } from '../../store/commands';
import { selectEngineFree } from '../../store/selectors';
import { useLab } from '../ui/useLab';
import './PreviewGrid.css';

function PreviewTile({ image }: { image: PreviewImage }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    // Copy: ImageData needs its own ArrayBuffer-backed array.
    ctx.putImageData(new ImageData(new Uint8ClampedArray(image.rgba), image.width, image.height), 0, 0);
  }, [image]);
  return (
    <figure className="tile">
      <canvas ref={canvas} width={image.width} height={image.height} aria-label={`Augmented ${image.path}`} />
      <figcaption title={image.path}>{image.className}</figcaption>
    </figure>
  );
}

/** Training samples after the real pipeline (resize, flip, brightness, contrast), refreshed on demand. */
export function PreviewGrid() {
  const preview = useLab((s) => s.preview);
  // The preview runs the pipeline on the engine, so it waits for any run or sweep to end.
  const canPreview = useLab(
    (s) => !!s.dataset.scan && s.dataset.scan.classes.length >= 2 && selectEngineFree(s),
  );
  return (
    <section className="panel" aria-labelledby="preview-title">
      <h2 id="preview-title">Augmented samples</h2>
      <div className="row">
        <button
          type="button"
          disabled={!canPreview || preview.status === 'loading'}
          onClick={() => void commands().refreshPreview()}
          data-testid="refresh-preview"
        >
          {preview.status === 'loading' ? 'Loading…' : 'New samples'}
        </button>
        <small className="muted">
          Exactly what the training pipeline feeds the model, at the input size.
        </small>
      </div>
      {preview.error && (
        <p className="error-text" role="alert">
          {preview.error}
        </p>
      )}
      {preview.images.length > 0 ? (
        <div className="grid" data-testid="preview-grid">
          {preview.images.map((img, i) => (
            <PreviewTile key={`${img.path}-${i}`} image={img} />
          ))}
        </div>
      ) : (
        <p className="muted">Load data to see samples.</p>
      )}
    </section>
  );
}
