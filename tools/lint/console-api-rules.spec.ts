// The console has no bundler and cannot import the API's DTOs, so its forms keep copies of the rules they check
// before sending (the API checks them again). This holds each copy to the API's own.
import { ConnectorLimits, RESERVED_AUTHORIZE_PARAMS } from '@vap/api';
// A spec, not a runtime dependency: the console's module is read here only to compare it with the API's.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CONNECTOR_LIMITS, RESERVED_PARAMS } from '../../apps/console/src/pages/connections/connector-model';

describe('the console’s copies of the API’s rules', () => {
  it('connector form: reserves the authorization parameters the API reserves', () => {
    expect([...RESERVED_PARAMS].sort()).toEqual([...RESERVED_AUTHORIZE_PARAMS].sort());
  });

  it('connector form: bounds the fields as the API does', () => {
    for (const [name, value] of Object.entries(CONNECTOR_LIMITS)) {
      expect([name, value]).toEqual([name, ConnectorLimits[name as keyof typeof ConnectorLimits]]);
    }
  });
});
