export * from './address-policy';
export * from './private-network-guard';
export * from './public-http-client';
export * from './linked-abort';
export * from './connect-failure';
export * from './partner-request-signature';
