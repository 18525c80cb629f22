import { describe, expect, it } from 'vitest';
import {
  isSystemFile,
  isTrainable,
  rejectReason,
  scanFiles,
  withoutUndecodable,
  type FoundFile,
} from './scan';

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

describe('system files and empty classes', () => {
  it('ignores __MACOSX, dot-files and OS files, counting them without listing them', () => {
    const r = scanFiles([
      f('set/cats/1.jpg'),
      f('set/cats/.DS_Store'),
      f('set/cats/.hidden.jpg'),
      f('set/cats/Thumbs.db'),
      f('set/dogs/2.jpg'),
      f('set/dogs/desktop.ini'),
      f('set/dogs/Icon\r'),
      f('set/dogs/@eaDir/2.jpg@SynoEXIF'),
      f('set/.AppleDouble/x'),
      f('set/__MACOSX/cats/._1.jpg'),
      f('set/.git/HEAD'),
      f('set/dogs/notes.txt'),
    ]);
    expect(r.classes.map((c) => c.name)).toEqual(['cats', 'dogs']);
    expect(r.items.map((i) => i.path)).toEqual(['cats/1.jpg', 'dogs/2.jpg']);
    expect(r.ignored).toBe(9);
    expect(r.skipped).toEqual([{ path: 'set/dogs/notes.txt', reason: 'not an image (.txt)' }]);
    expect(r.problems).toEqual([]);
  });

  it('keeps a dropped folder whose own name starts with a dot', () => {
    expect(isSystemFile('.data/cats/1.jpg')).toBe(false);
    expect(isSystemFile('.DS_Store')).toBe(true);
    expect(isSystemFile('cats/._1.jpg')).toBe(true);
    expect(isSystemFile('cats/THUMBS.DB')).toBe(true);
    expect(isSystemFile('cats/icon.png')).toBe(false);
  });

  it('names an empty class folder and one holding only system files', () => {
    const files = [f('set/cats/1.jpg'), f('set/dogs/2.jpg'), f('set/birds/.DS_Store')];
    const r = scanFiles(files, ['set', 'set/cats', 'set/dogs', 'set/fish', 'set/birds', 'set/cats/2024']);
    expect(r.classes.map((c) => c.name)).toEqual(['cats', 'dogs']);
    expect(r.leftOut).toEqual([
      { name: 'birds', files: 0 },
      { name: 'fish', files: 0 },
    ]);
    expect(r.problems).toEqual([
      'Class folder "birds" is empty, so it is left out.',
      'Class folder "fish" is empty, so it is left out.',
    ]);
    expect(isTrainable(r)).toBe(true);
  });

  it('keeps the left-out classes and the ignored count through the decode check', () => {
    const files = [f('s/a/1.jpg'), f('s/b/2.jpg'), f('s/c/3.jpg'), f('s/e/.DS_Store'), f('s/x/n.txt')];
    const r = withoutUndecodable(scanFiles(files), new Map([[2, 'cannot decode: bad']]), files);
    expect(r.ignored).toBe(1);
    expect(r.leftOut).toEqual([
      { name: 'c', files: 1 },
      { name: 'e', files: 0 },
      { name: 'x', files: 1 },
    ]);
    expect(r.problems).toContain('Class "c" has no usable images, so it is left out.');
    expect(r.problems).toContain('Class folder "e" is empty, so it is left out.');
  });

  it('orders numeric class names by number', () => {
    const r = scanFiles([f('d/10/a.png'), f('d/2/b.png'), f('d/1/c.png')]);
    expect(r.classes.map((c) => c.name)).toEqual(['1', '2', '10']);
  });

  it('accepts files whose size was not read while listing', () => {
    expect(rejectReason({ path: 'a/1.png' })).toBeNull();
  });
});
