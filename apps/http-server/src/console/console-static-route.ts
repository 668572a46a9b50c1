import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../http-errors.js';
import { pathOf } from '../request-context.js';
import { cacheControlFor } from './console-headers.js';

/** The console's path: `GET /ui` redirects below it. */
export const consolePath = '/ui';

/**
 * The console's static files under `/ui/` (a single-page app): a file that exists is sent (precompressed `.br`/`.gz`
 * when the client takes them, hashed assets cached for a year, the rest revalidated); any other path without a file
 * extension is a page of the app and gets `index.html`, whose router shows it. A missing file with an extension is
 * 404, so a stale script reference fails clearly instead of receiving HTML.
 */
export async function registerConsoleStaticRoute(app: FastifyInstance, directory: string | undefined): Promise<void> {
  app.get(consolePath, { schema: { hide: true } }, async (_request, reply) => reply.redirect(`${consolePath}/`, 301));
  if (directory === undefined) {
    app.get(`${consolePath}/*`, async (_request, reply) =>
      reply
        .code(404)
        .send(errorBody('The console is not part of this build of search-mcp-http (no dist/console)', 'NOT_FOUND')),
    );
    return;
  }
  const root = normalize(directory);
  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, filePath) => response.setHeader('cache-control', cacheControlFor(filePath)),
  });
  const sendIndex = (reply: FastifyReply) => reply.sendFile('index.html', root);
  app.get(`${consolePath}/*`, { schema: { hide: true } }, async (request, reply) => {
    let relative: string;
    try {
      relative = decodeURIComponent(pathOf(request).slice(consolePath.length + 1));
    } catch {
      return reply.code(400).send(errorBody('Malformed path', 'BAD_REQUEST'));
    }
    if (relative === '') return sendIndex(reply);
    const file = normalize(join(root, relative));
    if (file.startsWith(root + sep) && (await isFile(file))) return reply.sendFile(file.slice(root.length + 1), root);
    if (extname(relative) !== '') {
      return reply.code(404).send(errorBody(`No console file ${pathOf(request)}`, 'NOT_FOUND'));
    }
    return sendIndex(reply);
  });
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
