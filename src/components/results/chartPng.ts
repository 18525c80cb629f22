// A PNG of a chart on the page. The charts draw plain SVG (`charts/svg`) whose
// colours come from the page's CSS (theme variables), which a standalone SVG image would not see, so the
// computed paint is copied inline first.

const PAINT = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
];

/** A copy of `svg` with every element's computed paint written as attributes. */
function inlined(svg: SVGSVGElement): SVGSVGElement {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const style = getComputedStyle(el);
    for (const p of PAINT) to[i]?.setAttribute(p, style.getPropertyValue(p));
  });
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  return copy;
}

/**
 * The chart's SVG drawn on a canvas of the page's background colour, at twice its size, as a PNG. The
 * size is the one the chart drew at (its width and height attributes), so a chart in a view not shown
 * now, which has no box on the page, saves as it looked when it was.
 */
export async function chartPng(svg: SVGSVGElement, background: string): Promise<Blob> {
  const width = svg.width.baseVal.value;
  const height = svg.height.baseVal.value;
  const text = new XMLSerializer().serializeToString(inlined(svg));
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const scale = 2;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas to draw the chart on.');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The chart could not be encoded.'))),
      'image/png',
    ),
  );
}

/** Every chart on the page with a name for its file: the figure's test id, or its position. */
export function pageCharts(): { name: string; svg: SVGSVGElement }[] {
  return [...document.querySelectorAll<HTMLElement>('figure.chart')].flatMap((figure, i) => {
    const svg = figure.querySelector<SVGSVGElement>('svg.chart-svg');
    return svg ? [{ name: figure.dataset.testid ?? `chart-${i + 1}`, svg }] : [];
  });
}
