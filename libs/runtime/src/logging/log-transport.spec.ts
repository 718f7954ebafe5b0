import { logTransportFor } from './log-transport';

const resolves = (id: string) => `/installed/${id}`;
const missing = (id: string): string => {
  throw new Error(`Cannot find module '${id}'`);
};

describe('logTransportFor', () => {
  it('pretty-prints in development when pino-pretty is installed', () => {
    expect(logTransportFor('development', resolves)).toEqual(
      expect.objectContaining({ target: 'pino-pretty' }),
    );
  });

  it('keeps JSON in development when pino-pretty is not installed (an image without dev dependencies)', () => {
    expect(logTransportFor('development', missing)).toBeUndefined();
  });

  it.each(['production', 'test', 'staging', ''])('keeps JSON for NODE_ENV=%p', (nodeEnv) => {
    expect(logTransportFor(nodeEnv, resolves)).toBeUndefined();
  });

  it('finds pino-pretty in this workspace, where it is a dev dependency', () => {
    expect(logTransportFor('development')?.target).toBe('pino-pretty');
  });
});
