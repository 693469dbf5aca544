// A built static site on loopback, as a web host serves it: `/a/` is `/a/index.html`, anything
// else is its file or a 404. Nothing outside the folder is ever read.
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export interface StaticSite {
  readonly url: URL;
  close(): Promise<void>;
}

export async function serveStatic(folder: string): Promise<StaticSite> {
  const fileOf = async (pathname: string): Promise<string | undefined> => {
    const path = normalize(join(folder, decodeURIComponent(pathname)));
    if (path !== folder && !path.startsWith(folder + sep)) return undefined;
    const found = await stat(path).catch(() => undefined);
    if (found?.isDirectory()) return fileOf(`${pathname.replace(/\/?$/, '/')}index.html`);
    return found?.isFile() ? path : undefined;
  };
  const server = createServer(async (request, response) => {
    const file = await fileOf(new URL(request.url ?? '/', 'http://localhost').pathname).catch(
      () => undefined,
    );
    if (file === undefined || request.method !== 'GET') {
      response.writeHead(file === undefined ? 404 : 405).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
