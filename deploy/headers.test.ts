import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCAL_HTTP_HOSTS } from '../src/browser/weightsFetch';
import {
  contentSecurityPolicy,
  CSP_DIRECTIVES,
  metaContentSecurityPolicy,
  netlifyHeaders,
  SECURITY_HEADERS,
} from './headers';

const directive = (name: string) => CSP_DIRECTIVES.find(([n]) => n === name)?.[1] ?? '';

describe('security headers', () => {
  it('allow no eval and no remote script, only the WebAssembly h5wasm compiles', () => {
    expect(directive('script-src')).toBe("'self' 'wasm-unsafe-eval'");
    expect(contentSecurityPolicy()).not.toContain("'unsafe-eval'");
    expect(contentSecurityPolicy()).not.toContain("'unsafe-inline'");
    expect(directive('object-src')).toBe("'none'");
    expect(directive('frame-ancestors')).toBe("'none'");
  });

  it('let plain http reach exactly the hosts weightsFetch allows', () => {
    const http = directive('connect-src')
      .split(' ')
      .filter((s) => s.startsWith('http://'))
      .map((s) => new URL(s.replace(':*', '')).hostname);
    expect(http).toEqual([...LOCAL_HTTP_HOSTS]);
  });

  it('leave frame-ancestors out of the meta tag, where browsers ignore it', () => {
    expect(metaContentSecurityPolicy()).not.toContain('frame-ancestors');
    expect(metaContentSecurityPolicy()).toContain("connect-src 'self' https:");
  });

  it('names in Permissions-Policy only features Chromium recognises (an unknown one warns on every load)', () => {
    // Chromium's permissions-policy feature names among those a page can switch off; 'bluetooth' is not one.
    const chromium = new Set(['camera', 'microphone', 'geolocation', 'payment', 'usb', 'serial', 'hid']);
    const features = (SECURITY_HEADERS['Permissions-Policy'] ?? '')
      .split(',')
      .map((f) => f.trim().split('=')[0]);
    expect(features.length).toBeGreaterThan(0);
    expect(features.filter((f) => !chromium.has(f ?? ''))).toEqual([]);
  });

  it('are the same in the Netlify file and in deploy/nginx.conf', () => {
    const netlify = netlifyHeaders();
    const nginx = readFileSync(new URL('./nginx.conf', import.meta.url), 'utf8');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(netlify).toContain(`  ${name}: ${value}\n`);
      expect(nginx).toContain(`add_header ${name} "${value}" always;`);
    }
    expect(nginx.match(/add_header /g)).toHaveLength(Object.keys(SECURITY_HEADERS).length);
  });
});
