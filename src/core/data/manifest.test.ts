import { describe, expect, it } from 'vitest';
import { manifestCandidates, parseCsv, parseManifest, scanManifest } from './manifest';
import { isTrainable, type FoundFile } from './scan';

const f = (path: string, size = 100): FoundFile => ({ path, size });

// What pandas writes for df.to_csv('labels.csv', index=False) on Windows, with a comma in one path.
const PANDAS =
  'path,label\r\n' +
  'images/001.png,cat\r\n' +
  '"images/with, comma.png",dog\r\n' +
  'images/002.png,cat\r\n' +
  'images/missing.png,dog\r\n' +
  'images/003.png,\r\n' +
  'images/001.png,dog\r\n' +
  './images/004.png,"dog"\r\n';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, line breaks in quotes, CRLF, a BOM, and numbers rows', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x ""y""","1\r\n2"\r\n\r\nz,\n')).toEqual([
      { row: 1, fields: ['a', 'b'] },
      { row: 2, fields: ['x "y"', '1\r\n2'] },
      { row: 3, fields: ['z', ''] },
    ]);
  });

  it('reads a last record without a line end', () => {
    expect(parseCsv('path,label\nimg.png,cat')).toEqual([
      { row: 1, fields: ['path', 'label'] },
      { row: 2, fields: ['img.png', 'cat'] },
    ]);
  });
});

describe('parseManifest', () => {
  it('finds the path and label columns by name, whatever else the header holds', () => {
    const m = parseManifest('Unnamed: 0,FileName,split,Class\n0,a.png,train,cat\n');
    expect(m).toMatchObject({ pathColumn: 1, labelColumn: 3 });
    expect(m?.records).toEqual([{ row: 2, fields: ['0', 'a.png', 'train', 'cat'] }]);
  });

  it('is null for a CSV that is not a manifest', () => {
    expect(parseManifest('epoch,loss\n1,0.5\n')).toBeNull();
    expect(parseManifest('')).toBeNull();
  });
});

describe('scanManifest', () => {
  const files = [
    f('pets/labels.csv'),
    f('pets/images/001.png'),
    f('pets/images/with, comma.png'),
    f('pets/images/002.png'),
    f('pets/images/003.png'),
    f('pets/images/004.png'),
    f('pets/images/extra.png'),
    f('pets/images/.DS_Store'),
    f('pets/__MACOSX/images/._001.png'),
  ];

  it('loads the good rows and names each bad row by its row number', () => {
    const index = manifestCandidates(files);
    expect(index).toEqual([0]);
    const r = scanManifest(files, 0, parseManifest(PANDAS)!);
    expect(r.manifest).toBe('pets/labels.csv');
    expect(r.classes).toEqual([
      { name: 'cat', count: 2 },
      { name: 'dog', count: 2 },
    ]);
    expect(r.items.map((i) => [i.path, i.label, i.fileIndex])).toEqual([
      ['images/001.png', 0, 1],
      ['images/002.png', 0, 3],
      ['images/with, comma.png', 1, 2],
      ['images/004.png', 1, 5],
    ]);
    expect(r.skipped).toEqual([
      {
        path: 'pets/labels.csv row 5',
        reason:
          '"images/missing.png" is not in the dropped folder (paths are relative to it, e.g. images/001.jpg)',
      },
      { path: 'pets/labels.csv row 6', reason: '"images/003.png" has an empty label' },
      { path: 'pets/labels.csv row 7', reason: '"images/001.png" is listed again (first on row 2)' },
      { path: 'pets/images/003.png', reason: 'not listed in pets/labels.csv' },
      { path: 'pets/images/extra.png', reason: 'not listed in pets/labels.csv' },
    ]);
    expect(r.ignored).toBe(2);
    expect(r.problems).toEqual([]);
    expect(isTrainable(r)).toBe(true);
  });

  it('names a row whose file is not an image, and explains a manifest with one label', () => {
    const loose = [f('labels.csv'), f('a.png'), f('b.txt')];
    expect(manifestCandidates(loose)).toEqual([0]);
    const r = scanManifest(loose, 0, parseManifest('filename,class\na.png,cat\nb.txt,dog\n')!);
    expect(r.skipped).toEqual([{ path: 'labels.csv row 3', reason: '"b.txt": not an image (.txt)' }]);
    expect(r.problems).toEqual([
      'Only one class ("cat") has images; training needs at least two labels in labels.csv.',
      'Class "dog" has no usable images, so it is left out.',
    ]);
  });

  it('only considers CSV files at the top of the dropped folder', () => {
    expect(manifestCandidates([f('set/a/x.csv'), f('set/b.csv'), f('set/a/1.png'), f('set/.x.csv')])).toEqual(
      [1],
    );
  });
});
