import { describe, expect, it } from 'vitest';
import { isTrainable, rejectReason, scanFiles, withoutUndecodable, type FoundFile } from './scan';

const f = (path: string, size = 100): FoundFile => ({ path, size });

describe('scanFiles', () => {
  it('strips the dropped root and finds classes at any nesting depth', () => {
    const r = scanFiles([
      f('flowers/roses/a.jpg'),
      f('flowers/roses/2024/b.PNG'),
      f('flowers/tulips/c.webp'),
    ]);
    expect(r.classes).toEqual([
      { name: 'roses', count: 2 },
      { name: 'tulips', count: 1 },
    ]);
    expect(r.items.map((i) => [i.path, i.label])).toEqual([
      ['roses/a.jpg', 0],
      ['roses/2024/b.PNG', 0],
      ['tulips/c.webp', 1],
    ]);
    expect(r.problems).toEqual([]);
    expect(isTrainable(r)).toBe(true);
  });

  it('treats top folders as classes when class folders were dropped directly', () => {
    const r = scanFiles([f('cats/1.png'), f('dogs/2.png')]);
    expect(r.classes.map((c) => c.name)).toEqual(['cats', 'dogs']);
  });

  it('skips files with a reason each and keeps the rest', () => {
    const r = scanFiles([
      f('set/a/1.jpg'),
      f('set/a/notes.txt'),
      f('set/a/scan.tiff'),
      f('set/b/2.png', 0),
      f('set/b/3.png'),
      f('set/readme.md'),
      f('set/b/Makefile'),
    ]);
    expect(r.skipped).toEqual([
      { path: 'set/a/notes.txt', reason: 'not an image (.txt)' },
      { path: 'set/a/scan.tiff', reason: 'unsupported image format (TIFF); convert it to JPEG or PNG' },
      { path: 'set/b/2.png', reason: 'empty file (0 bytes)' },
      {
        path: 'set/readme.md',
        reason: 'not inside a class folder (put it in a sub-folder named after its class)',
      },
      { path: 'set/b/Makefile', reason: 'not an image (no file extension)' },
    ]);
    expect(r.classes).toEqual([
      { name: 'a', count: 1 },
      { name: 'b', count: 1 },
    ]);
  });

  it('explains a folder with fewer than two classes, and a class with no usable images', () => {
    const one = scanFiles([f('root/only/1.jpg'), f('root/empty/x.txt')]);
    expect(isTrainable(one)).toBe(false);
    expect(one.problems[0]).toMatch(/Only one class \("only"\)/);
    expect(one.problems).toContain('Class "empty" has no usable images, so it is left out.');
    const none = scanFiles([]);
    expect(none.problems[0]).toMatch(/No usable images/);
  });

  it('drops files that failed to decode and re-checks the classes', () => {
    const files = [f('s/a/1.jpg'), f('s/a/2.jpg'), f('s/b/3.jpg')];
    const r = withoutUndecodable(scanFiles(files), new Map([[2, 'cannot decode: not a valid JPEG']]), files);
    expect(r.skipped).toEqual([{ path: 's/b/3.jpg', reason: 'cannot decode: not a valid JPEG' }]);
    expect(r.classes).toEqual([{ name: 'a', count: 2 }]);
    expect(r.problems).toContain('Class "b" has no usable images, so it is left out.');
    expect(isTrainable(r)).toBe(false);
  });
});

describe('rejectReason', () => {
  it('accepts the formats browsers decode', () => {
    for (const ext of ['jpg', 'JPEG', 'png', 'webp', 'gif', 'bmp', 'avif'])
      expect(rejectReason(f(`x.${ext}`))).toBeNull();
  });
});
