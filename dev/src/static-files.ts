import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { lookup } from 'mrmime';
import sirv from 'sirv';
import { sendJson } from './json-answer';

/** Serves one GET or HEAD request for a file of the web app, or its page for a client route. */
export type StaticFiles = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt Tracker</title></head>
<body style="font-family:sans-serif;max-width:40rem;margin:3rem auto">
<h1>Receipt Tracker</h1><p>The web app is not built yet. Run <code>npm run build:web</code> and reload;
the API is running under <code>/api</code>.</p></body></html>`;

/** Files under /assets/ have a content hash in their name: a new build never changes one. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The content type of a file name, with the charset for text (the build is UTF-8). */
function contentTypeOf(pathname: string): string {
  const type = lookup(pathname) ?? 'application/octet-stream';
  return /^text\/|^application\/json$/.test(type) ? `${type}; charset=utf-8` : type;
}

function sendNotBuilt(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
}

/**
 * The built web app (web/dist) by sirv: its files, and index.html for a client route (/Reports,
 * /Receipt?…; a path with a file extension is a missing file, 404). No directory is listed. Hashed
 * assets are cached for good, the rest revalidated (ETag, 304). Files are looked up on each request,
 * so a build made while the server runs is served at once. Without a build, every page is a notice.
 */
export function createStaticFiles(webDir: string | null): StaticFiles {
  const serve =
    webDir &&
    sirv(webDir, {
      dev: true,
      etag: true,
      single: true,
      extensions: ['html'],
      setHeaders: (res, pathname) => {
        // A path without an extension is answered with an HTML page (index.html), typed by sirv.
        if (extname(pathname) !== '') res.setHeader('content-type', contentTypeOf(pathname));
        const hashed = pathname.startsWith('/assets/') && extname(pathname) !== '';
        res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
        res.setHeader('x-content-type-options', 'nosniff');
      },
      onNoMatch: (req, res) => {
        const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
        if (extname(pathname) === '') sendNotBuilt(req, res);
        else sendJson(res, 404, { error: 'NotFound', message: `No file ${decodeURI(pathname)}.` });
      },
    });

  return (req, res, url) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(
        res,
        405,
        { error: 'MethodNotAllowed', message: 'Only GET and HEAD are served here.' },
        { allow: 'GET, HEAD' },
      );
      return;
    }
    if (!serve) {
      sendNotBuilt(req, res);
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      sendJson(res, 400, { error: 'BadPath', message: 'The path is not valid URL encoding.' });
      return;
    }
    if (pathname.includes('\0') || pathname.split(/[/\\]/).includes('..')) {
      sendJson(res, 404, { error: 'NotFound', message: 'Not found.' });
      return;
    }
    // sirv reads req.url: hand it the path as parsed (dot segments resolved), without the query.
    req.url = url.pathname;
    serve(req, res);
  };
}
