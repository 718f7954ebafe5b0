export * from './webhook-label';
export * from './webhook-field.validators';
export * from './webhook-endpoint-input.dto';
export * from './webhook-endpoint.dto';
export * from './agent-webhooks.dto';
export * from './webhook-delivery.dto';
export * from './webhook-payload';
export * from './webhook-signature';
