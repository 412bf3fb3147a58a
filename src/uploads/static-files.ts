// How uploaded files are served: only from their folder, never an index or a
// hidden file, cached forever (a name is its content's hash), and never
// guessed or run by a browser whatever the file holds.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export async function serveUploadedFiles(app: FastifyInstance, root: string, prefix: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    prefix,
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: '365d',
    setHeaders: (reply) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
    },
  });
}
