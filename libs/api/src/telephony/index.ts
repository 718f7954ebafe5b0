export * from './telephony-credentials.dto';
export * from './phone-number.dto';
export * from './inbound-routing.dto';
export * from './reseller-link.dto';
export * from './inbound-route-request';
export * from './telephony-connection.dto';
