// The one home of the lab's security headers. vite.config.ts serves them from `vite preview` and
// writes them into every production build (a `<meta>` CSP in index.html, and `_headers` for Netlify
// and Cloudflare Pages); deploy/_headers and deploy/nginx.conf repeat them for other hosts, and
// deploy/headers.test.ts fails when those copies drift from this file.

/**
 * Content-Security-Policy directives, one per line so each can say why.
 *
 * connect-src: the lab fetches only its own files (sample images, the packaged weights, its chunks),
 * except when the user types a weights URL. A CSP cannot widen itself at run time, so `https:` and a
 * model server on this computer are allowed, and the code decides the rest: src/browser/weightsFetch.ts
 * fetches only an address the user typed, refuses anything but http(s) (file:, data:, javascript:),
 * and allows plain http only where this policy does. No other code fetches a computed address.
 */
export const CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  // Own scripts only; no eval. 'wasm-unsafe-eval' lets h5wasm compile its WebAssembly (and nothing else).
  ['script-src', "'self' 'wasm-unsafe-eval'"],
  // The training worker is a module file of the build.
  ['worker-src', "'self'"],
  ['connect-src', "'self' https: http://localhost:* http://127.0.0.1:*"],
  // Previews and exports draw decoded images through blob: and data: URLs made on the page.
  ['img-src', "'self' data: blob:"],
  ['style-src', "'self'"],
  ['font-src', "'self'"],
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  // Not honoured in a <meta> tag: only the served header stops framing (with X-Frame-Options).
  ['frame-ancestors', "'none'"],
];

/** The policy as one header value. */
export function contentSecurityPolicy(directives = CSP_DIRECTIVES): string {
  return directives.map(([name, value]) => `${name} ${value}`).join('; ');
}

/** The policy for a `<meta http-equiv>` tag, where frame-ancestors is ignored (browsers warn about it). */
export function metaContentSecurityPolicy(): string {
  return contentSecurityPolicy(CSP_DIRECTIVES.filter(([name]) => name !== 'frame-ancestors'));
}

/** Every header the lab is served with. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy(),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  // The lab needs none of these; the GPU is reached through WebGPU/WebGL, which this header does not gate.
  // Only features Chromium knows: an unknown one (bluetooth) prints a console warning on every load.
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The Netlify / Cloudflare Pages `_headers` file: every path gets every header. */
export function netlifyHeaders(): string {
  const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return ['/*', ...lines, ''].join('\n');
}
