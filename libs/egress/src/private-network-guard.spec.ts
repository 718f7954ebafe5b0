import { PrivateNetworkError, PrivateNetworkGuard, privateNetworksAllowed } from './private-network-guard';

describe('PrivateNetworkGuard', () => {
  const strict = new PrivateNetworkGuard({ allowPrivateNetworks: false });
  const open = new PrivateNetworkGuard({ allowPrivateNetworks: true });

  it('refuses private IP literals and names none of them', () => {
    expect(() => strict.assertHostAllowed('127.0.0.1')).toThrow(PrivateNetworkError);
    expect(() => strict.assertHostAllowed('[::1]')).toThrow(PrivateNetworkError);
    expect(() => strict.assertHostAllowed('169.254.169.254')).toThrow(/not a public address/);
    expect(() => strict.assertHostAllowed('8.8.8.8')).not.toThrow();
    // A name is judged by what it resolves to, at connect time.
    expect(() => strict.assertHostAllowed('internal.example')).not.toThrow();
  });

  it('refuses a name when any of its addresses is private', () => {
    expect(() => strict.assertResolvedAllowed('mixed.example', ['93.184.216.34', '10.0.0.7'])).toThrow(
      'refusing to connect: the target is not allowed (not a public address)',
    );
    expect(() =>
      strict.assertResolvedAllowed('public.example', ['93.184.216.34', '2606:4700::1']),
    ).not.toThrow();
  });

  it('names no address in its message (partners read it back); the detail is for server logs', () => {
    let refused: PrivateNetworkError | undefined;
    try {
      strict.assertResolvedAllowed('internal.example', ['10.1.2.3']);
    } catch (err) {
      refused = err as PrivateNetworkError;
    }
    expect(refused).toBeInstanceOf(PrivateNetworkError);
    expect(refused!.message).not.toMatch(/10\.1\.2\.3|internal\.example/);
    expect(refused!.detail).toBe('internal.example (10.1.2.3)');
    expect(() => strict.assertHostAllowed('169.254.169.254')).not.toThrow(/169\.254/);
  });

  it('lets everything through when private networks are allowed', () => {
    expect(() => open.assertHostAllowed('127.0.0.1')).not.toThrow();
    expect(() => open.assertResolvedAllowed('localhost', ['127.0.0.1', '::1'])).not.toThrow();
  });

  it('refuses a resolved loopback address in its connect-time lookup', async () => {
    const result = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      strict.lookup('localhost', {}, (err, address) => resolve({ err, address })),
    );
    expect(result.err).toBeInstanceOf(PrivateNetworkError);
    const allowed = await new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      open.lookup('localhost', { all: true }, (err, address) => resolve({ err, address })),
    );
    expect(allowed.err).toBeNull();
    expect(Array.isArray(allowed.address)).toBe(true);
  });

  it('reads the switch from the environment', () => {
    expect(privateNetworksAllowed({})).toBe(false);
    expect(privateNetworksAllowed({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })).toBe(true);
    expect(privateNetworksAllowed({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' })).toBe(false);
    expect(privateNetworksAllowed({ KB_ALLOW_PRIVATE_NETWORKS: 'true' }, ['KB_ALLOW_PRIVATE_NETWORKS'])).toBe(
      true,
    );
    expect(privateNetworksAllowed({ KB_ALLOW_PRIVATE_NETWORKS: 'true' })).toBe(false);
  });
});
