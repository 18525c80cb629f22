// Fetching weights from an address the user typed, the only request the lab makes off its own origin.
// The page's Content-Security-Policy (deploy/headers.ts) allows connect-src 'self' https: and local
// http servers, because a CSP cannot widen itself when a URL is typed; the rules here decide the rest.
import { WeightLoadError } from '../ml/weights';
import { formatBytes } from '../core/format';

/**
 * Most bytes one weights load may read, all files together: the largest model the lab builds
 * (EfficientNetV2-L, 119 M parameters) stores about 480 MB of float32 weights.
 */
export const MAX_WEIGHTS_BYTES = 600e6;

/** Hosts plain http:// may reach besides the page's own origin (a model server on this computer). */
export const LOCAL_HTTP_HOSTS: readonly string[] = ['localhost', '127.0.0.1'];

/**
 * The typed address as a URL the lab will fetch, or a WeightLoadError saying why not: only absolute
 * http(s) addresses (never file:, data:, blob: or javascript:), and plain http only to the page's own
 * origin or this computer, as the CSP allows.
 */
export function checkWeightsUrl(typed: string, pageOrigin: string): URL {
  const text = typed.trim();
  const refuse = (why: string) => new WeightLoadError('fetch-failed', text, `${text}: ${why}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('not a full address; type one that starts with https://.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const local = url.protocol === 'file:' ? ' For a file on this computer, drop it here instead.' : '';
    throw refuse(`only http(s) addresses are fetched, not ${url.protocol}.${local}`);
  }
  if (url.protocol === 'http:' && url.origin !== pageOrigin && !LOCAL_HTTP_HOSTS.includes(url.hostname)) {
    throw refuse(
      'plain http:// is fetched only from this lab’s own server or this computer; use https://, or download the file and drop it here.',
    );
  }
  return url;
}

/** How many bytes one load may still read, of how many. */
interface Budget {
  left: number;
  limit: number;
}

/** The loaders put the address in front of what a fetch throws, so these messages leave it out. */
function tooLarge(budget: Budget, declared: number | null): Error {
  const size = declared === null ? 'goes on past that' : `declares ${formatBytes(declared)}`;
  return new Error(
    `refused before reading it all: the lab reads at most ${formatBytes(budget.limit)} for one model (the largest it builds stores about 480 MB), and this file ${size}.`,
  );
}

/** Why a fetch that never got a response failed, with what the user can do about it. */
function unreadable(url: URL, pageOrigin: string, thrown: unknown): Error {
  const detail = thrown instanceof Error ? ` (${thrown.message})` : '';
  const own = url.origin === pageOrigin;
  const why = own
    ? 'the lab’s own server did not answer'
    : `the server does not allow this page to read the file, or could not be reached: a page may read a file from another site only when that site answers with the header Access-Control-Allow-Origin: ${pageOrigin} (or *)`;
  return new Error(
    `${why}${detail}. Download the file and drop it here instead${own ? '' : ', or serve it with that header'}.`,
  );
}

/** Reads a response body while counting, and stops as soon as the load's remaining bytes run out. */
async function readCapped(response: Response, budget: Budget): Promise<ArrayBuffer> {
  const declared = Number(response.headers.get('Content-Length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > budget.left) throw tooLarge(budget, declared);
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    read += r.value.byteLength;
    if (read > budget.left) {
      await reader.cancel();
      throw tooLarge(budget, null);
    }
    chunks.push(r.value);
  }
  budget.left -= read;
  const bytes = new Uint8Array(read);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.buffer;
}

/**
 * A fetch for one weights load (model.json and its shards, or one .h5 file): each address is checked
 * as above, the bodies are streamed with MAX_WEIGHTS_BYTES for all of them together, checked against
 * Content-Length before reading, and a fetch the browser refuses says what to do. Error responses are
 * handed back unread for the loader to name.
 */
export function weightsFetch(
  pageOrigin: string,
  fetchFn: typeof fetch = fetch,
  limit = MAX_WEIGHTS_BYTES,
): (url: string) => Promise<Response> {
  const budget: Budget = { left: limit, limit };
  return async (address: string) => {
    const url = checkWeightsUrl(address, pageOrigin);
    let response: Response;
    try {
      response = await fetchFn(url.href, { credentials: 'omit', redirect: 'follow' });
    } catch (thrown) {
      throw unreadable(url, pageOrigin, thrown);
    }
    if (!response.ok) return response;
    const body = await readCapped(response, budget);
    return new Response(body, { status: response.status, statusText: response.statusText });
  };
}
