// Response serializers: fast-json-stringify, as Fastify builds them by
// default, but each built when its route first answers instead of all at
// start-up. Building the 700 routes' serializers (and their validators, see
// validation.ts) took 0.7 s of every start, most of a test app's life; a
// route's first answer now pays its own few milliseconds.
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

const buildSerializers = SerializerSelector();

export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = buildSerializers(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => (serialize ??= compile(route))(doc);
  };
};
