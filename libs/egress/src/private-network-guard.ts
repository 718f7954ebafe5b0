import { Logger } from '@nestjs/common';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { addressRange } from './address-policy';

/**
 * An outbound request was refused because its target is not on the public internet. Its message is what
 * partners read back (delivery errors, decision logs, index errors), so it names no address: what a name
 * resolved to inside the platform's network is for the server log only (see `detail`).
 */
export class PrivateNetworkError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super('refusing to connect: the target is not allowed (not a public address)');
    this.name = 'PrivateNetworkError';
  }

  /** The refused host and the address it resolved to, for server logs. */
  get detail(): string {
    return this.host === this.address ? this.address : `${this.host} (${this.address})`;
  }
}

const log = new Logger('PrivateNetworkGuard');

function refuse(host: string, address: string): PrivateNetworkError {
  const error = new PrivateNetworkError(host, address);
  log.warn(`refused an outbound connection to ${error.detail}: not a public address`);
  return error;
}

export interface PrivateNetworkGuardOptions {
  /** Let requests reach private, loopback and link-local targets (development and tests only). */
  allowPrivateNetworks: boolean;
}

/**
 * Refuses outbound connections to anything but global unicast addresses. The check runs on the addresses
 * DNS returns at connect time (through `lookup`), so a name that resolves to 127.0.0.1 or rebinds between
 * a check and the connect cannot get through; IP literals, which never reach a resolver, are checked
 * before the request (`assertHostAllowed`).
 */
export class PrivateNetworkGuard {
  constructor(private readonly options: PrivateNetworkGuardOptions) {}

  get allowsPrivateNetworks(): boolean {
    return this.options.allowPrivateNetworks;
  }

  /** Throws PrivateNetworkError when `host` is an IP literal outside public unicast. */
  assertHostAllowed(host: string): void {
    if (this.options.allowPrivateNetworks) return;
    const range = addressRange(host);
    if (range !== null && range !== 'unicast') throw refuse(host, host);
  }

  /** Throws PrivateNetworkError when any resolved address is private: one bad record refuses the name. */
  assertResolvedAllowed(host: string, addresses: string[]): void {
    if (this.options.allowPrivateNetworks) return;
    for (const address of addresses) {
      if (addressRange(address) !== 'unicast') throw refuse(host, address);
    }
  }

  /** A `net.connect` lookup that resolves with the system resolver and refuses private answers. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      try {
        this.assertResolvedAllowed(
          hostname,
          addresses.map((a) => a.address),
        );
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Whether outbound requests may reach private networks: WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (the platform
 * switch that development and tests set) or a feature's own switch among `extraSwitches`.
 */
export function privateNetworksAllowed(
  env: NodeJS.ProcessEnv = process.env,
  extraSwitches: string[] = [],
): boolean {
  return ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', ...extraSwitches].some((name) => env[name] === 'true');
}
