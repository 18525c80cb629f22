/**
 * Writes the built-in sample data set that the app ships: public/sample/<class>/<class>_<nn>.png
 * (64×64 procedural shapes, fixed seeds) plus public/sample/manifest.json.
 *
 * Deletes and rewrites public/sample/ on every run; the output is byte-identical from run to run.
 * Usage: npx tsx scripts/make-sample.ts
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawShapeImage, encodePng, type ShapeKind } from './shapes';

const SIZE = 64;
const PER_CLASS = 24;
const CLASSES: readonly { name: string; kind: ShapeKind; seedBase: number }[] = [
  { name: 'circles', kind: 'circle', seedBase: 1_000 },
  { name: 'squares', kind: 'square', seedBase: 2_000 },
  { name: 'triangles', kind: 'triangle', seedBase: 3_000 },
];

interface SampleManifest {
  name: string;
  description: string;
  generatedBy: string;
  files: { path: string; size: number }[];
}

function main(): void {
  const outDir = fileURLToPath(new URL('../public/sample/', import.meta.url));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  const files: SampleManifest['files'] = [];
  for (const { name, kind, seedBase } of CLASSES) {
    mkdirSync(join(outDir, name), { recursive: true });
    for (let i = 0; i < PER_CLASS; i++) {
      const rel = `${name}/${name}_${String(i).padStart(2, '0')}.png`;
      const bytes = encodePng(drawShapeImage(kind, SIZE, seedBase + i));
      writeFileSync(join(outDir, rel), bytes);
      files.push({ path: rel, size: bytes.length });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  const manifest: SampleManifest = {
    name: 'shapes',
    description:
      `Procedurally generated ${SIZE}×${SIZE} images of filled circles, squares and triangles ` +
      `(random colours, positions, sizes and rotations) on noisy textured backgrounds; ` +
      `${PER_CLASS} images per class.`,
    generatedBy: 'scripts/make-sample.ts',
    files,
  };
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');

  const total = files.reduce((sum, f) => sum + f.size, 0);
  console.log(`Wrote ${files.length} images (${(total / 1024).toFixed(1)} KiB) + manifest.json to ${outDir}`);
}

main();
